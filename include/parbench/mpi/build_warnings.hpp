// What makes a benchmark program's figures untrustworthy before it measures anything: code built
// without optimisation, a sanitiser's instrumentation, valgrind or a debugger underneath. The
// build is judged where this header is compiled — the program's own translation unit, where its
// kernels and parbench's timing loop are instantiated (parbench is header-only) — and said as
// one warning line on the console and in the JSON file (parbench::mpi::main).
#pragma once

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace parbench::mpi {

namespace build_check {

// The tracer of this process (a debugger, strace) from /proc/self/status; 0 when none or unknown.
[[nodiscard]] inline long tracer_pid() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("TracerPid:", 0) == 0) return std::strtol(line.c_str() + 10, nullptr, 10);
    return 0;
}

// valgrind preloads its core into the program it runs.
[[nodiscard]] inline bool under_valgrind() {
    const char* preload = std::getenv("LD_PRELOAD");
    return preload != nullptr && std::string(preload).find("vgpreload") != std::string::npos;
}

[[nodiscard]] constexpr const char* sanitizer() noexcept {
#if defined(__SANITIZE_ADDRESS__)
    return "AddressSanitizer";
#elif defined(__SANITIZE_THREAD__)
    return "ThreadSanitizer";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return "AddressSanitizer";
#elif __has_feature(thread_sanitizer)
    return "ThreadSanitizer";
#elif __has_feature(memory_sanitizer)
    return "MemorySanitizer";
#else
    return nullptr;
#endif
#else
    return nullptr;
#endif
}

[[nodiscard]] constexpr bool optimised() noexcept {
#if defined(__OPTIMIZE__)
    return true;
#else
    return false;
#endif
}

}  // namespace build_check

// At most one line (empty when all is well): every reason, and what to do about it.
[[nodiscard]] inline std::vector<std::string> build_warnings() {
    std::vector<std::string> reasons;
    if (!build_check::optimised())
        reasons.emplace_back("built without optimisation (no -O2: the kernels and the timing loop "
                             "are compiled as written, so rows time the unoptimised code; build "
                             "with -O2 -DNDEBUG)");
    if (const char* name = build_check::sanitizer())
        reasons.emplace_back(std::string("built with ") + name +
                             " (every memory access is instrumented)");
    if (build_check::under_valgrind()) reasons.emplace_back("running under valgrind");
    if (const long pid = build_check::tracer_pid(); pid > 0)
        reasons.emplace_back("traced by process " + std::to_string(pid) + " (a debugger?)");
    if (reasons.empty()) return {};
    std::string line = "this program is ";
    for (std::size_t k = 0; k < reasons.size(); ++k)
        line += (k == 0 ? "" : k + 1 == reasons.size() ? " and " : ", ") + reasons[k];
    return {line + "; its figures are not the operation's. Measure with an optimised build, "
                   "run directly"};
}

}  // namespace parbench::mpi
