// Sync policies: how the active processes are aligned before the timed loop. They act on any
// communicator-like object with barrier(), so this header needs no MPI.
//
//  * none    — start as soon as the previous step ends.
//  * barrier — `count` barriers on the group before timing (IMB's N_BARR = 2).
//  * window  — ReproMPI's method (policy/window.hpp): clocks synchronised to rank 0, every call
//              started at a common time and timed on its own, late starts dropped. It cannot
//              act once before a loop: the runner starts each call on its schedule, so it is
//              a per-call policy (per_call_sync below) rather than one more before_timing().
//  * each call — IMB 2021's collectives: N_BARR barriers before the loop, then every call timed
//              on its own with `after_call` barriers after it (IMB 2021 -sync on|off), MPI's or
//              IMB's dissemination barrier (-imb_barrier).
//  * chosen  — barrier, window or each call picked at run time (the driver's -start_sync and
//              the IMB methodology), one type for the runner to instantiate; the choice is read
//              once, outside the timed region. choice<Window, EachCall> is the same with the
//              methods a definition can never take left out at compile time (OSU's collectives
//              never window, IMB's pair patterns never time each call): the runner then compiles
//              no loop for them (mpi/phases.hpp).
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/sizes.hpp>
#include <parbench/policy/window.hpp>

#include <concepts>
#include <cstdlib>
#include <string>
#include <string_view>

namespace parbench::policy::sync {

template <class Comm>
concept has_barrier = requires(Comm& c) { c.barrier(); };

struct none {
    template <has_barrier Comm>
    void before_timing(Comm& /*comm*/) const noexcept {}
};

struct barrier {
    int count = 2;  // IMB N_BARR
    template <has_barrier Comm>
    void before_timing(Comm& comm) const {
        for (int i = 0; i < count; ++i) comm.barrier();
    }
};

enum class method { barrier, window, each_call };

[[nodiscard]] constexpr std::string_view to_string(method m) noexcept {
    return m == method::window ? "window" : m == method::each_call ? "each_call" : "barrier";
}

template <bool Window = true, bool EachCall = true>
struct choice {
    method which = method::barrier;  // never one of the methods left out
    barrier barriers{};
    window windows{};
    int after_call = 1;          // each_call: barriers after every timed call (IMB 2021 -sync)
    bool dissemination = false;  // each_call: IMB's own barrier (IMB 2021 -imb_barrier on)

    // Before the warm-up and (batched timing) before the timed loop; under window sync it
    // aligns the warm-up only, the calls start on the schedule.
    template <has_barrier Comm>
    void before_timing(Comm& comm) const {
        if (Window && which == method::window)
            comm.barrier();
        else if constexpr (EachCall && requires { comm.dissemination_barrier(); }) {
            if (which == method::each_call && dissemination) {
                for (int i = 0; i < barriers.count; ++i) comm.dissemination_barrier();
                return;
            }
            barriers.before_timing(comm);
        } else
            barriers.before_timing(comm);
    }
    // Absent where the method is left out: per_call_sync / each_call_sync (below) then fail.
    [[nodiscard]] constexpr bool per_call() const noexcept
        requires Window
    {
        return which == method::window;
    }
    [[nodiscard]] constexpr bool each_call() const noexcept
        requires EachCall
    {
        return which == method::each_call;
    }
    [[nodiscard]] constexpr const window& window_parameters() const noexcept
        requires Window
    {
        return windows;
    }
};

using chosen = choice<>;
using barrier_or_each_call = choice</*Window=*/false>;

// `c` with the methods a definition can never take left out (every field kept); `c` must not
// have chosen one of them.
template <bool Window, bool EachCall>
[[nodiscard]] constexpr choice<Window, EachCall> narrowed(const chosen& c) noexcept {
    return {.which = c.which,
            .barriers = c.barriers,
            .windows = c.windows,
            .after_call = c.after_call,
            .dissemination = c.dissemination};
}

// "-start_sync barrier", "-start_sync window" or "-start_sync window:WINDOW_US" (a fixed window
// in µs). parbench spelt it -sync before IMB 2021's -sync on|off took that name.
[[nodiscard]] inline chosen parse_sync(std::string_view text, chosen base = {}) {
    const std::string shown(text);
    const std::string_view t = parbench::trim(text);
    const std::string expected = ": expected barrier, window or window:WINDOW_US";
    if (t == "barrier") {
        base.which = method::barrier;
        return base;
    }
    if (t == "window") {
        base.which = method::window;
        return base;
    }
    if (t.starts_with("window:")) {
        const std::string number(t.substr(7));
        char* end = nullptr;
        const double us = number.empty() ? 0.0 : std::strtod(number.c_str(), &end);
        if (number.empty() || end != number.c_str() + number.size() || !(us > 0.0) ||
            !(us <= 1e9))
            throw input_error("-start_sync " + shown + ": '" + number +
                              "' is not a positive window length in microseconds" + expected);
        base.which = method::window;
        base.windows.fixed_window_s = us * 1e-6;
        return base;
    }
    throw input_error("-start_sync " + shown + expected);
}

}  // namespace parbench::policy::sync

namespace parbench::policy {

// A sync policy that may start every call on its own (window sync). per_call() says whether it
// does in this run; the runner then times single calls instead of batches.
// A sync policy that may time every call on its own with barriers after it (IMB 2021).
template <class Sync>
concept each_call_sync = requires(const Sync& s) {
    { s.each_call() } -> std::convertible_to<bool>;
    s.after_call;
    s.dissemination;
};

template <class Sync>
concept per_call_sync = requires(const Sync& s) {
    { s.per_call() } -> std::convertible_to<bool>;
    { s.window_parameters() } -> std::convertible_to<const sync::window&>;
};

// A sync policy aligns the processes of `Comm` before the timed region.
template <class Sync, class Comm>
concept sync_policy = requires(const Sync& s, Comm& c) { s.before_timing(c); };

}  // namespace parbench::policy
