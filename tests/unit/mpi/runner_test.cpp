// The MPI runner's pure parts (no MPI calls): active process sets, -map renumbering, groups,
// batching, slot rotation, -check values, the pattern vocabulary and record building.
#include <catch2/catch.hpp>

#include <parbench/mpi/active_set.hpp>
#include <parbench/mpi/check.hpp>
#include <parbench/mpi/message_buffers.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/collective.hpp>
#include <parbench/pattern/exchange.hpp>
#include <parbench/pattern/ping_pong.hpp>
#include <parbench/policy/aggregation.hpp>
#include <parbench/policy/sync.hpp>

#include <cstring>
#include <set>
#include <span>
#include <vector>

// A namespace of the file's own: the test program is a unity build (tests/mpi/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace runner_test {

using namespace parbench;
using namespace parbench::mpi;
using V = std::vector<int>;

TEST_CASE("process counts follow IMB's doubling up to P", "[active_set]") {
    CHECK(mpi::process_counts(11, 1) == V{1, 2, 4, 8, 11});
    CHECK(mpi::process_counts(8, 2) == V{2, 4, 8});
    CHECK(mpi::process_counts(6, 2) == V{2, 4, 6});
    CHECK(mpi::process_counts(512, 512) == V{512});
    CHECK(mpi::process_counts(14, 3) == V{3, 6, 12, 14});
    CHECK(mpi::process_counts(1, 2) == V{1});
}

TEST_CASE("-map PxQ renumbers along the matrix rows", "[active_set]") {
    CHECK(mpi::mapped_order(6, mpi::parse_map("3x2")) == V{0, 3, 1, 4, 2, 5});
    CHECK(mpi::mapped_order(4, mpi::parse_map("2x2")) == V{0, 2, 1, 3});
    CHECK(mpi::mapped_order(4, {}) == V{0, 1, 2, 3});
    CHECK_THROWS_AS(mpi::mapped_order(4, mpi::parse_map("3x2")), input_error);
    CHECK_THROWS_WITH(mpi::mapped_order(4, mpi::parse_map("3x2")),
                      Catch::Contains("-map 3x2") && Catch::Contains("4 processes"));
    for (const char* bad : {"3", "x2", "3x", "0x4", "-1x2", "2x2x2", "axb"})
        CHECK_THROWS_AS(mpi::parse_map(bad), input_error);
}

TEST_CASE("multiple mode groups follow the mapped order (IMB sample 2)", "[active_set]") {
    const auto order = mpi::mapped_order(6, mpi::parse_map("3x2"));
    const auto pairs = mpi::layout_groups(order, 2, true, 2);
    CHECK(pairs.groups == 3);
    CHECK(pairs.waiting == 0);
    CHECK(pairs.group_ranks == std::vector<V>{{0, 3}, {1, 4}, {2, 5}});
    const auto four = mpi::layout_groups(order, 4, true, 2);  // Q > P/2: one group
    CHECK(four.groups == 1);
    CHECK(four.waiting == 2);
    CHECK(four.rank_order == std::vector<V>{{0, 3}, {1, 4}});
    const auto standard = mpi::layout_groups(mpi::mapped_order(5, {}), 2, false);
    CHECK(standard.groups == 1);
    CHECK(standard.waiting == 3);
    CHECK(standard.rank_order.empty());
    // A round of the links suite: two disjoint pairs of a 7-process order, the rest waiting.
    const auto round = mpi::layout_groups(V{3, 0, 5, 6, 1, 2, 4}, 2, true, 0, 2);
    CHECK(round.groups == 2);
    CHECK(round.waiting == 3);
    CHECK(round.group_ranks == std::vector<V>{{3, 0}, {5, 6}});
    CHECK(mpi::layout_groups(V{0, 1, 2, 3}, 2, true, 0, 5).groups == 2);  // a limit above the fit
}

TEST_CASE("batches cover every iteration once, at most max_batches", "[aggregation]") {
    const policy::aggregation::batched b{};
    for (const std::uint64_t n : {1ull, 2ull, 10ull, 63ull, 64ull, 65ull, 1000ull, 12345ull}) {
        const auto ends = b.batch_ends(n);
        CHECK(ends.size() == std::min<std::uint64_t>(n, 64));
        CHECK(ends.back() == n);
        std::uint64_t previous = 0;
        std::uint64_t shortest = n;
        std::uint64_t longest = 0;
        for (const auto e : ends) {
            REQUIRE(e > previous);
            shortest = std::min(shortest, e - previous);
            longest = std::max(longest, e - previous);
            previous = e;
        }
        CHECK(longest - shortest <= 1);
    }
    CHECK(policy::aggregation::batched{.max_batches = 4}.batch_ends(10) ==
          std::vector<std::uint64_t>{2, 5, 7, 10});
}

