// What the CPU is and what it can do at most: model, vector extensions, clock, cores, and a
// theoretical floating-point peak (cores x vector width x FMA units x 2 x clock) where each factor
// can be determined. A factor that cannot be determined makes the peak "unknown": a guessed peak
// would turn every "% of peak" into fiction. Linux only (/proc/cpuinfo, /sys); elsewhere every
// field stays empty and the peak unknown.
#pragma once

#include <algorithm>
#include <cstddef>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

namespace parbench::cpu {

struct cpu_info {
    std::string vendor;        // "GenuineIntel", "AuthenticAMD"
    std::string model_name;    // "AMD EPYC", "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz"
    int family = -1;
    int model = -1;
    std::set<std::string> flags;
    int logical_cpus = 0;      // usable by this process (affinity mask)
    int threads_per_core = 1;  // siblings / cpu cores
    double clock_mhz = 0.0;    // 0: unknown
    std::string clock_source;  // where clock_mhz came from

    [[nodiscard]] bool has(std::string_view flag) const {
        return flags.count(std::string(flag)) != 0;
    }
    [[nodiscard]] int physical_cores() const noexcept {
        return std::max(1, logical_cpus / std::max(1, threads_per_core));
    }
};

// The vector extensions worth naming in a report, in the order of their width.
[[nodiscard]] inline std::string vector_flags_text(const cpu_info& cpu) {
    std::string out;
    for (const char* f : {"sse2", "sse3", "ssse3", "sse4_1", "sse4_2", "avx", "fma", "avx2",
                          "avx512f", "avx512dq", "avx512cd", "avx512bw", "avx512vl", "asimd",
                          "sve"}) {
        if (!cpu.has(f)) continue;
        if (!out.empty()) out += ' ';
        out += f;
    }
    return out;
}

// Parses /proc/cpuinfo text (the first processor's block; all are alike on the machines we
// target). Separate from the file so tests can feed it known text.
[[nodiscard]] inline cpu_info parse_proc_cpuinfo(std::string_view text) {
    cpu_info cpu;
    int siblings = 0;
    int cores = 0;
    std::istringstream in{std::string(text)};
    std::string line;
    bool seen_processor = false;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string key = line.substr(0, colon);
        key.erase(key.find_last_not_of(" \t") + 1);
        std::string value = colon + 1 < line.size() ? line.substr(colon + 1) : std::string{};
        value.erase(0, value.find_first_not_of(" \t"));
        if (key == "processor") {
            if (seen_processor) break;  // only the first block
            seen_processor = true;
        } else if (key == "vendor_id") {
            cpu.vendor = value;
        } else if (key == "model name") {
            cpu.model_name = value;
        } else if (key == "cpu family") {
            cpu.family = std::atoi(value.c_str());
        } else if (key == "model") {
            cpu.model = std::atoi(value.c_str());
        } else if (key == "flags" || key == "Features") {
            std::istringstream words(value);
            for (std::string w; words >> w;) cpu.flags.insert(w);
        } else if (key == "siblings") {
            siblings = std::atoi(value.c_str());
        } else if (key == "cpu cores") {
            cores = std::atoi(value.c_str());
        } else if (key == "cpu MHz" && cpu.clock_mhz == 0.0) {
            cpu.clock_mhz = std::atof(value.c_str());
            if (cpu.clock_mhz > 0.0) cpu.clock_source = "/proc/cpuinfo cpu MHz (current clock)";
        }
    }
    if (siblings > 0 && cores > 0 && siblings >= cores) cpu.threads_per_core = siblings / cores;
    return cpu;
}

