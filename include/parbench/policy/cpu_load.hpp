// The CPU work that overlap benchmarks put between starting a nonblocking operation and waiting
// for it, without MPI (mpi/cpu_load.hpp adds the calibration collective and the MPI_Test flavour):
//
//   matvec_load     IMB's IMB_cpu_exploit: passes of a 100x100 single-precision matrix-vector
//                   product, a fixed amount of work calibrated once to a target time; the same
//                   number of passes everywhere it runs, so t_CPU is the same work with or
//                   without communication in flight
//   busy_wait_for   COMB's NB_Sleep: spin on the clock for a time, no MPI call
//
// The calibration arithmetic (passes for a target, the Mflop/s figure IMB prints, the probe's
// growth) is pure and unit-tested (tests/unit/cpu_load_test.cpp).
#pragma once

#include <parbench/core/clock.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace parbench::policy {

// --- calibration arithmetic ----------------------------------------------------------------

namespace cpu_load {

inline constexpr std::size_t matrix_order = 100;  // IMB's SIZE
// One pass: x += A·y, one multiply and one add per matrix element.
inline constexpr double flops_per_pass = 2.0 * matrix_order * matrix_order;

// Passes that take `target_s` at `seconds_per_pass`: the nearest whole number, at least one for
// any positive target (IMB never calibrates a positive target to no work), none for a target of
// zero or less (no CPU load) or an unusable rate.
[[nodiscard]] constexpr std::uint64_t passes_for(double target_s, double seconds_per_pass) noexcept {
    if (!(target_s > 0.0) || !(seconds_per_pass > 0.0)) return 0;
    const double passes = target_s / seconds_per_pass;
    if (passes >= 1e18) return 1'000'000'000'000'000'000ull;
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(passes + 0.5));
}

// The rate IMB prints above an overlap table: Mflop/s of `passes` run in `seconds`.
[[nodiscard]] constexpr double rate_mflops(std::uint64_t passes, double seconds) noexcept {
    return seconds > 0.0 ? static_cast<double>(passes) * flops_per_pass / seconds * 1e-6 : 0.0;
}

// The probe grows until one run lasts at least min_probe_s (so clock resolution and one
// interruption do not decide the rate): from `passes` that took `elapsed_s`, the next count,
// aimed at 1.5x the minimum and grown at most 10x a step (Google Benchmark's bounded growth).
// Returns `passes` unchanged once the probe is long enough, or at max_probe_passes (a clock that
// does not advance must not grow the probe without end).
inline constexpr std::uint64_t max_probe_passes = std::uint64_t{1} << 32;

[[nodiscard]] constexpr std::uint64_t next_probe_passes(std::uint64_t passes, double elapsed_s,
                                                        double min_probe_s) noexcept {
    if (elapsed_s >= min_probe_s || passes >= max_probe_passes) return passes;
    const double factor = elapsed_s > 0.0 ? std::min(10.0, 1.5 * min_probe_s / elapsed_s) : 10.0;
    const double grown = std::min(static_cast<double>(passes) * factor,
                                  static_cast<double>(max_probe_passes));
    return std::max<std::uint64_t>(passes + 1, static_cast<std::uint64_t>(grown));
}

// The seconds per pass a calibration settles on from its repeated probes: the median, so one
// preempted probe neither shortens nor lengthens the calibrated work.
[[nodiscard]] inline double median_seconds_per_pass(std::vector<double> probes) {
    if (probes.empty()) return 0.0;
    const auto mid = probes.begin() + static_cast<std::ptrdiff_t>(probes.size() / 2);
    std::nth_element(probes.begin(), mid, probes.end());
    if (probes.size() % 2 == 1) return *mid;
    const double upper = *mid;
    const double lower = *std::max_element(probes.begin(), mid);
    return 0.5 * (lower + upper);
}

}  // namespace cpu_load

// --- the kernels ---------------------------------------------------------------------------

// IMB_cpu_exploit's kernel: `passes` repetitions of x += A·y with a 100x100 float matrix. A is
// stored by columns so that the inner loop runs over contiguous memory and vectorises without
// reassociating sums. The memory barrier after each pass keeps the compiler from collapsing
// passes (the values never change: y is zero, so x stays finite whatever the count).
class matvec_load {
public:
    static constexpr std::size_t order = cpu_load::matrix_order;

    matvec_load() : a_(order * order, 1.0f) { x_.fill(0.0f); y_.fill(0.0f); }
    explicit matvec_load(std::uint64_t passes) : matvec_load() { passes_ = passes; }

    // The calibrated amount of work (0: no load).
    [[nodiscard]] std::uint64_t passes() const noexcept { return passes_; }
    void set_passes(std::uint64_t passes) noexcept { passes_ = passes; }
    [[nodiscard]] double flops() const noexcept {
        return static_cast<double>(passes_) * cpu_load::flops_per_pass;
    }

    // The calibrated work.
    void run() noexcept { run_passes(passes_); }

    // Any number of passes (calibration probes).
    void run_passes(std::uint64_t passes) noexcept {
        float* x = x_.data();
        const float* y = y_.data();
        const float* a = a_.data();
        for (std::uint64_t p = 0; p < passes; ++p) {
            for (std::size_t j = 0; j < order; ++j) {
                const float yj = y[j];
                const float* column = a + j * order;
                for (std::size_t i = 0; i < order; ++i) x[i] += column[i] * yj;
            }
            asm volatile("" : : "r"(x) : "memory");
        }
    }

private:
    std::vector<float> a_;
    std::array<float, order> x_{};
    std::array<float, order> y_{};
    std::uint64_t passes_ = 0;
};

// This process's calibration of matvec_load, before any agreement between processes: probes of
// growing length until one lasts min_probe_s, then `repeats` probes of that length; the median
// seconds per pass. The caller turns it into passes (cpu_load::passes_for), after agreeing on it
// with the other processes where they must do the same work (mpi/cpu_load.hpp).
struct matvec_calibration {
    double seconds_per_pass = 0.0;
    std::uint64_t probe_passes = 0;  // passes in each timed probe
    double probe_s = 0.0;            // the median probe's duration
};

template <clock_source Clock = monotonic_clock>
[[nodiscard]] matvec_calibration calibrate_matvec(matvec_load& load,
                                                  double min_probe_s = 0.5e-3, int repeats = 3,
                                                  Clock clock = {}) {
    load.run_passes(1);  // first touch of the matrix, out of the probes
    std::uint64_t passes = 1;
    for (int growth = 0; growth < 64; ++growth) {
        const double start = clock.now();
        load.run_passes(passes);
        const double elapsed = clock.now() - start;
        const std::uint64_t next = cpu_load::next_probe_passes(passes, elapsed, min_probe_s);
        if (next == passes) break;
        passes = next;
    }
    std::vector<double> per_pass;
    per_pass.reserve(static_cast<std::size_t>(std::max(repeats, 1)));
    for (int k = 0; k < std::max(repeats, 1); ++k) {
        const double start = clock.now();
        load.run_passes(passes);
        per_pass.push_back((clock.now() - start) / static_cast<double>(passes));
    }
    const double spp = cpu_load::median_seconds_per_pass(per_pass);
    return {spp, passes, spp * static_cast<double>(passes)};
}

// NB_Sleep's work: spin on the clock until `seconds` have passed, calling nothing else. Returns
// the time actually spent.
template <clock_source Clock = monotonic_clock>
inline double busy_wait_for(double seconds, Clock clock = {}) noexcept {
    const double start = clock.now();
    double now = start;
    while (now - start < seconds) now = clock.now();
    return now - start;
}

}  // namespace parbench::policy
