// The pure parts of the osu and paw one-sided tests (no MPI calls): the -check of each operation
// catches a wrong byte, PAW's repetitions policy cuts NREPS batches of NLOOP with NLOOP never
// growing with size, and PAW's reduction takes the minimum across tasks per repetition before
// its statistics over the repetitions.
#include <catch2/catch.hpp>

#include <parbench/mpi/reduction.hpp>
#include <parbench/pattern/one_sided.hpp>
#include <parbench/policy/paw_repetitions.hpp>
#include <parbench/suites/rma/kernels.hpp>

#include <cstring>
#include <vector>

// A namespace of the file's own: the test program is a unity build (tests/mpi/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace one_sided_parts_test {

using namespace parbench;
using namespace parbench::rma_kernels;

namespace {

// Two processes' memory side by side, and the transfer an MPI call would make, done by hand.
struct pair_memory {
    std::size_t bytes;
    std::uint64_t sections;
    std::vector<std::byte> window[2], origin[2], result[2];
    std::vector<MPI_Aint> bases = {0, 0};

    pair_memory(std::size_t b, std::uint64_t s) : bytes(b), sections(s) {
        for (int r = 0; r < 2; ++r) {
            window[r].resize(b * s);
            origin[r].resize(b * s);
            result[r].resize(std::max<std::size_t>(2 * atomic_bytes, b * s));
        }
    }
    mpi::window_view view(int r) {
        return {MPI_WIN_NULL, window[r].data(), origin[r].data(), result[r].data(), bytes,
                sections, 1, bases.data(), 0};
    }
    static mpi::kernel_context context(int r, pattern::pairing pairs) {
        mpi::kernel_context c;
        c.rank = r;
        c.size = 2;
        c.peer = 1 - r;
        c.pairs = pairs;
        c.initiator = pairs.initiator(r, 2);
        return c;
    }
};

}  // namespace

TEST_CASE("a put's check counts every wrong byte at the target", "[check]") {
    pair_memory m(5, 2);
    const data_check<rma_op::put> check;
    for (int r = 0; r < 2; ++r) check.prepare(pair_memory::context(r, pattern::first_pair), m.view(r));
    m.window[1] = m.origin[0];  // rank 0 put both sections into rank 1
    CHECK(check.verify(pair_memory::context(1, pattern::first_pair), 3, m.view(1)).count == 0);
    m.window[1][7] ^= std::byte{1};
    m.window[1][9] = std::byte{0};
    const mpi::check::findings found =
        check.verify(pair_memory::context(1, pattern::first_pair), 3, m.view(1));
    CHECK(found.count == 2);
    // each listed with OSU's -c log values: rank 0's byte k is (131 + 7k + k / 251) mod 256, as
    // a char: k = 7 is 180 (-76), flipped 181 (-75); k = 9 is 194 (-62), found 0
    CHECK(found.listed == std::vector<mpi::check::mismatch>{{7, -76, -75}, {9, -62, 0}});
    // rank 0's window is nobody's target: nothing to count
    CHECK(check.verify(pair_memory::context(0, pattern::first_pair), 3, m.view(0)).count == 0);
}

TEST_CASE("a get's check reads the origin's slots", "[check]") {
    pair_memory m(4, 1);
    const data_check<rma_op::get> check;
    for (int r = 0; r < 2; ++r) check.prepare(pair_memory::context(r, pattern::first_pair), m.view(r));
    // nothing came
    CHECK(check.verify(pair_memory::context(0, pattern::first_pair), 1, m.view(0)).count == 4);
    m.origin[0] = m.window[1];
    CHECK(check.verify(pair_memory::context(0, pattern::first_pair), 1, m.view(0)).count == 0);
}