// The clock this core runs at, measured: a chain of dependent register-to-register adds retires
// one add per cycle on every x86-64 core (latency 1). The addend is a register on purpose: Intel's
// Golden Cove and later fold add-immediate chains at rename (measured here: an `add $1` chain
// read 21 GHz on a 2.6 GHz Xeon), but no core eliminates a register add. A short spin first takes
// the core out of its idle frequency. About 30 ms. nullopt
// where no such chain is available (other architectures, other compilers).
[[nodiscard]] inline std::optional<double> measure_core_clock_mhz() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    using clock = std::chrono::steady_clock;
    const auto spin_end = clock::now() + std::chrono::milliseconds(10);
    while (clock::now() < spin_end) {
    }
    constexpr std::uint64_t adds_per_round = 100;
    constexpr std::uint64_t rounds = 20000;  // 2 million adds: ~0.5 ms at 4 GHz
    // The median trial: a preempted trial reads low, and the median ignores such outliers
    // whichever way they fall.
    std::vector<double> trials_mhz;
    for (int trial = 0; trial < 21; ++trial) {
        std::uint64_t chain = 0;
        std::uint64_t one = 1;
        asm volatile("" : "+r"(one));  // not a constant the compiler could turn back into $1
        const auto start = clock::now();
        for (std::uint64_t r = 0; r < rounds; ++r)
            asm volatile(".rept 100\n\tadd %1, %0\n\t.endr" : "+r"(chain) : "r"(one));
        const double seconds = std::chrono::duration<double>(clock::now() - start).count();
        if (seconds > 0.0)
            trials_mhz.push_back(static_cast<double>(rounds * adds_per_round) / seconds / 1e6);
    }
    if (!trials_mhz.empty()) {
        const auto middle = trials_mhz.begin() + static_cast<std::ptrdiff_t>(trials_mhz.size() / 2);
        std::nth_element(trials_mhz.begin(), middle, trials_mhz.end());
        return *middle;
    }
#endif
    return std::nullopt;
}

// Reads the running machine. The clock, most trusted first: PARBENCH_CPU_MHZ (the user knows the
// sustained clock), cpufreq's maximum frequency, a measured clock (measure_core_clock_mhz()),
// and last /proc/cpuinfo's momentary "cpu MHz", which on a virtual machine is the host's TSC
// rate and can be far below what the core runs at.
[[nodiscard]] inline cpu_info read_cpu_info() {
    cpu_info cpu;
    {
        std::ifstream f("/proc/cpuinfo");
        if (f) {
            std::stringstream text;
            text << f.rdbuf();
            cpu = parse_proc_cpuinfo(text.str());
        }
    }
    {
        std::ifstream f("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
        double khz = 0.0;
        if (f >> khz && khz > 0.0) {
            cpu.clock_mhz = khz / 1000.0;
            cpu.clock_source = "cpufreq cpuinfo_max_freq";
        }
    }
    if (const char* mhz = std::getenv("PARBENCH_CPU_MHZ"); mhz != nullptr && std::atof(mhz) > 0.0) {
        cpu.clock_mhz = std::atof(mhz);
        cpu.clock_source = "PARBENCH_CPU_MHZ";
    } else if (cpu.clock_source.rfind("cpufreq", 0) != 0) {
        if (const auto measured = measure_core_clock_mhz()) {
            std::ostringstream source;
            source << "measured (dependent-add chain on one core at start-up";
            if (cpu.clock_mhz > 0.0) source << "; /proc/cpuinfo says " << cpu.clock_mhz << " MHz";
            source << ")";
            cpu.clock_mhz = *measured;
            cpu.clock_source = source.str();
        }
    }
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) cpu.logical_cpus = CPU_COUNT(&set);
#endif
    if (cpu.logical_cpus <= 0)
        cpu.logical_cpus = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return cpu;
}

// Per-core double-precision throughput: vector width in doubles and FMA pipes. Known only for
// the micro-architectures listed; anything else is unknown (no peak is reported).
struct fp_units {
    int doubles_per_vector = 0;
    int fma_units = 0;
    std::string basis;  // how it was determined, for the report
    [[nodiscard]] bool known() const noexcept { return doubles_per_vector > 0 && fma_units > 0; }
    [[nodiscard]] double dp_flops_per_cycle() const noexcept {
        return 2.0 * doubles_per_vector * fma_units;  // an FMA is two flops
    }
};