TEST_CASE("a batch lasts at least min_batch_s, so boundary reads stay cheap", "[aggregation]") {
    const policy::aggregation::batched b{.max_batches = 64, .min_batch_s = 20e-6};
    // 1000 iterations of 0.37 us: 370 us in all, room for 18 whole batches of 20 us.
    CHECK(b.batch_count(1000, 0.37e-6) == 18);
    CHECK(b.batch_ends(1000, 0.37e-6).size() == 18);
    CHECK(b.batch_ends(1000, 0.37e-6).back() == 1000);
    // Long iterations keep every batch (at most one iteration each, at most max_batches).
    CHECK(b.batch_count(10, 1e-3) == 10);
    CHECK(b.batch_count(640, 16e-6) == 64);
    // Shorter than one floor in all: a single batch, never zero.
    CHECK(b.batch_count(5, 1e-7) == 1);
    // Unknown iteration time: no floor.
    CHECK(b.batch_count(1000) == 64);
    CHECK(policy::aggregation::batched{.min_batch_s = 0.0}.batch_count(1000, 1e-9) == 64);
}

TEST_CASE("off_cache slots are distinct, line-aligned and inside the region", "[buffers]") {
    const off_cache cache{true, 0.001, 64};
    mpi::message_region region(1000, cache);
    REQUIRE(region.rotating());
    region.allocate();
    const auto view = region.rotating_view();
    CHECK(view.stride() >= 1000 + 2 * 64);
    CHECK(view.stride() % 64 == 0);
    std::set<std::byte*> seen;
    for (std::uint64_t i = 0; i < view.count(); ++i) {
        std::byte* p = view.at(i);
        CHECK(p + 1000 <= region.data() + region.footprint());
        seen.insert(p);
    }
    CHECK(seen.size() == view.count());
    CHECK(view.at(view.count()) == view.at(0));  // wraps
    mpi::message_region plain(1000, off_cache{});
    CHECK_FALSE(plain.rotating());
    CHECK(plain.footprint() == 1000);
}

TEST_CASE("-check values are rank- and index-dependent and never zero", "[check]") {
    std::set<int> values;
    for (int rank = 0; rank < 4; ++rank)
        for (std::uint64_t j = 0; j < 600; ++j) {
            CHECK(mpi::check::byte_value(rank, j) != std::byte{0});
            values.insert(static_cast<int>(mpi::check::byte_value(rank, j)));
        }
    CHECK(values.size() > 200);
    CHECK(mpi::check::byte_value(0, 5) != mpi::check::byte_value(1, 5));
    std::vector<std::byte> data(300);
    mpi::check::fill_bytes(data, 3, 17);
    CHECK(mpi::check::count_byte_defects(data, 3, 17) == 0);
    data[7] ^= std::byte{1};
    data[200] = std::byte{0};
    CHECK(mpi::check::count_byte_defects(data, 3, 17) == 2);
    CHECK(mpi::check::count_byte_defects(data, 2, 17) > 250);
    // Reductions: exact float sums.
    std::vector<std::byte> sum(64 * sizeof(float));
    for (std::size_t j = 0; j < 64; ++j) {
        const float v = mpi::check::float_value(0, j) + mpi::check::float_value(1, j) +
                        mpi::check::float_value(2, j);
        std::memcpy(sum.data() + j * sizeof(float), &v, sizeof v);
    }
    CHECK(mpi::check::count_sum_defects(sum, 3) == 0);
    CHECK(mpi::check::count_sum_defects(sum, 2) == 64);
}

