// The parts of the PAW run header (report/paw_header.hpp) and run context
// (report/paw_context.hpp) that every PAW family fills alike from what it runs under: the
// NLOOP/NREPS loops from its paw_nloop policy (the options of plugin/paw_parameters.hpp) and the
// clock's limits from its calibration. Used by the BLAS plugin, the MPI plugin's paw suite and,
// through paw::transfer_header (plugin/paw_transfer_settings.hpp), the GPU and offload plugins.
#pragma once

#include <parbench/core/clock.hpp>
#include <parbench/policy/paw_nloop.hpp>
#include <parbench/report/paw_header.hpp>
#include <parbench/report/stability.hpp>

namespace parbench::paw {

// The header's NLOOP/NREPS line from the loop policy a PAW family runs under and the timer
// threshold it measured.
[[nodiscard]] inline report::paw_header_loops header_loops(
    const policy::iterations::paw_nloop& policy, double timer_threshold_s) {
    return {.nreps = policy.nreps,
            .nloop_max = policy.nloop_max,
            .nloop_min = policy.nloop_min,
            .threshold_factor = policy.threshold_factor,
            .timer_threshold_s = timer_threshold_s,
            .budget_s = policy.budget_s};
}

// The context's timer limits (timer_resolution_s, timer_overhead_s) from the clock's calibration.
[[nodiscard]] inline report::timer_limits context_timer(const clock_characteristics& clock) {
    return {.resolution_s = clock.resolution_s, .overhead_s = clock.overhead_s};
}

}  // namespace parbench::paw