[[nodiscard]] inline fp_units fp_units_of(const cpu_info& cpu) {
    const bool avx512 = cpu.has("avx512f");
    const bool avx2_fma = cpu.has("avx2") && cpu.has("fma");
    if (cpu.vendor == "AuthenticAMD") {
        if (cpu.family == 0x1a && avx512)  // Zen 5: 512-bit data path on server/desktop parts
            return {8, 2, "AMD family 0x1a (Zen 5): 2 x 512-bit FMA per core"};
        if (cpu.family == 0x19 && avx2_fma)  // Zen 3/4: AVX-512 on Zen 4 is double-pumped 256-bit
            return {4, 2, "AMD family 0x19 (Zen 3/4): 2 x 256-bit FMA per core"};
        if (cpu.family == 0x17 && avx2_fma) {
            if (cpu.model >= 0x30)
                return {4, 2, "AMD family 0x17 model >= 0x30 (Zen 2): 2 x 256-bit FMA per core"};
            return {2, 2, "AMD family 0x17 (Zen 1): 2 x 128-bit FMA per core"};
        }
        return {};
    }
    if (cpu.vendor == "GenuineIntel" && cpu.family == 6) {
        // Server parts with AVX-512 whose second FMA unit does not depend on the SKU.
        switch (cpu.model) {
            case 0x6a: case 0x6c: return {8, 2, "Intel Ice Lake-SP: 2 x 512-bit FMA per core"};
            case 0x8f: return {8, 2, "Intel Sapphire Rapids: 2 x 512-bit FMA per core"};
            case 0xcf: return {8, 2, "Intel Emerald Rapids: 2 x 512-bit FMA per core"};
            default: break;
        }
        // Skylake-SP/Cascade Lake (0x55) have one or two 512-bit FMA units depending on the SKU:
        // unknown. Client cores with AVX2 and no AVX-512 have two 256-bit FMA units (Haswell on).
        if (!avx512 && avx2_fma)
            return {4, 2, "Intel AVX2+FMA core (Haswell or later): 2 x 256-bit FMA per core"};
        return {};
    }
    return {};
}

struct peak_estimate {
    std::optional<double> dp_gflops_per_core;  // nullopt: unknown
    std::string basis;                          // or why it is unknown
    [[nodiscard]] std::optional<double> dp_gflops(int cores) const {
        if (!dp_gflops_per_core) return std::nullopt;
        return *dp_gflops_per_core * cores;
    }
    [[nodiscard]] std::optional<double> sp_gflops(int cores) const {
        if (!dp_gflops_per_core) return std::nullopt;
        return 2.0 * *dp_gflops_per_core * cores;  // twice the floats per vector
    }
};

[[nodiscard]] inline peak_estimate estimate_peak(const cpu_info& cpu) {
    const fp_units units = fp_units_of(cpu);
    if (!units.known())
        return {std::nullopt, "unknown: vector width / FMA units of '" + cpu.model_name +
                                  "' (vendor " + cpu.vendor + ", family " +
                                  std::to_string(cpu.family) + ", model " +
                                  std::to_string(cpu.model) + ") not in parbench's table"};
    if (!(cpu.clock_mhz > 0.0)) return {std::nullopt, "unknown: CPU clock not available"};
    // Without cpufreq a virtual machine's "cpu MHz" is the TSC rate, not the boost clock: the
    // peak is then a nominal one, and a well-tuned kernel can exceed 100 % of it. A measured
    // clock is one core's while the others idle: all cores busy may run a little slower.
    const bool nominal_clock = cpu.has("hypervisor") && cpu.clock_source.rfind("/proc", 0) == 0;
    const bool measured_clock = cpu.clock_source.rfind("measured", 0) == 0;
    const double per_core = units.dp_flops_per_cycle() * cpu.clock_mhz / 1000.0;
    std::ostringstream basis;
    basis << units.basis << ", " << std::lround(cpu.clock_mhz) << " MHz "
          << (measured_clock ? "" : "from ") << cpu.clock_source;
    if (nominal_clock)
        basis << "; virtual machine: nominal (TSC) clock, boost may exceed it and percentages "
                 "above 100 % are possible";
    if (measured_clock)
        basis << "; with every core busy the clock may be lower, and so the real peak";
    return {per_core, basis.str()};
}

}  // namespace parbench::cpu
