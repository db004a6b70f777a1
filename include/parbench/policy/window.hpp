// Window-based synchronisation (ReproMPI's method), the arithmetic without MPI: how a process's
// clock maps to the reference clock (active rank 0), estimated from ping-pong exchanges, and when
// each timed call starts. mpi/clock_sync.hpp performs the exchanges; mpi/phases.hpp runs the
// calls.
//
//  * exchange     — one round trip: the local clock when the request left and when the answer
//                   arrived, and the reference clock read in between.
//  * clock_fit    — the offset (reference − local) at one local instant, from the exchange
//                   with the smallest round trip of a set (SKaMPI's rule: the shortest round
//                   trip brackets the reference read most tightly; its half is the error bound).
//  * clock_model  — offset plus drift from two fits taken some time apart; the drift is kept
//                   only when it exceeds what the two fits' error bounds can explain.
//  * window_schedule — call i starts at reference time first_start + i * window; a process
//                   that reaches that instant (on its own clock, through the model) already
//                   past it started late, and the call is invalid.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

namespace parbench::policy::sync {

struct exchange {
    double sent_local_s = 0.0;      // local clock when the request left
    double reference_s = 0.0;       // reference clock when the reference answered
    double received_local_s = 0.0;  // local clock when the answer arrived

    [[nodiscard]] constexpr double round_trip_s() const noexcept {
        return received_local_s - sent_local_s;
    }
};

struct clock_fit {
    double local_s = 0.0;   // the local instant the offset belongs to (midpoint of the exchange)
    double offset_s = 0.0;  // reference clock − local clock at local_s
    double error_s = std::numeric_limits<double>::infinity();  // bound: half the round trip
};

// The fit of the exchange with the smallest round trip: the reference read happened somewhere
// inside the round trip, so assuming the midpoint is wrong by at most half of it.
[[nodiscard]] inline clock_fit fit_offset(std::span<const exchange> exchanges) noexcept {
    clock_fit best;
    for (const exchange& e : exchanges) {
        const double half = 0.5 * e.round_trip_s();
        if (!(half >= 0.0) || half >= best.error_s) continue;
        best.local_s = e.sent_local_s + half;
        best.offset_s = e.reference_s - best.local_s;
        best.error_s = half;
    }
    return best;
}

// reference(t) = t + offset + drift (t − anchor). The reference rank's own model is the identity.
struct clock_model {
    double anchor_local_s = 0.0;
    double offset_s = 0.0;
    double drift = 0.0;      // reference seconds gained per local second
    double error_s = 0.0;    // the offset fit's bound (half its round trip)

    [[nodiscard]] constexpr double to_reference(double local_s) const noexcept {
        return local_s + offset_s + drift * (local_s - anchor_local_s);
    }
    [[nodiscard]] constexpr double to_local(double reference_s) const noexcept {
        return (reference_s - offset_s + drift * anchor_local_s) / (1.0 + drift);
    }
};

// The model from a fit before and one after some interval. Two fits a few milliseconds apart
// with sub-microsecond error bounds cannot tell a drift of 1e-6 from noise; a slope smaller
// than `significance` times the bound the two errors put on it is taken as no drift at all
// (applying a noise slope would move every later window start by more than it corrects).
[[nodiscard]] inline clock_model model_from(const clock_fit& first, const clock_fit& second,
                                            double significance = 2.0) noexcept {
    clock_model m{first.local_s, first.offset_s, 0.0, first.error_s};
    const double span_s = second.local_s - first.local_s;
    if (!(span_s > 0.0) || !std::isfinite(first.error_s) || !std::isfinite(second.error_s))
        return m;
    const double slope = (second.offset_s - first.offset_s) / span_s;
    const double slope_bound = (first.error_s + second.error_s) / span_s;
    if (std::abs(slope) > significance * slope_bound) {
        m.drift = slope;
        // Anchor on the later fit: it is nearer to the calls that follow.
        m.anchor_local_s = second.local_s;
        m.offset_s = second.offset_s;
        m.error_s = second.error_s;
    }
    return m;
}

// When the calls of one timing start, on the reference clock.
struct window_schedule {
    double first_start_s = 0.0;  // reference time of call 0
    double window_s = 0.0;       // reference seconds between call starts

    [[nodiscard]] constexpr double start_of(std::uint64_t call) const noexcept {
        return first_start_s + static_cast<double>(call) * window_s;
    }
    // Whether a process that first read `arrived_local_s` when it turned to call `call` was
    // already past the call's start on its own clock.
    [[nodiscard]] constexpr bool late(const clock_model& clock, std::uint64_t call,
                                      double arrived_local_s) const noexcept {
        return arrived_local_s > clock.to_local(start_of(call));
    }
};

// The `window` sync policy's parameters. The window is `factor` times the agreed estimate of one
// call (from the warm-up), at least `min_window_s`, or exactly `fixed_window_s` when that is set;
// the first call starts `lead_windows` windows (and at least `min_lead_s`) after rank 0 fixes the
// schedule, which leaves time for the broadcast that announces it.
struct window {
    int exchanges = 10;          // round trips per offset fit (the shortest one is kept)
    double factor = 4.0;
    double min_window_s = 10e-6;
    double fixed_window_s = 0.0;  // > 0: use this window instead of the estimate rule
    double lead_windows = 4.0;
    double min_lead_s = 200e-6;

    [[nodiscard]] constexpr double window_for(double estimate_s) const noexcept {
        if (fixed_window_s > 0.0) return fixed_window_s;
        return std::max(min_window_s, factor * std::max(0.0, estimate_s));
    }
    [[nodiscard]] constexpr double lead_for(double window_s) const noexcept {
        return std::max(min_lead_s, lead_windows * window_s);
    }

    // As a sync policy (policy/sync.hpp): one barrier aligns the warm-up; the calls start on the
    // schedule.
    template <class Comm>
        requires requires(Comm& c) { c.barrier(); }
    void before_timing(Comm& comm) const {
        comm.barrier();
    }
    [[nodiscard]] static constexpr bool per_call() noexcept { return true; }
    [[nodiscard]] constexpr const window& window_parameters() const noexcept { return *this; }
};

}  // namespace parbench::policy::sync
