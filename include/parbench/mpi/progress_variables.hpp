// The environment variables that ask an MPI library for an asynchronous progress thread, the
// values each library accepts, and their check before MPI_Init: MPICH parses its variables inside
// MPI_Init and aborts the process on a value it cannot parse ("Unable to parse environment
// variable"), before parbench could say a word, although parbench reads the same variables for
// its header (async_progress.hpp). No MPI here, so that the driver checks them before it loads
// MPI at all; mpi::environment and the MPI plugin check them again right before MPI_Init_thread.
//
//   MPIR_CVAR_ASYNC_PROGRESS   MPICH (3.x, 4.x): spawns a progress thread and raises the thread
//                              level to MPI_THREAD_MULTIPLE by itself
//   MPICH_ASYNC_PROGRESS       MPICH's older name of the same control
//   I_MPI_ASYNC_PROGRESS       Intel MPI; needs MPI_THREAD_MULTIPLE (-thread_level multiple)
//   MPI_ASYNC_PROGRESS         the spelling of the COMB-style benchmark's README; no library we
//                              know reads it, so it is reported as set but not recognised
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/options.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace parbench::mpi {

// How the reader of a variable spells a boolean.
enum class boolean_spelling {
    // MPICH's MPL_env2bool (MPICH 4.0.2, tried value by value): 1 yes true on / 0 no false off,
    // all lower or all upper case; anything else ("Yes", "2", "", " 1") aborts MPI_Init.
    mpich,
    // Intel MPI's enable|yes|on|1 / disable|no|off|0, and the same for a variable nobody reads
    // (any case, and true/false too).
    words,
};

struct async_progress_variable {
    std::string_view name;
    std::string_view read_by;  // the library that reads it; empty: none
    boolean_spelling spelling;
};

inline constexpr std::array<async_progress_variable, 4> async_progress_variables{{
    {"MPIR_CVAR_ASYNC_PROGRESS", "MPICH", boolean_spelling::mpich},
    {"MPICH_ASYNC_PROGRESS", "MPICH", boolean_spelling::mpich},
    {"I_MPI_ASYNC_PROGRESS", "Intel MPI", boolean_spelling::words},
    {"MPI_ASYNC_PROGRESS", "", boolean_spelling::words},
}};

// The value as its reader takes it; nullopt when the reader does not accept it.
[[nodiscard]] inline std::optional<bool> parse_boolean(boolean_spelling spelling,
                                                       std::string_view value) {
    const std::optional<bool> word = switch_word(value);  // 1 on yes true enable / 0 off ..., any case
    if (spelling == boolean_spelling::words) return word;
    // MPICH: the same words less enable/disable, all lower or all upper case ("Yes" aborts).
    std::string lower(value);
    std::string upper(value);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if ((value != lower && value != upper) || lower == "enable" || lower == "disable")
        return std::nullopt;
    return word;
}

[[nodiscard]] inline std::string_view accepted_values(boolean_spelling spelling) {
    return spelling == boolean_spelling::mpich
               ? "1, 0, yes, no, true, false, on or off (all lower or all upper case), the "
                 "values MPICH accepts (it aborts inside MPI_Init on any other)"
               : "1, 0, yes, no, true, false, on, off, enable or disable";
}

// The first set variable whose value its reader would not accept, as one line naming the
// variable and the value; nullopt when all are well. `lookup(name)` returns the value or nullptr
// (std::getenv's contract).
template <class Lookup>
[[nodiscard]] std::optional<std::string> progress_environment_problem(Lookup&& lookup) {
    for (const auto& var : async_progress_variables) {
        const char* value = lookup(std::string(var.name).c_str());
        if (value == nullptr || parse_boolean(var.spelling, value)) continue;
        std::string shown(value);
        if (shown.size() > 64) shown = shown.substr(0, 64) + "...";
        return "environment " + std::string(var.name) + " '" + shown + "': expected " +
               std::string(accepted_values(var.spelling));
    }
    return std::nullopt;
}

// Throws input_error naming the variable: call it before MPI_Init_thread.
inline void check_progress_environment() {
    if (auto problem =
            progress_environment_problem([](const char* name) { return std::getenv(name); }))
        throw input_error(*problem);
}

}  // namespace parbench::mpi
