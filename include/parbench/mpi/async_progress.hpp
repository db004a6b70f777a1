// Whether the MPI library was asked to progress communication asynchronously (a progress thread
// that advances a nonblocking collective while the application computes), read from the
// environment the way the libraries read it, for the header and JSON context of the overlap
// suites (imb-nbc, overlap). parbench never sets these variables; it reports them.
//
//   MPIR_CVAR_ASYNC_PROGRESS   MPICH (3.x, 4.x): spawns a progress thread and raises the thread
//                              level to MPI_THREAD_MULTIPLE by itself
//   MPICH_ASYNC_PROGRESS       MPICH's older name of the same control
//   I_MPI_ASYNC_PROGRESS       Intel MPI; needs MPI_THREAD_MULTIPLE (-thread_level multiple)
//   MPI_ASYNC_PROGRESS         the spelling of the COMB-style benchmark's README; no library we
//                              know reads it, so it is reported as set but not recognised
//
// The lookup is injected so that the parsing is tested without touching the environment.
#pragma once

#include <parbench/core/options.hpp>
#include <parbench/mpi/environment.hpp>

#include <nlohmann/json.hpp>

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <string>
#include <string_view>

namespace parbench::mpi {

struct async_progress_variable {
    std::string_view name;
    std::string_view read_by;  // the library that reads it; empty: none
};

inline constexpr std::array<async_progress_variable, 4> async_progress_variables{{
    {"MPIR_CVAR_ASYNC_PROGRESS", "MPICH"},
    {"MPICH_ASYNC_PROGRESS", "MPICH"},
    {"I_MPI_ASYNC_PROGRESS", "Intel MPI"},
    {"MPI_ASYNC_PROGRESS", ""},
}};

// The thread level a progress thread needs: the application's calls and the progress thread's
// enter the library concurrently.
inline constexpr int async_progress_thread_level = MPI_THREAD_MULTIPLE;

struct async_progress {
    bool requested = false;      // a variable a library reads is set to a true value
    std::string variable;        // the first variable found set (any value), "" if none
    std::string value;           // its value
    std::string read_by;         // the library that reads `variable`; "" if none does
    int thread_level = MPI_THREAD_SINGLE;  // provided by MPI_Init_thread (MPI_Query_thread)

    // A progress thread was asked for and the library runs at the level it needs.
    [[nodiscard]] bool thread_level_sufficient() const noexcept {
        return thread_level >= async_progress_thread_level;
    }
    [[nodiscard]] bool enabled() const noexcept { return requested && thread_level_sufficient(); }
};

// "1", "yes", "true", "on", "enable" (any case) are true, as MPICH and Intel MPI read booleans;
// anything else, the empty string included, is false.
[[nodiscard]] inline bool truthy(std::string_view value) {
    return switch_word(value).value_or(false);
}

// `lookup(name)` returns the variable's value or nullptr (std::getenv's contract).
template <class Lookup>
[[nodiscard]] async_progress detect_async_progress(Lookup&& lookup, int thread_level) {
    async_progress found;
    found.thread_level = thread_level;
    for (const auto& var : async_progress_variables) {
        const char* value = lookup(std::string(var.name).c_str());
        if (value == nullptr) continue;
        if (found.variable.empty()) {
            found.variable = std::string(var.name);
            found.value = value;
            found.read_by = std::string(var.read_by);
        }
        if (!var.read_by.empty() && truthy(value)) {
            // A set, readable variable beats an earlier unrecognised one.
            found.requested = true;
            found.variable = std::string(var.name);
            found.value = value;
            found.read_by = std::string(var.read_by);
            break;
        }
    }
    return found;
}

// From this process's environment and the thread level MPI provided (MPI must be initialised).
[[nodiscard]] inline async_progress detect_async_progress() {
    int level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&level);
    return detect_async_progress([](const char* name) { return std::getenv(name); }, level);
}

// The header line: "on (MPIR_CVAR_ASYNC_PROGRESS=1, MPI_THREAD_MULTIPLE)", "off", or why a
// request has no effect.
[[nodiscard]] inline std::string describe(const async_progress& p) {
    const std::string level(thread_level_name(p.thread_level));
    if (p.variable.empty()) return "off (no progress-thread variable set)";
    const std::string setting = p.variable + "=" + p.value;
    if (p.read_by.empty()) return "off (" + setting + " is read by no MPI library)";
    if (!p.requested) return "off (" + setting + ")";
    if (!p.thread_level_sufficient())
        return "requested (" + setting + ") but the thread level is " + level +
               "; a progress thread needs MPI_THREAD_MULTIPLE (-thread_level multiple)";
    return "on (" + setting + ", " + level + ")";
}

// The JSON context entry "async_progress".
[[nodiscard]] inline nlohmann::json to_json(const async_progress& p) {
    return {{"enabled", p.enabled()},
            {"requested", p.requested},
            {"variable", p.variable},
            {"value", p.value},
            {"read_by", p.read_by},
            {"thread_level", std::string(thread_level_name(p.thread_level))},
            {"thread_level_needed", std::string(thread_level_name(async_progress_thread_level))}};
}

}  // namespace parbench::mpi
