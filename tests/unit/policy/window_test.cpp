// policy/window.hpp and the window parts of policy/sync.hpp: offset and drift estimation from
// ping-pong exchanges against synthetic clocks whose offset and rate are known, the window
// schedule's arithmetic, and the -sync option.
#include <parbench/policy/sync.hpp>
#include <parbench/policy/window.hpp>

#include <catch2/catch.hpp>

#include <vector>

// A namespace of the file's own: the test program is a unity build (tests/unit/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace window_test {

using namespace parbench::policy::sync;
using Catch::Matchers::Contains;
using Catch::Matchers::Message;

namespace {

// A local clock that reads `offset + rate * t` at true time t; the reference clock reads t.
struct synthetic_clock {
    double offset_s = 0.0;
    double rate = 1.0;
    [[nodiscard]] double local(double true_s) const { return offset_s + rate * true_s; }
    // Reference − local at the true instant where the local clock reads local_s.
    [[nodiscard]] double true_offset_at_local(double local_s) const {
        return (local_s - offset_s) / rate - local_s;
    }
};

// One round trip leaving at true time t0: `out_s` to the reference, `back_s` to return.
exchange round_trip(const synthetic_clock& c, double t0, double out_s, double back_s) {
    return {c.local(t0), t0 + out_s, c.local(t0 + out_s + back_s)};
}

struct counting_comm {
    int barriers = 0;
    void barrier() { ++barriers; }
};

}  // namespace

TEST_CASE("a symmetric round trip gives the exact offset", "[window]") {
    const synthetic_clock c{.offset_s = 3.25e-3};
    const std::vector<exchange> one{round_trip(c, 10.0, 1e-6, 1e-6)};
    const clock_fit f = fit_offset(one);
    CHECK(f.offset_s == Approx(-3.25e-3).margin(1e-12));
    CHECK(f.error_s == Approx(1e-6).margin(1e-12));  // half of the 2 µs round trip
    CHECK(f.local_s == Approx(c.local(10.0 + 1e-6)).margin(1e-12));
}

TEST_CASE("the shortest round trip is kept and its error bounds the estimate", "[window]") {
    const synthetic_clock c{.offset_s = -0.5};
    // Asymmetric, slow trips first; the 0.4 µs trip (0.1 out, 0.3 back) is the shortest.
    const std::vector<exchange> trips{round_trip(c, 1.0, 30e-6, 2e-6),
                                      round_trip(c, 1.1, 0.1e-6, 0.3e-6),
                                      round_trip(c, 1.2, 5e-6, 50e-6)};
    const clock_fit f = fit_offset(trips);
    CHECK(f.error_s == Approx(0.2e-6).margin(1e-12));
    // The midpoint assumption puts the reference read (0.3 − 0.1) / 2 = 0.1 µs later than it
    // happened: the offset comes out 0.1 µs low.
    CHECK(f.offset_s - 0.5 == Approx(-0.1e-6).margin(1e-12));
    CHECK(std::abs(f.offset_s - c.true_offset_at_local(f.local_s)) <= f.error_s);
    // The slowest trip alone is 27 µs off: a wrong choice would show.
    const clock_fit slow = fit_offset(std::vector<exchange>{trips[2]});
    CHECK(std::abs(slow.offset_s + 0.5) > 20e-6);
}

TEST_CASE("no usable exchange leaves an infinite error", "[window]") {
    CHECK(fit_offset(std::vector<exchange>{}).error_s == std::numeric_limits<double>::infinity());
    const clock_model m = model_from(fit_offset(std::vector<exchange>{}), clock_fit{});
    CHECK(m.drift == 0.0);
}

TEST_CASE("two fits a second apart find a drift of 1e-5", "[window]") {
    const synthetic_clock c{.offset_s = 2e-3, .rate = 1.0 + 1e-5};
    const clock_fit first = fit_offset(std::vector<exchange>{round_trip(c, 5.0, 0.5e-6, 0.5e-6)});
    const clock_fit second = fit_offset(std::vector<exchange>{round_trip(c, 6.0, 0.5e-6, 0.5e-6)});
    const clock_model m = model_from(first, second);
    // d(offset)/d(local) = 1/rate − 1.
    CHECK(m.drift == Approx(1.0 / (1.0 + 1e-5) - 1.0).epsilon(1e-6));
    // Half a second after the second fit the model is right to well under a microsecond,
    // where an offset-only model would be 5 µs off.
    const double later_local = c.local(6.5);
    CHECK(m.to_reference(later_local) == Approx(6.5).margin(1e-9));
    const clock_model offset_only{first.local_s, first.offset_s, 0.0, first.error_s};
    CHECK(std::abs(offset_only.to_reference(later_local) - 6.5) > 4e-6);
    // to_local inverts to_reference.
    CHECK(m.to_local(m.to_reference(later_local)) == Approx(later_local).margin(1e-12));
}

