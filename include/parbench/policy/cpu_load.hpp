// The CPU work that overlap benchmarks put between starting a nonblocking operation and waiting
// for it, without MPI (mpi/cpu_load.hpp adds the calibration collective and the MPI_Test flavour):
//
//   matvec_load     IMB's IMB_cpu_exploit: passes of an n x n single-precision matrix-vector
//                   product (n = 100 unless told: IMB-NBC's as parbench has it; IMB 2021's SIZE
//                   is 10, IMB_cpu_exploit.c:88, which imb-io takes under that methodology), a
//                   fixed amount of work calibrated once to a target time; the same number of
//                   passes everywhere it runs, so t_CPU is the same work with or without
//                   communication in flight
//   calibrate_like_imb  IMB 2021's own calibration (IMB_cpu_exploit.c:98-134): one probe of
//                   5 x 10^7 flops on the wall clock, passes per second from it, the target's
//                   passes, and one timed run of them: its time is IMB-IO's t_CPU
//   busy_wait_for   COMB's NB_Sleep: spin on the clock for a time, no MPI call
//
// Calibration (calibrate_matvec, then time_passes for the check) on the thread's CPU clock:
// a warm-up, probes as long as the target (within [min_probe_s, max_probe_s]), the fastest of
// several probes; the caller then times the calibrated work itself and corrects the count once
// (cpu_load::corrected_passes). The arithmetic is pure and unit-tested
// (tests/unit/cpu_load_test.cpp); docs/methodology.md §14 gives the measured accuracy.
#pragma once

#include <parbench/core/clock.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace parbench::policy {

// --- calibration arithmetic ----------------------------------------------------------------

namespace cpu_load {

inline constexpr std::size_t matrix_order = 100;  // IMB's SIZE as parbench had it (IMB-NBC)
// IMB 2021.11's SIZE (IMB_cpu_exploit.c:88), IMB's CPU work's under that methodology
// (imb::methodology::cpu_exploit_order).
inline constexpr std::size_t imb2021_matrix_order = 10;
// One pass: x += A·y, one multiply and one add per matrix element.
[[nodiscard]] constexpr double flops_per_pass_of(std::size_t order) noexcept {
    return 2.0 * static_cast<double>(order) * static_cast<double>(order);
}
inline constexpr double flops_per_pass = flops_per_pass_of(matrix_order);

// Passes that take `target_s` at `seconds_per_pass`: the nearest whole number, at least one for
// any positive target (IMB never calibrates a positive target to no work), none for a target of
// zero or less (no CPU load) or an unusable rate.
[[nodiscard]] constexpr std::uint64_t passes_for(double target_s, double seconds_per_pass) noexcept {
    if (!(target_s > 0.0) || !(seconds_per_pass > 0.0)) return 0;
    const double passes = target_s / seconds_per_pass;
    if (passes >= 1e18) return 1'000'000'000'000'000'000ull;
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(passes + 0.5));
}

// The rate IMB prints above an overlap table: Mflop/s of `passes` (of an `order` matrix) run in
// `seconds`.
[[nodiscard]] constexpr double rate_mflops(std::uint64_t passes, double seconds,
                                           std::size_t order = matrix_order) noexcept {
    return seconds > 0.0
               ? static_cast<double>(passes) * flops_per_pass_of(order) / seconds * 1e-6
               : 0.0;
}

// IMB 2021's calibration arithmetic (IMB_cpu_exploit.c:105-122), on IMB's int:
//   probe    Nrep = 50000000 / (2 SIZE^2) + 1 passes, timed once      (:105-114)
//   rate     Nrep = (int)(1 / t_probe x Nrep): passes per second      (:117)
//   target   target_reps = max(1, (int)(target_s x Nrep))             (:122)
// A probe that read no time, or a rate past int, gives INT_MAX passes per second (IMB's
// conversion would be undefined there).
[[nodiscard]] constexpr std::uint64_t imb_probe_passes(std::size_t order) noexcept {
    return 50000000 / (2 * static_cast<std::uint64_t>(order) * order) + 1;
}
[[nodiscard]] constexpr std::uint64_t imb_passes_per_second(std::uint64_t probe_passes,
                                                            double probe_s) noexcept {
    constexpr double int_max = 2147483647.0;
    const double rate = probe_s > 0.0 ? static_cast<double>(probe_passes) / probe_s : int_max;
    return static_cast<std::uint64_t>(std::min(rate, int_max));
}
[[nodiscard]] constexpr std::uint64_t imb_target_passes(double target_s,
                                                        std::uint64_t per_second) noexcept {
    if (!(target_s > 0.0)) return 0;  // IMB returns before any work (:94-96)
    const double reps = std::min(target_s * static_cast<double>(per_second), 2147483647.0);
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(reps));
}