TEST_CASE("accumulates count n per byte, fetches n - 1, CAS swaps once", "[check]") {
    pair_memory m(3, 1);
    const data_check<rma_op::get_accumulate> acc;
    for (int r = 0; r < 2; ++r) acc.prepare(pair_memory::context(r, pattern::first_pair), m.view(r));
    // 300 accumulates of 1: each target byte 300 mod 256 = 44, the last fetch 299 mod 256 = 43
    for (auto& b : m.window[1]) b = std::byte{44};
    for (std::size_t k = 0; k < 3; ++k) m.result[0][k] = std::byte{43};
    CHECK(acc.verify(pair_memory::context(1, pattern::first_pair), 300, m.view(1)).count == 0);
    CHECK(acc.verify(pair_memory::context(0, pattern::first_pair), 300, m.view(0)).count == 0);
    CHECK(acc.verify(pair_memory::context(1, pattern::first_pair), 301, m.view(1)).count == 3);

    pair_memory c(atomic_bytes, 1);
    const data_check<rma_op::compare_and_swap> cas;
    for (int r = 0; r < 2; ++r) cas.prepare(pair_memory::context(r, pattern::first_pair), c.view(r));
    const long long one = 1;
    std::memcpy(c.window[1].data(), &one, sizeof one);
    std::memcpy(c.result[0].data(), &one, sizeof one);  // from the second swap on, 1 comes back
    CHECK(cas.verify(pair_memory::context(1, pattern::first_pair), 5, c.view(1)).count == 0);
    CHECK(cas.verify(pair_memory::context(0, pattern::first_pair), 5, c.view(0)).count == 0);
    // the first swap fetches 0
    CHECK(cas.verify(pair_memory::context(0, pattern::first_pair), 1, c.view(0)).count == 1);
}

TEST_CASE("PAW's repetitions: NREPS batches of NLOOP, NLOOP never grows", "[paw]") {
    policy::iterations::paw_repetitions p{
        .method = {.nloop_max = 1000, .nreps = 4, .min_loop_s = 1e-3, .budget_s = 0.0}};
    // 1 us per call: a 1 ms loop is 1000 calls, 4 repetitions
    CHECK(p.decide(8, false, 1e-6, 2, false) == 4000);
    CHECK(p.batch_ends(4000, 1e-6) == std::vector<std::uint64_t>{1000, 2000, 3000, 4000});
    // 10 us per call: 100 calls
    CHECK(p.decide(64, false, 1e-5, 2, false) == 400);
    CHECK(p.batch_ends(400, 1e-5) == std::vector<std::uint64_t>{100, 200, 300, 400});
    // a faster size later does not raise NLOOP above the previous size's
    CHECK(p.decide(128, false, 1e-7, 2, false) == 400);
}

TEST_CASE("PAW's reduction: MIN across tasks per repetition, statistics over repetitions",
          "[paw]") {
    mpi::gathered g;
    g.root = true;
    g.ranks.resize(2);
    g.ranks[0] = {.group = 0, .iterations = 30, .batch_s = {4e-6, 2e-6, 9e-6}};
    g.ranks[1] = {.group = 0, .iterations = 30, .batch_s = {3e-6, 5e-6, 6e-6}};
    const pattern::one_sided d{.klass = benchmark_class::parallel_transfer, .pairs = pattern::halves};
    mpi::group_layout layout;
    layout.processes = 2;
    const auto records =
        mpi::reduce_min_per_repetition(d, {"paw", "p2p_get"}, layout, 64, false, g);
    REQUIRE(records.size() == 1);
    const result_record& r = records.front();
    // per repetition: min(4, 3) = 3, min(2, 5) = 2, min(9, 6) = 6 us
    CHECK(r.samples_us == std::vector<double>{3.0, 2.0, 6.0});
    CHECK(r.t_min_us == Approx(2.0));
    CHECK(r.t_max_us == Approx(6.0));
    CHECK(r.t_avg_us == Approx(11.0 / 3.0));
    CHECK(r.iterations == 10);  // NLOOP = 30 calls / 3 repetitions
    CHECK(r.over_repetitions());
    CHECK(r.headline_time_us() == Approx(11.0 / 3.0));
}

}  // namespace one_sided_parts_test
