// parbench's DGEMM path against a direct cblas_dgemm loop, alternating in one process.
//
// "parbench" is the whole plugin path: parbench_blas.so is dlopen'ed and asked, through the C
// ABI, to run `paw dgemm --sizes N`; its rate is taken from the result event (conventional flops
// over the median repetition). "direct" is a plain loop around cblas_dgemm on buffers of its own,
// timed the same way (median of repetitions). The two alternate round by round so drift in
// machine load hits both.
//
// Long form (the benchmark() target): the median ratio over rounds must be >= 0.98. Short form
// (--short, a benchmark() in suite bench-short; fewer repetitions): fails when the 95 % CI of
// the median ratio lies entirely above 1.10 or below 0.90 (bench/ratio_rule.hpp). Both fail when
// a rate was not measured (zero, NaN, infinite).
//
//   dgemm_overhead PARBENCH_BLAS_SO [--short] [ROUNDS] [SIZES...]
//       (defaults: 3 rounds, N = 256 1024 4096; --short: N = 128 256)
#include "ratio_rule.hpp"

#include <parbench/core/clock.hpp>
#include <parbench/core/statistics.hpp>
#include <parbench/core/cpu_info.hpp>
#include <parbench/plugin/abi.h>

#include <cblas.h>
#include <dlfcn.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct capture {
    double median_s = 0.0;
};

void on_event(void* context, const char* text) {
    const auto event = nlohmann::json::parse(text);
    if (event.at("event") == "result")
        static_cast<capture*>(context)->median_s =
            event.at("distribution_us").at("median").get<double>() * 1e-6;
}
void on_progress(void*, const char*, std::uint64_t, int) {}

// Repetitions of `calls` DGEMMs per repetition, as parbench's plan would choose for this size.
std::uint64_t calls_for(std::uint64_t n) { return n <= 256 ? 100 : n <= 1024 ? 2 : 1; }
std::uint64_t reps_for(std::uint64_t n) { return n >= 4096 ? 3 : 10; }
bool short_form = false;  // --short: 5 repetitions of 20 calls (N <= 256)
std::uint64_t calls_at(std::uint64_t n) { return short_form ? 20 : calls_for(n); }
std::uint64_t reps_at(std::uint64_t n) { return short_form ? 5 : reps_for(n); }

double parbench_rate(const parbench_plugin* plugin, std::uint64_t n) {
    const nlohmann::json request = {
        {"suite", "paw"},
        {"benchmarks", {"dgemm"}},
        {"options",
         {{"sizes", std::to_string(n)},
          {"nreps", std::to_string(reps_at(n))},
          {"time", "100000"},
          // the loop length the direct loop uses, so both time the same work per repetition
          {"nloop_min", std::to_string(calls_at(n))},
          {"nloop_max", std::to_string(calls_at(n))}}}};
    capture result;
    parbench_host host{sizeof(parbench_host), &result, on_event, on_progress, nullptr, {}};
    char error[256] = {};
    if (plugin->run(request.dump().c_str(), &host, error, sizeof error) != PARBENCH_OK) {
        fmt::print(stderr, "error: {}\n", error);
        std::exit(1);
    }
    return 2.0 * static_cast<double>(n * n * n) / result.median_s / 1e9;
}