// The growth of the first probe, which finds the order of the rate: from `passes` that took
// `elapsed_s`, the next count, aimed at 1.5x `min_probe_s` and grown at most 10x a step (Google
// Benchmark's bounded growth). Returns `passes` unchanged once the probe is long enough, or at
// max_probe_passes (a clock that does not advance must not grow the probe without end).
inline constexpr std::uint64_t max_probe_passes = std::uint64_t{1} << 32;

[[nodiscard]] constexpr std::uint64_t next_probe_passes(std::uint64_t passes, double elapsed_s,
                                                        double min_probe_s) noexcept {
    if (elapsed_s >= min_probe_s || passes >= max_probe_passes) return passes;
    const double factor = elapsed_s > 0.0 ? std::min(10.0, 1.5 * min_probe_s / elapsed_s) : 10.0;
    const double grown = std::min(static_cast<double>(passes) * factor,
                                  static_cast<double>(max_probe_passes));
    return std::max<std::uint64_t>(passes + 1, static_cast<std::uint64_t>(grown));
}

// How a calibration spends its time. Its CPU cost on one process is about
//   warm_up_s + 2 x min_probe_s (growth) + probes x probe_length_s(target)
//   + check_runs x min(target, max_check_s),
// i.e. 2 ms + 5 x clamp(target, 0.5 ms, 5 ms) + 3 x min(target, 10 ms) with the defaults: about
// 5 ms for a 10 us target, 57 ms at most for any target.
struct calibration_plan {
    double min_probe_s = 0.5e-3;   // the growth stops here; the shortest timed probe
    double max_probe_s = 5e-3;     // the longest timed probe
    int probes = 5;                // timed probes; the fastest counts
    double warm_up_s = 1e-3;       // work run before any timed probe (caches, clock ramp)
    int check_runs = 3;            // runs of the calibrated work; the fastest corrects the count
    double max_check_s = 10e-3;    // longer work is checked on its first 10 ms
};

// A timed probe lasts as long as the work it calibrates: the per-pass time of 5 ms of work is
// not that of 0.5 ms on a shared machine (timer ticks and other jobs' cache traffic add a few
// per cent), and a probe far longer than the target would pay for that gap.
[[nodiscard]] constexpr double probe_length_s(double target_s, const calibration_plan& plan) noexcept {
    if (!(target_s > plan.min_probe_s)) return plan.min_probe_s;
    return std::min(target_s, std::max(plan.min_probe_s, plan.max_probe_s));
}

// The passes the check times: all of the calibrated work, or as many as take plan.max_check_s
// at `seconds_per_pass` when the work is longer (past ~5 ms the time per pass no longer grows
// with the length, and the check's cost stays bounded).
[[nodiscard]] constexpr std::uint64_t check_passes(std::uint64_t passes, double seconds_per_pass,
                                                   const calibration_plan& plan) noexcept {
    const std::uint64_t most = passes_for(plan.max_check_s, seconds_per_pass);
    return most == 0 ? passes : std::min(passes, most);
}

// The seconds per pass of a set of equal probes: the fastest (positive) one. A probe can only be
// slowed by what else runs (an interrupt, a preemption the clock still counts, a cold cache), so
// the fastest is the work's own speed; a median moves with the machine's load.
[[nodiscard]] inline double fastest_seconds_per_pass(const std::vector<double>& probes) noexcept {
    double best = 0.0;
    for (const double p : probes)
        if (p > 0.0 && (best == 0.0 || p < best)) best = p;
    return best;
}

// The one correction after the check: `passes` took `measured_s` (the fastest check run), so
// the count that takes `target_s` at that speed is passes x target / measured, to the nearest
// pass and at least one. Unchanged when nothing usable was measured.
[[nodiscard]] constexpr std::uint64_t corrected_passes(std::uint64_t passes, double measured_s,
                                                       double target_s) noexcept {
    if (passes == 0 || !(measured_s > 0.0)) return passes;
    return passes_for(target_s, measured_s / static_cast<double>(passes));
}

}  // namespace cpu_load

