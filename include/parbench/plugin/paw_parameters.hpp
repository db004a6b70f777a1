// The options of PAW's NLOOP/NREPS method, as every PAW test family declares them to the driver
// (plugin/abi.h parameter rows), and a compile-time join with a family's own rows. Parsed by the
// families' settings (plugin/paw_options.hpp and friends).
#pragma once

#include <parbench/plugin/abi.h>

#include <array>
#include <cstddef>

namespace parbench::paw {

// `nloop_help`: the NLOOP ceiling's description, naming the family's variable;
// `nloop_default`: its default as text.
[[nodiscard]] constexpr std::array<parbench_parameter, 5> loop_parameters(const char* nloop_help,
                                                                          const char* nloop_default) {
    return {{
        {"nreps", "R", "timed repetitions per size (PAW's NREPS; overrides NREPS)", "10",
         PARBENCH_ARITY_ONE},
        {"nloop_max", "L", nloop_help, nloop_default, PARBENCH_ARITY_ONE},
        {"nloop_min", "L", "lower bound of calls per timed loop (overrides NLOOP_MIN)", "1",
         PARBENCH_ARITY_ONE},
        {"time", "SECONDS",
         "per-size time budget; larger sizes predicted to exceed it are skipped", "10",
         PARBENCH_ARITY_ONE},
        {"min_loop_time", "SECONDS", "shortest timed loop (0: PAW's bare 10x timer rule)",
         "0.001", PARBENCH_ARITY_ONE},
    }};
}

// A family's own rows followed by the loop rows.
template <std::size_t Own, std::size_t Loop>
[[nodiscard]] constexpr std::array<parbench_parameter, Own + Loop> join(
    const std::array<parbench_parameter, Own>& own, const std::array<parbench_parameter, Loop>& loop) {
    std::array<parbench_parameter, Own + Loop> out{};
    for (std::size_t i = 0; i < Own; ++i) out[i] = own[i];
    for (std::size_t i = 0; i < Loop; ++i) out[Own + i] = loop[i];
    return out;
}

}  // namespace parbench::paw
