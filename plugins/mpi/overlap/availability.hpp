// The COMB-style availability figures and the work-time ramp that finds them (catalogue B.3),
// free of MPI so that the unit tests check them against hand-computed answers.
//
//   base_t    time of one iteration of the variant with no work (µs)
//   work_t    the busy-wait the iteration overlaps with the collective (µs)
//   iter_t    time of one iteration with that work: call + work + wait (µs)
//   overhead  iter_t − work_t, at least 0: what the communication costs the CPU once work
//             dominates (the nonblocking call plus MPI_Wait)
//   avail(%)  100 · (1 − overhead / base_t): the part of the communication time the process
//             could use for work. 100: none of it is lost; 0: all of it (Blocking, NB_Wait);
//             negative: the nonblocking form costs more than the blocking time. Undefined when
//             base_t is 0.
//
// The ramp: work_t starts at base_t (1 µs at least) and doubles until work dominates, i.e.
// work_t >= base_t (the collective had time to finish during the work) and
// work_t >= threshold · overhead (the seed's -threshold, 2 by default; Sandia's COMB uses the
// same kind of factor). It gives up after max_steps doublings or above max_work_us; the row then
// carries the last step's figures and says that work never dominated.
#pragma once

#include <algorithm>
#include <optional>

namespace parbench::overlap {

[[nodiscard]] constexpr double overhead_us(double iter_t_us, double work_t_us) noexcept {
    return std::max(0.0, iter_t_us - work_t_us);
}

[[nodiscard]] constexpr std::optional<double> availability_percent(double overhead_us,
                                                                   double base_t_us) noexcept {
    if (!(base_t_us > 0.0)) return std::nullopt;
    return 100.0 * (1.0 - overhead_us / base_t_us);
}

struct ramp_rule {
    double threshold = 2.0;       // -threshold
    int max_steps = 24;           // doublings before giving up
    double max_work_us = 1.0e6;   // nor beyond one second of work per iteration

    [[nodiscard]] static constexpr double first_work_us(double base_t_us) noexcept {
        return std::max(base_t_us, 1.0);
    }
    [[nodiscard]] constexpr bool work_dominates(double base_t_us, double work_t_us,
                                                double iter_t_us) const noexcept {
        return work_t_us >= base_t_us && work_t_us >= threshold * overhead_us(iter_t_us, work_t_us);
    }
    // The work of the step after `work_t_us`, or nothing when the ramp gives up.
    [[nodiscard]] constexpr std::optional<double> next_work_us(double work_t_us,
                                                               int steps_done) const noexcept {
        const double next = 2.0 * work_t_us;
        if (steps_done >= max_steps || next > max_work_us) return std::nullopt;
        return next;
    }
};

}  // namespace parbench::overlap