// --- the kernels ---------------------------------------------------------------------------

// IMB_cpu_exploit's kernel: `passes` repetitions of x += A·y with an n x n float matrix (n
// cpu_load::matrix_order unless given: IMB 2021's 10 for imb-io under that methodology). A is
// stored by columns so that the inner loop runs over contiguous memory and vectorises without
// reassociating sums. The memory barrier after each pass keeps the compiler from collapsing
// passes (the values never change: y is zero, so x stays finite whatever the count).
class matvec_load {
public:
    matvec_load() : matvec_load(std::uint64_t{0}) {}
    explicit matvec_load(std::uint64_t passes, std::size_t order = cpu_load::matrix_order)
        : order_(std::max<std::size_t>(order, 1)), a_(order_ * order_, 1.0f), x_(order_, 0.0f),
          y_(order_, 0.0f), passes_(passes) {}

    [[nodiscard]] std::size_t order() const noexcept { return order_; }

    // The calibrated amount of work (0: no load).
    [[nodiscard]] std::uint64_t passes() const noexcept { return passes_; }
    void set_passes(std::uint64_t passes) noexcept { passes_ = passes; }
    [[nodiscard]] double flops() const noexcept {
        return static_cast<double>(passes_) * cpu_load::flops_per_pass_of(order_);
    }

    // The calibrated work.
    void run() noexcept { run_passes(passes_); }

    // Any number of passes (calibration probes). Never inlined: the calibration and every timed
    // region that runs the work must execute the same machine code. Inlined copies were compiled
    // differently per call site and ran up to 30 % apart (measured: the calibrated work took
    // 0.72-0.89 of its target in one binary, 1.0-1.05 in another, on the same machine).
    // Not instrumented by the sanitizers: its loads and stores stay inside the three vectors the
    // object owns, and instrumented, IMB's probe of 250001 passes (imb_probe_passes) took 2.3x as
    // long at -O0 under ASan and UBSan, on every process of every imb-nbc, imb-mpi4 and imb-io
    // run of a sanitizer build.
    [[gnu::noinline]] __attribute__((no_sanitize("address", "undefined"))) void run_passes(
        std::uint64_t passes) noexcept {
        float* x = x_.data();
        const float* y = y_.data();
        const float* a = a_.data();
        const std::size_t n = order_;
        for (std::uint64_t p = 0; p < passes; ++p) {
            for (std::size_t j = 0; j < n; ++j) {
                const float yj = y[j];
                const float* column = a + j * n;
                for (std::size_t i = 0; i < n; ++i) x[i] += column[i] * yj;
            }
            asm volatile("" : : "r"(x) : "memory");
        }
    }

private:
    std::size_t order_;
    std::vector<float> a_;
    std::vector<float> x_;
    std::vector<float> y_;
    std::uint64_t passes_ = 0;
};

// This process's calibration of matvec_load for `target_s`, before any agreement between
// processes (mpi/cpu_load.hpp) and before the check: a warm-up, the growth of a probe until one
// lasts plan.min_probe_s, then plan.probes probes of probe_length_s(target) each; the fastest
// seconds per pass. A target of zero or less calibrates at the shortest probe (the rate alone, as
// for the Mflop/s line). The default clock is the thread's CPU time (core/clock.hpp), so a probe
// that another job preempts is not counted slow for it; IMB times its one probe with MPI_Wtime.
struct matvec_calibration {
    double seconds_per_pass = 0.0;
    std::uint64_t probe_passes = 0;  // passes in each timed probe
    double probe_s = 0.0;            // the fastest probe's duration
};

