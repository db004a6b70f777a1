// The one family of the BLAS suite: PAW's compute sweep of one kernel (GEMM or GEMV, double or
// single precision: the workloads of kernels.hpp) over the matrix orders of the configuration,
// at one BLAS thread count, timed with PAW's NLOOP method through the compute pattern. With a
// communication service every rank runs the kernels at the same time and rank 0 reports the
// combined figures.
#pragma once

#include "config.hpp"
#include "kernels.hpp"

#include <parbench/core/clock.hpp>
#include <parbench/core/cpu_info.hpp>
#include <parbench/plugin/export.hpp>

#include <string>

namespace parbench::blas {

// Everything about where the run happens that a reader of the results needs.
struct environment {
    ::parbench::cpu::cpu_info cpu;
    ::parbench::cpu::peak_estimate peak;
    std::string corename;
    std::string version;
    int processes = 1;
    int rank = 0;
    int ranks_per_node = 1;
    clock_characteristics clock{};
    double timer_threshold_s = 0.0;
};

// Collective over the ranks of the host's communication service, if any; emits one record per
// size on rank 0.
void run_kernel(kernel k, int threads, const blas_config& cfg, const environment& env,
                const plugin::host_channel& channel);

}  // namespace parbench::blas