TEST_CASE("typed -check: elements where the layout puts them, gaps untouched, typed sums",
          "[check]") {
    using mpi::check::element_kind;
    using mpi::check::element_layout;
    // A resized MPI_INT (IMB 2021 -contig_type resize): 4 data bytes, then a 4-byte gap.
    const element_layout resized = element_layout::of(element_kind::mpi_int, 2);
    CHECK(resized.size == 4);
    CHECK(resized.stride == 8);
    CHECK(resized.buffer_bytes(12) == 24);
    std::vector<std::byte> message(24);
    mpi::check::fill_bytes(resized, message, 1);
    // Data byte 5 of the message is byte 1 of element 1, at buffer offset 9; gaps are marked.
    CHECK(message[9] == mpi::check::byte_value(1, 5));
    CHECK(message[4] == mpi::check::gap_marker);
    // What arrives: the data bytes only, into a cleared buffer.
    std::vector<std::byte> arrived(24);
    for (std::size_t j = 0; j < 24; ++j)
        if (j % 8 < 4) arrived[j] = message[j];
    CHECK(mpi::check::count_byte_defects(resized, arrived, 1) == 0);
    arrived[13] = std::byte{1};  // a gap written
    arrived[0] ^= std::byte{1};  // a data byte wrong
    CHECK(mpi::check::count_byte_defects(resized, arrived, 1) == 2);
    // The second half of a message read through part(): message bytes [8, 12) at offset 16.
    CHECK(resized.part(std::span<std::byte>(message), 8, 4).data() == message.data() + 16);

    // Typed sums: element j of rank r is 1 + r % 16 + j % 128, summed in the element type.
    CHECK(mpi::check::reduction_sum<int>(3, 10) == 11 + 12 + 13);
    CHECK(mpi::check::reduction_sum<double>(2, 127) == 128.0 + 129.0);
    // char wraps modulo 256 as MPI_SUM on MPI_CHAR does: 128 + 129 = 257 -> 1.
    CHECK(mpi::check::reduction_sum<char>(2, 127) == static_cast<char>(1));
    const element_layout doubles = element_layout::of(element_kind::mpi_double, 2);
    std::vector<std::byte> sums(4 * 16);
    for (std::size_t j = 0; j < 4; ++j) {
        const double v = mpi::check::reduction_sum<double>(3, 7 + j);
        std::memcpy(sums.data() + j * 16, &v, sizeof v);
    }
    CHECK(mpi::check::count_reduction_defects(doubles, sums, 3, 7) == 0);
    CHECK(mpi::check::count_reduction_defects(doubles, sums, 3, 6) == 4);
    sums[8] = std::byte{1};  // a gap written
    CHECK(mpi::check::count_reduction_defects(doubles, sums, 3, 7) == 1);
}

TEST_CASE("a check's findings: each mismatch's position, expected and actual value, capped",
          "[check]") {
    std::vector<std::byte> data(300);
    mpi::check::fill_bytes(data, 3, 17);
    data[7] ^= std::byte{1};
    data[200] = std::byte{0};
    // rank 3's byte i is 1 + (3·37 + 11 i + i / 256) mod 251: i = 24 is 125 (flipped, 124),
    // i = 217 is 240, -16 as a char (OSU prints MPI_CHAR with %d), found 0; positions from 1000
    const mpi::check::findings found = mpi::check::find_byte_defects(data, 3, 17, 1000);
    CHECK(found.count == 2);
    CHECK(found.listed == std::vector<mpi::check::mismatch>{{1007, 125, 124}, {1200, -16, 0}});
    CHECK_FALSE(found.floating);
    // at most listed_at_most kept, every one counted, in order; += keeps the cap
    const std::vector<std::byte> zeros(1500);
    mpi::check::findings all = mpi::check::find_byte_defects(zeros, 0);
    CHECK(all.count == 1500);
    REQUIRE(all.listed.size() == mpi::check::findings::listed_at_most);
    CHECK(all.listed.back().position == mpi::check::findings::listed_at_most - 1);
    all += found;
    CHECK(all.count == 1502);
    CHECK(all.listed.size() == mpi::check::findings::listed_at_most);
    // a plain count is findings with nothing listed
    CHECK(mpi::check::as_findings(std::uint64_t{4}).count == 4);
    CHECK(mpi::check::as_findings(std::uint64_t{4}).listed.empty());
    // typed sums list elements (floating for float and double); a written gap is counted only
    const auto doubles = mpi::check::element_layout::of(mpi::check::element_kind::mpi_double, 2);
    std::vector<std::byte> sums(3 * 16);
    for (std::size_t j = 0; j < 3; ++j) {
        const double v = mpi::check::reduction_sum<double>(2, j);
        std::memcpy(sums.data() + j * 16, &v, sizeof v);
    }
    const double wrong = 7.5;
    std::memcpy(sums.data() + 2 * 16, &wrong, sizeof wrong);
    sums[8] = std::byte{1};
    const mpi::check::findings typed = mpi::check::find_reduction_defects(doubles, sums, 2);
    CHECK(typed.count == 2);
    // element 2 of two processes: (1 + 2) + (2 + 2) = 7
    CHECK(typed.listed == std::vector<mpi::check::mismatch>{{2, 7.0, 7.5}});
    CHECK(typed.floating);
    // a message of 4-byte elements (-T MPI_INT, MPI_FLOAT): each element with a wrong byte once,
    // at its element position (1000 bytes on: 250), its four bytes as a little-endian number:
    // bytes 21-24 of rank 3 are 92, 103, 114, 125 (0x7d72675c; byte 24 flipped 0x7c72675c),
    // bytes 217-220 are 240, 251, 11, 22 (0x160bfbf0; byte 217 zeroed 0x160bfb00)
    const mpi::check::findings words = mpi::check::find_byte_defects(data, 3, 17, 1000, 4);
    CHECK(words.count == 2);
    CHECK(words.element_size == 4);
    CHECK(words.listed == std::vector<mpi::check::mismatch>{{251, 0x7d72675c, 0x7c72675c},
                                                            {300, 0x160bfbf0, 0x160bfb00}});
}