template <clock_source Clock = thread_cpu_clock>
[[nodiscard]] matvec_calibration calibrate_matvec(matvec_load& load, double target_s,
                                                  const cpu_load::calibration_plan& plan = {},
                                                  Clock clock = {}) {
    load.run_passes(1);  // first touch of the matrix, out of the probes
    std::uint64_t passes = 1;
    double elapsed = 0.0;
    const double warm_up_start = clock.now();
    for (int growth = 0; growth < 64; ++growth) {
        const double start = clock.now();
        load.run_passes(passes);
        elapsed = clock.now() - start;
        const std::uint64_t next = cpu_load::next_probe_passes(passes, elapsed, plan.min_probe_s);
        if (next == passes) break;
        passes = next;
    }
    // The warm-up: the growth itself, topped up to plan.warm_up_s.
    for (int more = 0; more < 64 && clock.now() - warm_up_start < plan.warm_up_s; ++more)
        load.run_passes(passes);
    if (elapsed > 0.0)
        passes = cpu_load::passes_for(cpu_load::probe_length_s(target_s, plan),
                                      elapsed / static_cast<double>(passes));
    std::vector<double> per_pass;
    per_pass.reserve(static_cast<std::size_t>(std::max(plan.probes, 1)));
    for (int k = 0; k < std::max(plan.probes, 1); ++k) {
        const double start = clock.now();
        load.run_passes(passes);
        per_pass.push_back((clock.now() - start) / static_cast<double>(passes));
    }
    const double spp = cpu_load::fastest_seconds_per_pass(per_pass);
    return {spp, passes, spp * static_cast<double>(passes)};
}

// The check of a calibration: `runs` runs of `passes` passes, the fastest duration (as for the
// probes: what else runs can only slow a run down).
template <clock_source Clock = thread_cpu_clock>
[[nodiscard]] double time_passes(matvec_load& load, std::uint64_t passes, int runs,
                                 Clock clock = {}) {
    double fastest = 0.0;
    for (int k = 0; k < runs; ++k) {
        const double start = clock.now();
        load.run_passes(passes);
        const double took = clock.now() - start;
        if (k == 0 || took < fastest) fastest = took;
    }
    return fastest;
}

// IMB 2021's calibration of `load` (its order kept) for `target_s`, on this process alone
// (IMB_cpu_exploit.c:98-134; no agreement between processes: each calibrates itself): the probe
// of cpu_load::imb_probe_passes timed once, the target's passes set, then those passes run once
// and timed: run_s is IMB's tCPU (:123-134), the t_CPU IMB-IO prints in every row
// (IMB_output.c:337). `Clock`: IMB's MPI_Wtime is a wall clock.
struct imb_calibration {
    std::uint64_t probe_passes = 0;
    double probe_s = 0.0;
    std::uint64_t passes_per_second = 0;
    std::uint64_t passes = 0;  // target_reps, set on the load
    double run_s = 0.0;        // the one timed run of them
    std::size_t order = cpu_load::matrix_order;
    // IMB's MFlops (IMB_cpu_exploit.c:116), the rate of the "# performance of" line.
    [[nodiscard]] double mflops() const noexcept {
        return cpu_load::rate_mflops(probe_passes, probe_s, order);
    }
};

// The two halves of IMB_cpu_exploit, for a work whose rate is probed once and whose target
// changes (IMB-NBC 2021: IMB_cpu_exploit(t_pure, 1) at every size, IMB_reduce.c:191, the probe
// only at the first call, while MFlops < 0, IMB_cpu_exploit.c:98):
//   probe_like_imb       the probe (:98-118): order, probe_passes, probe_s, passes_per_second
//   initialize_like_imb  the target (:120-134, `initialize` 1): passes set on the load, then
//                        run once and timed (run_s, IMB's tCPU); no work for a target <= 0
template <clock_source Clock = monotonic_clock>
void probe_like_imb(matvec_load& load, imb_calibration& c, Clock clock = {}) {
    c.order = load.order();
    c.probe_passes = cpu_load::imb_probe_passes(c.order);
    const double start = clock.now();
    load.run_passes(c.probe_passes);
    c.probe_s = clock.now() - start;
    c.passes_per_second = cpu_load::imb_passes_per_second(c.probe_passes, c.probe_s);
}
template <clock_source Clock = monotonic_clock>
void initialize_like_imb(matvec_load& load, imb_calibration& c, double target_s,
                         Clock clock = {}) {
    c.passes = cpu_load::imb_target_passes(target_s, c.passes_per_second);
    c.run_s = 0.0;
    load.set_passes(c.passes);
    if (c.passes == 0) return;
    const double start = clock.now();
    load.run();
    c.run_s = clock.now() - start;
}

template <clock_source Clock = monotonic_clock>
[[nodiscard]] imb_calibration calibrate_like_imb(matvec_load& load, double target_s,
                                                 Clock clock = {}) {
    imb_calibration c;
    probe_like_imb(load, c, clock);
    initialize_like_imb(load, c, target_s, clock);
    return c;
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
