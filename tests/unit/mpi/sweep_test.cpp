// mpi/sweep.hpp: the order of the sweep's steps and its notes of skipped sizes, on a family
// that records every call (the sweep itself calls no MPI).
#include <parbench/mpi/sweep.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace {

struct fake_record {
    std::uint64_t bytes = 0;
};

struct fake_measurement {
    std::vector<fake_record> records{};
    std::size_t skipped_need_bytes = 0;
    bool allocation_failed = false;
};

// Sizes at or above `over_cap_from` need 10 * x bytes and are skipped; size `fails` fails to
// allocate; every other size yields `records_per_size` records.
struct recording_family {
    std::vector<int> counts{};
    std::vector<std::uint64_t> sizes_swept{};
    std::uint64_t over_cap_from = 0;  // 0: none
    std::uint64_t fails = ~std::uint64_t{0};  // none
    int records_per_size = 1;
    std::vector<std::string>* log = nullptr;
    std::vector<parbench::mpi::size_notes>* notes = nullptr;

    struct count {
        int q = 0;
        int published = 0;
    };

    [[nodiscard]] std::vector<int> process_counts() const { return counts; }
    [[nodiscard]] std::vector<std::uint64_t> sizes() const { return sizes_swept; }
    [[nodiscard]] count open(int q) const {
        log->push_back("open " + std::to_string(q));
        return {.q = q};
    }
    void progress(const count& c, std::uint64_t x) const {
        log->push_back("progress " + std::to_string(c.q) + " " + std::to_string(x));
    }
    void warm_up(const count& c, std::uint64_t x) const {
        log->push_back("warm_up " + std::to_string(c.q) + " " + std::to_string(x));
    }
    [[nodiscard]] fake_measurement measure(const count& /*c*/, std::uint64_t x) const {
        log->push_back("measure " + std::to_string(x));
        fake_measurement m;
        if (over_cap_from != 0 && x >= over_cap_from) {
            m.skipped_need_bytes = static_cast<std::size_t>(10 * x);
            return m;
        }
        if (x == fails) {
            m.allocation_failed = true;
            return m;
        }
        m.records.assign(static_cast<std::size_t>(records_per_size), fake_record{x});
        return m;
    }
    void publish(count& c, const fake_record& r) const {
        ++c.published;
        log->push_back("publish " + std::to_string(r.bytes));
    }
    void close(const count& c, const parbench::mpi::size_notes& n) const {
        log->push_back("close " + std::to_string(c.q) + " " + std::to_string(c.published));
        notes->push_back(n);
    }
};

// Two passes, each labelled in the log; no warm-up.
struct two_pass_family {
    std::vector<std::string>* log = nullptr;
    static constexpr std::size_t passes = 2;
    struct count {};
    [[nodiscard]] std::array<int, 1> process_counts() const { return {2}; }
    [[nodiscard]] std::array<std::uint64_t, 2> sizes() const { return {1, 8}; }
    [[nodiscard]] count open(int /*q*/) const { return {}; }
    void progress(const count& /*c*/, std::uint64_t /*x*/) const {}
    template <std::size_t P>
    [[nodiscard]] fake_measurement measure(const count& /*c*/, std::uint64_t x,
                                           parbench::mpi::sweep_pass<P> /*pass*/) const {
        log->push_back("pass " + std::to_string(P) + " " + std::to_string(x));
        return {};
    }
    void publish(const count& /*c*/, const fake_record& /*r*/) const {}
    void close(const count& /*c*/, const parbench::mpi::size_notes& /*n*/) const {
        log->push_back("close");
    }
};

// Two passes over 1, 8, 64 at counts 2 and 4; at count 2 `stopped` turns true once `stop_at` has
// been measured (PAW's per-size budget). Its count is changed by measure, as PAW's is.
struct stopping_family {
    std::uint64_t stop_at = 0;
    std::vector<std::string>* log = nullptr;
    static constexpr std::size_t passes = 2;
    struct count {
        int q = 0;
        std::uint64_t last = 0;
    };
    [[nodiscard]] std::array<int, 2> process_counts() const { return {2, 4}; }
    [[nodiscard]] std::array<std::uint64_t, 3> sizes() const { return {1, 8, 64}; }
    [[nodiscard]] count open(int q) const {
        log->push_back("open " + std::to_string(q));
        return {.q = q};
    }
    void progress(const count& /*c*/, std::uint64_t /*x*/) const {}
    template <std::size_t P>
    [[nodiscard]] fake_measurement measure(count& c, std::uint64_t x,
                                           parbench::mpi::sweep_pass<P> /*pass*/) const {
        log->push_back("pass " + std::to_string(P) + " " + std::to_string(x));
        c.last = x;
        return {.records = {fake_record{x}}};
    }
    void publish(const count& /*c*/, const fake_record& r) const {
        log->push_back("publish " + std::to_string(r.bytes));
    }
    [[nodiscard]] bool stopped(const count& c) const { return c.q == 2 && c.last == stop_at; }
    void close(const count& c, const parbench::mpi::size_notes& /*n*/) const {
        log->push_back("close " + std::to_string(c.q));
    }
};

// The same, with `ended` instead (IMB 2021's -time budget): once `end_at` has been measured in
// pass `end_pass` at count 2 the whole benchmark ends.
struct ending_family : stopping_family {
    std::uint64_t end_at = 0;
    [[nodiscard]] bool stopped(const count& /*c*/) const { return false; }
    [[nodiscard]] bool ended(const count& c) const { return c.q == 2 && c.last == end_at; }
};

