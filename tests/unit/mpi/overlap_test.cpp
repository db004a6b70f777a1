// mpi/overlap.hpp without MPI calls: attach_overlap takes t_ovrl, t_pure and t_CPU from the
// process with the largest t_ovrl (per group with -multi 1), divides by the pattern's time
// divisor, adds t_pure's defects, and computes overlap[%] by the seed's formula.
#include <parbench/mpi/overlap.hpp>

#include <catch2/catch.hpp>

#include <vector>

using parbench::result_record;
using parbench::mpi::gathered;
using parbench::mpi::rank_timing;
using Catch::Detail::Approx;

namespace {

// One rank's timing: `us` µs per iteration over 10 iterations.
rank_timing timing(double us, int group = -1, std::uint64_t defects = 0) {
    rank_timing t;
    t.group = group;
    t.iterations = 10;
    t.total_s = us * 10 * 1e-6;
    t.defects = defects;
    return t;
}

gathered at_root(std::vector<rank_timing> ranks) { return {true, std::move(ranks), {}}; }

}  // namespace

TEST_CASE("all three times come from the process with the largest t_ovrl") {
    std::vector<result_record> records(1);
    records[0].defects = 0;
    // rank 1 has the largest t_ovrl (12 µs); its t_pure 10, t_CPU 4 -> (10 + 4 - 12) / 4 = 50 %
    const gathered ovrl = at_root({timing(9.0), timing(12.0), timing(11.0)});
    const gathered pure = at_root({timing(3.0, -1, 1), timing(10.0), timing(20.0, -1, 2)});
    const gathered cpu = at_root({timing(1.0), timing(4.0), timing(30.0)});
    parbench::mpi::cpu_load_calibration load;
    load.passes = 7;
    load.rate_mflops = 1234.0;
    parbench::mpi::attach_overlap(records, ovrl, pure, cpu, 1.0, load);
    REQUIRE(records[0].overlap.has_value());
    CHECK(records[0].overlap->t_ovrl_us == Approx(12.0));
    CHECK(records[0].overlap->t_pure_us == Approx(10.0));
    CHECK(records[0].overlap->t_cpu_us == Approx(4.0));
    CHECK(records[0].overlap->overlap_percent == Approx(50.0));
    CHECK(*records[0].defects == 3);  // t_pure's defects of every rank join t_ovrl's
    CHECK(records[0].metrics.at("cpu_load_passes") == 7.0);
    CHECK(records[0].metrics.at("cpu_load_rate_mflops") == 1234.0);
}

TEST_CASE("per group (-multi 1): each record's slowest process within its group") {
    std::vector<result_record> records(2);
    records[0].block.group = 0;
    records[1].block.group = 1;
    const gathered ovrl = at_root({timing(5.0, 0), timing(6.0, 0), timing(9.0, 1), timing(7.0, 1)});
    const gathered pure = at_root({timing(1.0, 0), timing(2.0, 0), timing(3.0, 1), timing(4.0, 1)});
    const gathered cpu = at_root({timing(1.0, 0), timing(5.0, 0), timing(8.0, 1), timing(2.0, 1)});
    parbench::mpi::attach_overlap(records, ovrl, pure, cpu, 1.0, {});
    REQUIRE(records[0].overlap.has_value());
    REQUIRE(records[1].overlap.has_value());
    CHECK(records[0].overlap->t_ovrl_us == Approx(6.0));  // rank 1
    CHECK(records[0].overlap->t_pure_us == Approx(2.0));
    CHECK(records[1].overlap->t_ovrl_us == Approx(9.0));  // rank 2
    CHECK(records[1].overlap->t_cpu_us == Approx(8.0));
    // (3 + 8 - 9) / 3
    CHECK(records[1].overlap->overlap_percent == Approx(200.0 / 3.0));
}

TEST_CASE("the pattern's time divisor applies to all three times") {
    std::vector<result_record> records(1);
    parbench::mpi::attach_overlap(records, at_root({timing(8.0)}), at_root({timing(6.0)}),
                                  at_root({timing(4.0)}), 2.0, {});
    REQUIRE(records[0].overlap.has_value());
    CHECK(records[0].overlap->t_ovrl_us == Approx(4.0));
    CHECK(records[0].overlap->t_pure_us == Approx(3.0));
    CHECK(records[0].overlap->t_cpu_us == Approx(2.0));
}

TEST_CASE("away from world rank 0, or without figures, nothing is attached") {
    std::vector<result_record> records(1);
    parbench::mpi::attach_overlap(records, gathered{}, gathered{}, gathered{}, 1.0, {});
    CHECK_FALSE(records[0].overlap.has_value());
    parbench::mpi::attach_overlap(records, at_root({timing(1.0)}), at_root({}), at_root({}), 1.0,
                                  {});
    CHECK_FALSE(records[0].overlap.has_value());
}

// IMB-IO 2021 (IMB_output.c:335-336): t_pure and t_ovrl each the largest over the processes,
// not the slowest t_ovrl's process's t_pure; t_CPU that process's (IMB's tCPU, the same on all).
TEST_CASE("times_each_their_maximum: t_pure the largest over the processes, as IMB-IO 2021") {
    const gathered ovrl = at_root({timing(9.0), timing(12.0), timing(11.0)});
    const gathered pure = at_root({timing(3.0), timing(10.0), timing(20.0)});
    const gathered cpu = at_root({timing(4.0), timing(4.0), timing(4.0)});
    std::vector<result_record> records(1);
    parbench::mpi::attach_overlap(records, ovrl, pure, cpu, 1.0, {},
                                  {.times_each_their_maximum = true});
    REQUIRE(records[0].overlap.has_value());
    CHECK(records[0].overlap->t_ovrl_us == Approx(12.0));
    CHECK(records[0].overlap->t_pure_us == Approx(20.0));  // rank 2's, not rank 1's 10
    CHECK(records[0].overlap->t_cpu_us == Approx(4.0));
    // (20 + 4 - 12) / min(20, 4) -> clamped to 100 %
    CHECK(records[0].overlap->overlap_percent == Approx(100.0));
    // The guide's rule on the same figures: rank 1's t_pure 10, (10 + 4 - 12) / 4 = 50 %.
    std::vector<result_record> guide(1);
    parbench::mpi::attach_overlap(guide, ovrl, pure, cpu, 1.0, {});
    CHECK(guide[0].overlap->t_pure_us == Approx(10.0));
    CHECK(guide[0].overlap->overlap_percent == Approx(50.0));
}
