// The one place where the caf plugin calls parbench's MPI runner (include/parbench/mpi/). Every
// image is active in every measurement (EPCC's idle images still join `sync all`), the coarray
// is the resource (so the runner's message buffers are empty), and the kernel decides from its
// own role what one iteration does. The runner brings the warm-up, the iteration rule with the
// -time cap, the batches behind the median and its confidence interval, and the gather to rank 0.
#pragma once

#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/pattern.hpp>
#include <parbench/report/result.hpp>

#include <cstdint>
#include <string>

namespace parbench::caf {

// The pattern descriptor of a caf measurement: all images take part; a ping-pong iteration is a
// round trip (time_divisor 2: the reported time is one transfer, EPCC's latency).
struct caf_step {
    using category = pattern::point_to_point_tag;
    benchmark_class klass = benchmark_class::single_transfer;
    pattern::participants who = pattern::participants::all;
    int nmsg = 1;
    double time_divisor = 1.0;
    bool rooted = false;
};
static_assert(pattern::point_to_point_descriptor<caf_step>);

struct timing_settings {
    policy::iterations::imb_volume iterations;
    bool check = false;
};

// Times `kernel` on every image of `images` (all of MPI_COMM_WORLD): one size of a family's
// sweep (families/families.hpp). Collective; the record is on rank 0 only. `check` follows the
// runner's data_check concept: fill before timing, count defects after the last iteration.
template <class Kernel, class Check = mpi::no_check>
[[nodiscard]] mpi::measurement measure_on_all_images(const mpi::session& images,
                                                     const caf_step& step,
                                                     const std::string& benchmark,
                                                     std::uint64_t bytes, Kernel kernel,
                                                     const timing_settings& settings,
                                                     const Check& check = {}) {
    return mpi::measure(
        images, mpi::measure_config{
                    .pattern = step,
                    .labels = {.suite = "caf", .benchmark = benchmark, .has_bytes = bytes > 0},
                    .bytes = bytes,
                    .resource = mpi::messages{.layout = {0, 0}},
                    .kernel = std::move(kernel),
                    .plan = mpi::timing_plan<>{.iterations = settings.iterations,
                                               .check = settings.check},
                    .check = check});
}

}  // namespace parbench::caf
