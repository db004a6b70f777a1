// mpi/rank_timing.hpp: the gathered row of one process's figures, written and read through one
// field table. Every field gets a value no other field has, so a slot read into the wrong field
// (or not at all) is a difference.
#include <parbench/mpi/rank_timing.hpp>

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

using parbench::mpi::rank_timing;

namespace {

rank_timing distinct_figures() {
    rank_timing t;
    t.group = 3;
    t.iterations = 1000;
    t.total_s = 0.25;
    t.cpu_s = 0.125;
    t.defects = 7;
    t.batch_s = {1e-6, 2e-6, 3e-6, 4e-6};
    t.windowed = true;
    t.valid_calls = 11;
    t.invalid_calls = 5;
    t.window_s = 0.05;
    t.ci_target = 0.02;
    t.ci_verdict = 2;
    t.rounds = 4;
    t.epochs = 6;
    return t;
}

}  // namespace

TEST_CASE("a rank's figures come back from its row field by field", "[rank_timing]") {
    const rank_timing t = distinct_figures();
    const auto row = parbench::mpi::rank_row(t, 4, parbench::mpi::rank_row_header + 4);
    REQUIRE(row.size() == parbench::mpi::rank_row_header + 4);
    const rank_timing back = parbench::mpi::from_rank_row(row);
    CHECK(back.group == 3);
    CHECK(back.iterations == 1000);
    CHECK(back.total_s == 0.25);
    CHECK(back.cpu_s == 0.125);
    CHECK(back.defects == 7);
    CHECK(back.batch_s == std::vector<double>{1e-6, 2e-6, 3e-6, 4e-6});
    CHECK(back.windowed);
    CHECK(back.valid_calls == 11);
    CHECK(back.invalid_calls == 5);
    CHECK(back.window_s == 0.05);
    CHECK(back.ci_target == 0.02);
    CHECK(back.ci_verdict == 2);
    CHECK(back.rounds == 4);
    CHECK(back.epochs == 6);
    CHECK(back == t);
}

TEST_CASE("a row holds as many batches as the gather keeps, padded to its width",
          "[rank_timing]") {
    const rank_timing t = distinct_figures();
    const std::size_t header = parbench::mpi::rank_row_header;
    // max_batches 2: the first two travel.
    const auto cut = parbench::mpi::rank_row(t, 2, header + 2);
    CHECK(parbench::mpi::from_rank_row(cut).batch_s == std::vector<double>{1e-6, 2e-6});
    // Another process kept 6 (the width is the widest): this row's 4 and two unused slots.
    const auto padded = parbench::mpi::rank_row(t, 6, header + 6);
    REQUIRE(padded.size() == header + 6);
    CHECK(parbench::mpi::from_rank_row(padded).batch_s == t.batch_s);
    CHECK(padded[header + 4] == 0.0);
    // A timing without epochs reads back as none (0), and IMB 2021's single epoch as one: the
    // record tells the two apart (phases.hpp), so a row of one epoch has no CI by method.
    rank_timing none;
    CHECK(parbench::mpi::from_rank_row(parbench::mpi::rank_row(none, 0, header)).epochs == 0);
    rank_timing single;
    single.epochs = 1;
    CHECK(parbench::mpi::from_rank_row(parbench::mpi::rank_row(single, 0, header)).epochs == 1);
}

TEST_CASE("the field table names each field once", "[rank_timing]") {
    std::set<std::string> names;
    for (const auto& f : parbench::mpi::rank_timing_fields) CHECK(names.insert(f.name).second);
    // Every scalar member of rank_timing (all but batch_s) has its slot.
    CHECK(names.size() == 13);
    CHECK(parbench::mpi::rank_row_header == names.size() + 1);
}