TEST_CASE("a slope within the fits' error bounds is not taken for drift", "[window]") {
    // Same clock, fits 1 ms apart whose offsets differ by 0.3 µs with 0.5 µs error bounds.
    const clock_fit first{.local_s = 1.0, .offset_s = 1e-3, .error_s = 0.5e-6};
    const clock_fit second{.local_s = 1.001, .offset_s = 1e-3 + 0.3e-6, .error_s = 0.5e-6};
    const clock_model m = model_from(first, second);
    CHECK(m.drift == 0.0);
    CHECK(m.offset_s == 1e-3);
    CHECK(m.to_reference(2.0) == Approx(2.001).margin(1e-12));
}

TEST_CASE("the reference rank's model is the identity", "[window]") {
    const clock_fit self{.local_s = 4.0, .offset_s = 0.0, .error_s = 0.0};
    const clock_model m = model_from(self, clock_fit{.local_s = 4.01, .offset_s = 0.0, .error_s = 0.0});
    CHECK(m.to_reference(7.5) == 7.5);
    CHECK(m.to_local(7.5) == 7.5);
}

TEST_CASE("window schedule: call starts and late arrivals", "[window]") {
    const window_schedule w{.first_start_s = 100.0, .window_s = 20e-6};
    CHECK(w.start_of(0) == 100.0);
    CHECK(w.start_of(10) == Approx(100.0 + 200e-6).margin(1e-12));
    // A process whose clock is 1 ms behind the reference (offset +1 ms): call 3 starts at its
    // local 100.00006 − 0.001.
    const clock_model behind{.offset_s = 1e-3};
    const double start3 = behind.to_local(w.start_of(3));
    CHECK(start3 == Approx(100.0 + 60e-6 - 1e-3).margin(1e-12));
    CHECK_FALSE(w.late(behind, 3, start3));         // exactly on time
    CHECK_FALSE(w.late(behind, 3, start3 - 5e-6));  // early: it waits
    CHECK(w.late(behind, 3, start3 + 1e-7));        // past the start: invalid
}

TEST_CASE("window length and lead from the estimate", "[window]") {
    constexpr window rule{};
    CHECK(rule.window_for(1e-6) == 10e-6);         // the floor
    CHECK(rule.window_for(20e-6) == Approx(80e-6));  // factor 4
    CHECK(rule.window_for(0.0) == 10e-6);
    CHECK(window{.fixed_window_s = 50e-6}.window_for(1.0) == 50e-6);
    CHECK(rule.lead_for(10e-6) == 200e-6);          // the floor
    CHECK(rule.lead_for(1e-3) == Approx(4e-3));
}

TEST_CASE("-sync parses barrier, window and window:US", "[window]") {
    CHECK(parse_sync("barrier").which == method::barrier);
    CHECK(parse_sync("window").which == method::window);
    CHECK(parse_sync(" window ").per_call());
    const chosen fixed = parse_sync("window:50");
    CHECK(fixed.per_call());
    CHECK(fixed.window_parameters().fixed_window_s == Approx(50e-6));
    CHECK_FALSE(parse_sync("barrier").per_call());
    for (const char* bad : {"", "windows", "window:", "window:0", "window:-3", "window:abc",
                            "window:1e10", "Barrier"})
        CHECK_THROWS_WITH(parse_sync(bad), Contains("expected barrier, window or window:WINDOW_US"));
}

TEST_CASE("chosen sync: IMB's two barriers, or one before a window timing", "[window]") {
    counting_comm c;
    chosen{}.before_timing(c);
    CHECK(c.barriers == 2);
    counting_comm w;
    parse_sync("window").before_timing(w);
    CHECK(w.barriers == 1);
    STATIC_REQUIRE(parbench::policy::per_call_sync<chosen>);
    STATIC_REQUIRE(parbench::policy::per_call_sync<window>);
    STATIC_REQUIRE_FALSE(parbench::policy::per_call_sync<barrier>);
    STATIC_REQUIRE(parbench::policy::sync_policy<chosen, counting_comm>);
    STATIC_REQUIRE(parbench::policy::sync_policy<window, counting_comm>);
    // A choice without a method has no loop for it (mpi/phases.hpp compiles it out).
    STATIC_REQUIRE_FALSE(parbench::policy::per_call_sync<barrier_or_each_call>);
    STATIC_REQUIRE(parbench::policy::each_call_sync<barrier_or_each_call>);
    STATIC_REQUIRE(parbench::policy::per_call_sync<choice<true, false>>);
    STATIC_REQUIRE_FALSE(parbench::policy::each_call_sync<choice<true, false>>);
    counting_comm b;
    choice<true, false>{}.before_timing(b);
    CHECK(b.barriers == 2);
    // narrowed keeps every field of the run's choice
    constexpr chosen given{.which = parbench::policy::sync::method::window,
                           .barriers = {.count = 3},
                           .windows = {.exchanges = 7},
                           .after_call = 2,
                           .dissemination = true};
    constexpr auto kept = parbench::policy::sync::narrowed<true, false>(given);
    STATIC_REQUIRE(kept.which == given.which);
    STATIC_REQUIRE(kept.barriers.count == 3);
    STATIC_REQUIRE(kept.windows.exchanges == 7);
    STATIC_REQUIRE(kept.after_call == 2);
    STATIC_REQUIRE(kept.dissemination);
}

}  // namespace window_test