static_assert(parbench::mpi::sweep_family<recording_family>);
static_assert(parbench::mpi::sweep_family<stopping_family>);
static_assert(parbench::mpi::sweep_family<two_pass_family>);
static_assert(parbench::mpi::passes_of<recording_family>() == 1);
static_assert(parbench::mpi::passes_of<two_pass_family>() == 2);

}  // namespace

TEST_CASE("sweep: counts, then sizes; warm-up once per count after the first progress",
          "[sweep]") {
    std::vector<std::string> log;
    std::vector<parbench::mpi::size_notes> notes;
    parbench::mpi::sweep(recording_family{.counts = {2, 4},
                                          .sizes_swept = {0, 4},
                                          .records_per_size = 2,
                                          .log = &log,
                                          .notes = &notes});
    const std::vector<std::string> expected = {
        "open 2",     "progress 2 0", "warm_up 2 0", "measure 0",  "publish 0",
        "publish 0",  "progress 2 4", "measure 4",   "publish 4",  "publish 4",
        "close 2 4",  "open 4",       "progress 4 0", "warm_up 4 0", "measure 0",
        "publish 0",  "publish 0",    "progress 4 4", "measure 4",  "publish 4",
        "publish 4",  "close 4 4"};
    CHECK(log == expected);
    REQUIRE(notes.size() == 2);
    CHECK(notes[0].worst_need_bytes == 0);
    CHECK_FALSE(notes[0].skipped_for_memory());
    CHECK_FALSE(notes[0].allocation_failed);
}

TEST_CASE("sweep: no counts, nothing opened", "[sweep]") {
    std::vector<std::string> log;
    std::vector<parbench::mpi::size_notes> notes;
    parbench::mpi::sweep(recording_family{.sizes_swept = {1}, .log = &log, .notes = &notes});
    CHECK(log.empty());
    CHECK(notes.empty());
}

TEST_CASE("sweep: skipped sizes are noted, and the sweep goes on past them", "[sweep]") {
    std::vector<std::string> log;
    std::vector<parbench::mpi::size_notes> notes;
    // 16 and 64 are over the cap (they need 10 * x bytes); 2 fails to allocate.
    parbench::mpi::sweep(recording_family{.counts = {2},
                                          .sizes_swept = {1, 2, 16, 64},
                                          .over_cap_from = 16,
                                          .fails = 2,
                                          .log = &log,
                                          .notes = &notes});
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].skipped_for_memory());
    CHECK(notes[0].first_skipped_bytes == 16);
    CHECK(notes[0].worst_need_bytes == 10 * 64);
    CHECK(notes[0].allocation_failed);
    // every size is measured: a skip is a collective outcome, never an early exit
    CHECK(std::count(log.begin(), log.end(), std::string("measure 64")) == 1);
    CHECK(log.back() == "close 2 1");  // only size 1 published a record
}

TEST_CASE("sweep: each pass sweeps every size, in pass order", "[sweep]") {
    std::vector<std::string> log;
    parbench::mpi::sweep(two_pass_family{.log = &log});
    const std::vector<std::string> expected = {"pass 0 1", "pass 0 8", "pass 1 1", "pass 1 8",
                                               "close"};
    CHECK(log == expected);
}

TEST_CASE("sweep: stopped ends the count's sizes and passes; close and the next count follow",
          "[sweep]") {
    std::vector<std::string> log;
    parbench::mpi::sweep(stopping_family{.stop_at = 8, .log = &log});
    const std::vector<std::string> expected = {
        "open 2",    "pass 0 1",  "publish 1", "pass 0 8",  "publish 8",  "close 2",
        "open 4",    "pass 0 1",  "publish 1", "pass 0 8",  "publish 8",  "pass 0 64",
        "publish 64", "pass 1 1", "publish 1", "pass 1 8",  "publish 8",  "pass 1 64",
        "publish 64", "close 4"};
    CHECK(log == expected);
}

TEST_CASE("sweep: stopped never true, every size of every pass runs", "[sweep]") {
    std::vector<std::string> log;
    parbench::mpi::sweep(stopping_family{.stop_at = 3, .log = &log});
    CHECK(std::count(log.begin(), log.end(), std::string("pass 1 64")) == 2);
    CHECK(log.back() == "close 4");
}

TEST_CASE("size_notes: first skipped size and largest need", "[sweep]") {
    parbench::mpi::size_notes n;
    n.note(8, fake_measurement{.skipped_need_bytes = 0});
    CHECK_FALSE(n.skipped_for_memory());
    n.note(32, fake_measurement{.skipped_need_bytes = 500});
    n.note(16, fake_measurement{.skipped_need_bytes = 300});
    n.note(64, fake_measurement{.skipped_need_bytes = 900, .allocation_failed = true});
    CHECK(n.first_skipped_bytes == 32);
    CHECK(n.worst_need_bytes == 900);
    CHECK(n.allocation_failed);
}

TEST_CASE("sweep: ended ends the benchmark: the count's sizes and passes and every later count",
          "[sweep]") {
    std::vector<std::string> log;
    ending_family family;
    family.end_at = 8;
    family.log = &log;
    parbench::mpi::sweep(family);
    const std::vector<std::string> expected = {"open 2",    "pass 0 1", "publish 1",
                                               "pass 0 8",  "publish 8", "close 2"};
    CHECK(log == expected);
}
