// The run context every report starts from — the driver's and a custom benchmark's alike: the
// machine, in the keys Google Benchmark's JSON context uses (date, host_name, num_cpus,
// mhz_per_cpu, cpu_scaling_enabled, caches, load_avg, ...), the uname fields and the date form
// the IMB header prints (date_text, machine, system, release, version), the calling sequence, the
// launcher (host/launcher.hpp: srun, mpiexec, ...) and parbench's versions. Read from POSIX calls
// and /proc, /sys; never fails. The reporters (report/reporter.hpp) take it as their
// `driver_context`.
#pragma once

#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <parbench/host/launcher.hpp>
#include <parbench/report/json.hpp>
#include <parbench/version.hpp>
#include <string>
#include <system_error>

namespace parbench::report {

namespace detail {

inline std::string read_first_line(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

// "32K" / "1024K" / "8M" (sysfs cache sizes) -> bytes.
inline long long parse_cache_size(const std::string& text) {
    if (text.empty()) return 0;
    char* end = nullptr;
    long long value = std::strtoll(text.c_str(), &end, 10);
    if (end != nullptr && (*end == 'K' || *end == 'k')) value *= 1024;
    if (end != nullptr && (*end == 'M' || *end == 'm')) value *= 1024 * 1024;
    return value;
}

inline nlohmann::json caches() {
    nlohmann::json list = nlohmann::json::array();
    const std::filesystem::path base = "/sys/devices/system/cpu/cpu0/cache";
    for (int index = 0; index < 16; ++index) {
        const auto dir = base / ("index" + std::to_string(index));
        std::error_code ec;
        if (!std::filesystem::exists(dir, ec)) break;
        std::string type = read_first_line(dir / "type");
        const std::string shared = read_first_line(dir / "shared_cpu_list");
        // Count the CPUs in a list like "0-3,8".
        int sharing = 0;
        std::size_t pos = 0;
        while (pos < shared.size()) {
            const std::size_t comma = shared.find(',', pos);
            const std::string item = shared.substr(pos, comma - pos);
            const std::size_t dash = item.find('-');
            if (dash == std::string::npos)
                sharing += item.empty() ? 0 : 1;
            else
                sharing += std::atoi(item.c_str() + dash + 1) - std::atoi(item.c_str()) + 1;
            if (comma == std::string::npos) break;
            pos = comma + 1;
        }
        list.push_back({{"type", type},
                        {"level", std::atoi(read_first_line(dir / "level").c_str())},
                        {"size", parse_cache_size(read_first_line(dir / "size"))},
                        {"num_sharing", sharing}});
    }
    return list;
}

inline double mhz_per_cpu() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("cpu MHz", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) return std::atof(line.c_str() + colon + 1);
        }
    }
    const std::string khz =
        read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
    return khz.empty() ? 0.0 : std::atof(khz.c_str()) / 1000.0;
}

inline bool cpu_scaling_enabled() {
    const std::string governor =
        read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
    return !governor.empty() && governor != "performance";
}

}  // namespace detail

// This process's executable, as /proc/self/exe names it (argv[0] where /proc is missing).
[[nodiscard]] inline std::string executable_path(const char* argv0) {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) return self.string();
    return argv0 != nullptr ? argv0 : "";
}

// The command line as the IMB header prints it ("Calling sequence was: ...").
[[nodiscard]] inline std::string calling_sequence(int argc, const char* const* argv) {
    std::string text;
    for (int i = 0; i < argc; ++i) {
        if (i > 0) text += ' ';
        text += argv[i];
    }
    return text;
}

// The machine and the moment: date, host, CPUs, caches, load, build type, uname.
[[nodiscard]] inline nlohmann::json system_context(const std::string& executable) {
    nlohmann::json c;
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    ::localtime_r(&now, &local);
    std::array<char, 64> buffer{};
    std::strftime(buffer.data(), buffer.size(), "%Y-%m-%dT%H:%M:%S%z", &local);
    std::string iso = buffer.data();
    if (iso.size() > 5) iso.insert(iso.size() - 2, ":");  // +0000 -> +00:00, as Google Benchmark
    c["date"] = iso;
    std::strftime(buffer.data(), buffer.size(), "%a %b %e %H:%M:%S %Y", &local);
    c["date_text"] = buffer.data();  // the IMB header's form: "Thu Sep  4 13:20:07 2008"

    std::array<char, 256> host{};
    if (::gethostname(host.data(), host.size() - 1) == 0) c["host_name"] = host.data();
    c["executable"] = executable;
    c["num_cpus"] = ::sysconf(_SC_NPROCESSORS_ONLN);
    c["mhz_per_cpu"] = static_cast<long>(detail::mhz_per_cpu());
    c["cpu_scaling_enabled"] = detail::cpu_scaling_enabled();
    c["caches"] = detail::caches();
    std::array<double, 3> load{};
    if (::getloadavg(load.data(), 3) == 3)
        c["load_avg"] = load;
    else
        c["load_avg"] = nlohmann::json::array();
#ifdef NDEBUG
    c["library_build_type"] = "release";
#else
    c["library_build_type"] = "debug";
#endif
    struct utsname names {};
    if (::uname(&names) == 0) {
        c["machine"] = names.machine;
        c["system"] = names.sysname;
        c["release"] = names.release;
        c["version"] = names.version;
    }
    return c;
}

// The context of a run of this program: system_context() plus the calling sequence, the launcher
// and parbench's versions (library, JSON schema, event schema). The driver adds the suite, its
// options and the plugins; a custom benchmark (mpi/main.hpp) its benchmarks and options.
[[nodiscard]] inline nlohmann::json run_context(int argc, const char* const* argv) {
    nlohmann::json c = system_context(executable_path(argc > 0 ? argv[0] : nullptr));
    c["parbench_version"] = version;
    c["schema_version"] = json_schema_version;
    c["event_schema"] = event_schema_version;
    c["calling_sequence"] = calling_sequence(argc, argv);
    const launcher_info launcher = detect_launcher();
    c["launcher"] = {{"name", launcher.name},
                     {"processes", launcher.processes ? nlohmann::json(*launcher.processes)
                                                      : nlohmann::json(nullptr)}};
    return c;
}

}  // namespace parbench::report