struct counting_comm {
    int barriers = 0;
    void barrier() { ++barriers; }
};

TEST_CASE("sync policies: IMB's N_BARR barriers or none", "[sync]") {
    counting_comm c;
    policy::sync::barrier{}.before_timing(c);
    CHECK(c.barriers == 2);
    policy::sync::barrier{.count = 5}.before_timing(c);
    CHECK(c.barriers == 7);
    policy::sync::none{}.before_timing(c);
    CHECK(c.barriers == 7);
}

TEST_CASE("pattern descriptors carry IMB's reporting rules", "[pattern]") {
    constexpr pattern::ping_pong pp{};
    STATIC_REQUIRE(pp.time_divisor == 2.0);
    STATIC_REQUIRE(pattern::fixed_group_size(pp));
    STATIC_REQUIRE(pattern::class_in_groups(pp, 1) == benchmark_class::single_transfer);
    STATIC_REQUIRE(pattern::class_in_groups(pp, 3) == benchmark_class::parallel_transfer);
    constexpr auto pingping = pattern::exchange::ping_ping();
    STATIC_REQUIRE(pingping.klass == benchmark_class::single_transfer);
    STATIC_REQUIRE(pingping.time_divisor == 1.0);
    STATIC_REQUIRE(pattern::exchange::sendrecv().nmsg == 2);
    STATIC_REQUIRE(pattern::exchange::left_right().nmsg == 4);
    STATIC_REQUIRE(pattern::exchange::left_right().klass == benchmark_class::parallel_transfer);
    constexpr pattern::collective bcast{.rooted = true};
    STATIC_REQUIRE(pattern::root_of(bcast, 7, 3) == 1);
    STATIC_REQUIRE(pattern::class_in_groups(bcast, 4) == benchmark_class::collective);
    STATIC_REQUIRE(pattern::collective_descriptor<pattern::collective>);
    STATIC_REQUIRE_FALSE(pattern::collective_descriptor<pattern::ping_pong>);
    STATIC_REQUIRE(policy::aggregation_policy<policy::aggregation::aggregate>);
    STATIC_REQUIRE_FALSE(policy::aggregation::non_aggregate::is_aggregate);
}

TEST_CASE("reduce_ranks keeps t_min <= t_avg <= t_max when every rank took the same time",
          "[record]") {
    // Three ranks, each 1.43e-5 s for one iteration: t = 14.3 us and (t + t + t) / 3 rounds
    // above t unless clamped, while every consumer takes min <= avg <= max for granted.
    const auto pattern = pattern::exchange::sendrecv();
    const auto layout = layout_groups({0, 1, 2}, 3, false);
    const mpi::rank_timing same{0, 1, 1.43e-5, 1.43e-5, 0, {}};
    const std::vector<const mpi::rank_timing*> ranks{&same, &same, &same};
    const auto r = mpi::reduce_ranks(pattern, record_labels{"imb-mpi1", "Sendrecv"}, layout, 1024,
                                     false, ranks, 0);
    CHECK(r.t_min_us <= r.t_avg_us);
    CHECK(r.t_avg_us <= r.t_max_us);
    CHECK(r.t_avg_us == Approx(14.3));
}

TEST_CASE("one-sided pairings: every rank to the root, rotated all-to-all", "[pairing]") {
    using parbench::pattern::rotated_all;
    using parbench::pattern::to_root;
    for (int rank = 0; rank < 4; ++rank) {
        // IMB-EXT Accumulate: every rank, rank 0 included, adds into rank 0.
        CHECK(to_root.initiator(rank, 4));
        CHECK(to_root.target_count(rank, 4) == 1);
        CHECK(to_root.target(rank, 4, 0) == 0);
        // IMB-RMA All_*_all: step k reaches (r + 1 + k) mod np, every other rank once.
        std::set<int> targets;
        for (int step = 0; step < rotated_all.target_count(rank, 4); ++step)
            targets.insert(rotated_all.target(rank, 4, step));
        CHECK(targets.size() == 3);
        CHECK(!targets.contains(rank));
        CHECK(rotated_all.target(rank, 4, 0) == (rank + 1) % 4);
    }
    CHECK(to_root.active(0, 1));
}

}  // namespace runner_test
