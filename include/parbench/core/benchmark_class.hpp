// A benchmark's class: how per-rank times combine into a row and which figure columns it has.
// The vocabulary of patterns (pattern/), records (report/) and catalogues (plugin/) alike, so it
// lives below all three.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace parbench {

// How per-rank times combine and which columns a benchmark reports (IMB's classes, plus the
// kinds the other suites need).
enum class benchmark_class {
    single_transfer,    // two active processes; one time column t = t_max, throughput X/t
    parallel_transfer,  // all active; t_min/t_max/t_avg, throughput nmsg*X/t_max
    multiple_transfer,  // one origin, N targets (IMB-RMA); throughput N*X/t
    collective,         // all active; bare t_min/t_max/t_avg, no throughput
    other,              // setup overheads (Window, Open_Close): time only
    compute,            // a numerical kernel (BLAS); flop rates instead of bandwidth
    host_device_transfer,  // host <-> accelerator copies (PAW GPU/offload); GB/s = 10^9 B/s
};

[[nodiscard]] constexpr std::string_view to_string(benchmark_class c) noexcept {
    switch (c) {
        case benchmark_class::single_transfer: return "single_transfer";
        case benchmark_class::parallel_transfer: return "parallel_transfer";
        case benchmark_class::multiple_transfer: return "multiple_transfer";
        case benchmark_class::collective: return "collective";
        case benchmark_class::other: return "other";
        case benchmark_class::compute: return "compute";
        case benchmark_class::host_device_transfer: return "host_device_transfer";
    }
    return "other";
}

[[nodiscard]] inline benchmark_class benchmark_class_from_string(std::string_view text) {
    for (auto c : {benchmark_class::single_transfer, benchmark_class::parallel_transfer,
                   benchmark_class::multiple_transfer, benchmark_class::collective,
                   benchmark_class::other, benchmark_class::compute,
                   benchmark_class::host_device_transfer}) {
        if (to_string(c) == text) return c;
    }
    throw std::invalid_argument("unknown benchmark class '" + std::string(text) + "'");
}

}  // namespace parbench
