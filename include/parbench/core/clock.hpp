// The monotonic clock every timed region uses, and a measurement of what it can resolve.
#pragma once

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstddef>
#include <limits>

namespace parbench {

// steady_clock is monotonic and, on Linux, a vDSO clock_gettime(CLOCK_MONOTONIC): ~20 ns a call
// and no system call. Times are seconds as double, like MPI_Wtime, so kernels and reference
// loops can be compared figure for figure.
struct monotonic_clock {
    [[nodiscard]] static double now() noexcept {
        return std::chrono::duration<double>(
                   std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }
};

// The CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID): it stops while the thread is
// descheduled, so a calibration probe timed with it does not take another job's slice on a
// shared machine for slowness of the work. A system call, ~0.1-1 us a reading: for probes of
// milliseconds, never inside a timed region.
struct thread_cpu_clock {
    [[nodiscard]] static double now() noexcept {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
    }
};

// Anything with a static or member now() returning seconds: the real clock in measurements, a
// fake one in tests of calibration logic.
template <class Clock>
concept clock_source = requires(Clock& c) {
    { c.now() } -> std::convertible_to<double>;
};

struct clock_characteristics {
    double resolution_s = 0.0;  // smallest non-zero step observed between two readings
    double overhead_s = 0.0;    // cost of one reading (median-free: minimum over batches)
};

// Measures the clock the way PAW establishes its timer overhead: the smallest observed tick and
// the per-call cost of back-to-back readings. Takes a few milliseconds.
template <clock_source Clock = monotonic_clock>
[[nodiscard]] clock_characteristics measure_clock(Clock clock = {}, std::size_t batches = 64,
                                                  std::size_t calls_per_batch = 256) {
    clock_characteristics result{std::numeric_limits<double>::max(),
                                 std::numeric_limits<double>::max()};
    for (std::size_t b = 0; b < batches; ++b) {
        // Resolution: spin until the reading changes.
        const double first = clock.now();
        double next = clock.now();
        for (std::size_t spin = 0; next == first && spin < 1'000'000; ++spin) next = clock.now();
        if (next > first) result.resolution_s = std::min(result.resolution_s, next - first);
        // Overhead: many back-to-back readings.
        const double start = clock.now();
        double sink = 0.0;
        for (std::size_t i = 0; i < calls_per_batch; ++i) sink += clock.now();
        const double stop = clock.now();
        // start..stop spans the loop's readings plus the stop reading itself: calls + 1.
        if (sink >= 0.0)  // keeps the readings observable
            result.overhead_s = std::min(
                result.overhead_s, (stop - start) / static_cast<double>(calls_per_batch + 1));
    }
    if (result.resolution_s == std::numeric_limits<double>::max()) result.resolution_s = 0.0;
    if (result.overhead_s == std::numeric_limits<double>::max()) result.overhead_s = 0.0;
    return result;
}

}  // namespace parbench