double direct_rate(std::uint64_t n) {
    const auto count = static_cast<std::size_t>(n * n);
    std::vector<double> a(count), b(count), c(count);
    for (std::size_t i = 0; i < count; ++i) {
        a[i] = static_cast<double>((i * 7 + 16) % 17) / 8.0 - 1.0;
        b[i] = static_cast<double>((i * 7 + 29) % 17) / 8.0 - 1.0;
    }
    const int order = static_cast<int>(n);
    const auto call = [&] {
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, order, order, order, 1.0,
                    a.data(), order, b.data(), order, 0.0, c.data(), order);
    };
    call();  // warm-up, as parbench does
    std::vector<double> per_call;
    const std::uint64_t calls = calls_at(n);
    for (std::uint64_t rep = 0; rep < reps_at(n); ++rep) {
        const double start = parbench::monotonic_clock::now();
        for (std::uint64_t i = 0; i < calls; ++i) call();
        per_call.push_back((parbench::monotonic_clock::now() - start) /
                           static_cast<double>(calls));
    }
    const double median = parbench::summarize(per_call).median;
    return 2.0 * static_cast<double>(n * n * n) / median / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        fmt::print(stderr, "usage: dgemm_overhead PARBENCH_BLAS_SO [ROUNDS] [SIZES...]\n");
        return 1;
    }
    void* handle = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        fmt::print(stderr, "error: {}\n", dlerror());
        return 1;
    }
    const auto entry = reinterpret_cast<parbench_entry_fn>(dlsym(handle, PARBENCH_ENTRY_SYMBOL));
    if (entry == nullptr) {
        fmt::print(stderr, "error: no entry symbol in {}\n", argv[1]);
        return 1;
    }
    const parbench_plugin* plugin = entry();
    char error[256] = {};
    parbench_init_args init{sizeof(parbench_init_args), nullptr, nullptr, nullptr, nullptr, {}};
    if (plugin->init(&init, error, sizeof error) != PARBENCH_OK) {
        fmt::print(stderr, "error: {}\n", error);
        return 1;
    }
    int first = 2;
    if (argc > first && std::strcmp(argv[first], "--short") == 0) {
        short_form = true;
        ++first;
    }
    const int rounds = argc > first ? std::max(1, std::atoi(argv[first])) : 3;
    std::vector<std::uint64_t> sizes;
    for (int i = first + 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
    if (sizes.empty()) sizes = short_form ? std::vector<std::uint64_t>{128, 256}
                                          : std::vector<std::uint64_t>{256, 1024, 4096};

    const auto cpu = parbench::cpu::read_cpu_info();
    const auto peak = parbench::cpu::estimate_peak(cpu);
    const int threads = openblas_get_num_threads();
    const auto peak_gflops = peak.dp_gflops(std::min(threads, cpu.physical_cores()));
    const char* coretype = std::getenv("OPENBLAS_CORETYPE");
    fmt::print("# OpenBLAS core {} (OPENBLAS_CORETYPE={}), {} threads, DP peak {}\n",
               openblas_get_corename(), coretype != nullptr ? coretype : "(unset)", threads,
               peak_gflops ? fmt::format("{:.1f} GFlop/s", *peak_gflops) : "unknown");
    fmt::print("{:>6} {:>5} {:>14} {:>14} {:>8}\n", "N", "round", "parbench_GF/s", "direct_GF/s",
               "ratio");
    bool ok = true;
    for (const auto n : sizes) {
        std::vector<double> ratios, ours, theirs;
        for (int r = 0; r < rounds; ++r) {
            // Alternate which goes first, so neither always follows the other's cache state.
            double p = 0.0, d = 0.0;
            if (r % 2 == 0) {
                p = parbench_rate(plugin, n);
                d = direct_rate(n);
            } else {
                d = direct_rate(n);
                p = parbench_rate(plugin, n);
            }
            ours.push_back(p);
            theirs.push_back(d);
            ratios.push_back(p / d);
            fmt::print("{:>6} {:>5} {:>14.2f} {:>14.2f} {:>8.4f}\n", n, r, p, d, p / d);
        }
        const auto ci = bench::median_with_ci(ratios);
        const double ratio = ci.median;
        const double rate = parbench::summarize(ours).median;
        const double direct = parbench::summarize(theirs).median;
        const bool measured = bench::all_measured(ours) && bench::all_measured(theirs) &&
                              bench::all_measured(ratios);
        const bool pass = measured && (short_form ? bench::ci_within(ci, 0.90, 1.10)
                                                  : ratio >= 0.98);
        fmt::print("# N = {}: parbench {:.2f} GFlop/s{}, direct {:.2f} GFlop/s, median ratio {:.4f} "
                   "(95 % CI {:.4f} - {:.4f}, {} rounds) {}\n",
                   n, rate,
                   peak_gflops ? fmt::format(" ({:.1f} % of peak)", 100.0 * rate / *peak_gflops)
                               : std::string(" (peak unknown)"),
                   direct, ratio, ci.low, ci.high, ci.n,
                   pass ? "ok"
                   : !measured ? "NOT MEASURED (zero, NaN or infinite)"
                   : short_form ? "CI OUTSIDE [0.90, 1.10]"
                                : "BELOW 0.98");
        ok = ok && pass;
    }
    plugin->finalize(error, sizeof error);
    return ok ? 0 : 1;
}
