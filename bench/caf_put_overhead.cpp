// The caf suite's put ping-pong (sync images) through parbench — the runner, the plugin's
// kernel functor and the Fortran put of plugins/caf — against the same exchange written as one
// Fortran loop (caf_put_reference.f90), alternating in one run at 8 B (1 double) and 64 KiB.
// The figure compared is the same on both sides: the loop time per transfer (half a round
// trip) of the slower image. Long form (benchmark()): fails when a size's median ratio
// parbench / reference exceeds 1.05 (issue 10). Short form (--short, a benchmark() in suite bench-short): fails when the
// 95 % CI of the median ratio lies outside [0.90, 1.10] (bench/ratio_rule.hpp).
//
//   mpiexec -n 2 ./caf_put_overhead [ALTERNATIONS] [--short]
#include "caf_kernels.h"
#include "ping_pong_kernels.hpp"
#include "alternation.hpp"
#include "ratio_rule.hpp"
#include "runtime.hpp"
#include "timing.hpp"

#include <parbench/mpi/environment.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" {
void reference_prepare(int ndata);
void reference_release(void);
double reference_put_ping_pong(int ndata, int iterations, int partner, int initiator);
}

namespace {

constexpr double long_limit = 1.05;
constexpr double short_low = 0.90;
constexpr double short_high = 1.10;

}  // namespace

int main(int argc, char** argv) {
    using namespace parbench;
    mpi::environment env(argc, argv);
    caf::start_coarray_runtime(&argc, &argv);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const bench::bench_args args = bench::parse_bench_args(argc, argv, 31);
    const int alternations = args.alternations;
    const bool short_form = args.short_form;
    if (size != 2) {
        if (rank == 0) std::fprintf(stderr, "caf_put_overhead: run with mpiexec -n 2\n");
        caf::stop_coarray_runtime();
        return 2;
    }
    const int partner_image = 2 - rank;  // images 1 and 2
    const bool initiator = rank == 0;
    const mpi::session images(MPI_COMM_WORLD, size);
    if (rank == 0)
        std::printf("# caf put ping-pong (sync images), parbench / plain Fortran loop, %s form, "
                    "%d alternations\n%10s %8s %14s %14s %10s %21s\n",
                    short_form ? "short" : "long", alternations, "#bytes", "n", "fortran[usec]",
                    "parbench[usec]", "ratio", "95% CI of the median");
    int failures = 0;
    for (const int ndata : {1, 8192}) {
        const int n = short_form ? (ndata == 1 ? 300 : 100) : (ndata == 1 ? 3000 : 1000);
        const caf::timing_settings settings{
            .iterations = {.msgs_per_sample = static_cast<std::uint64_t>(n),
                           .overall_vol_bytes = ~0ull,
                           .msgs_nonaggr = static_cast<std::uint64_t>(n),
                           .secs_per_sample = 1e9}};
        caf::ping_pong_kernel<caf::sync_images_step> kernel;
        kernel.transfer = parbench_caf_put;
        kernel.partner_image = partner_image;
        kernel.moves_in_step_one = initiator;
        kernel.moves_in_step_two = !initiator;
        std::vector<double> fortran_us, parbench_us, ratios;
        (void)parbench_caf_prepare_point_to_point(ndata, 1, 1, ndata, 0);
        reference_prepare(ndata);
        for (int a = 0; a < alternations; ++a) {
            double reference = reference_put_ping_pong(ndata, n, partner_image, initiator) * 1e6;
            MPI_Allreduce(MPI_IN_PLACE, &reference, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            const mpi::measurement m = caf::measure_on_all_images(
                images, caf::caf_step{.time_divisor = 2.0}, "put",
                static_cast<std::uint64_t>(ndata) * 8, kernel, settings);
            double ours = m.records.empty() ? 0.0 : m.records.front().t_max_us;
            MPI_Bcast(&ours, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
            fortran_us.push_back(reference);
            parbench_us.push_back(ours);
            ratios.push_back(reference > 0.0 ? ours / reference : 0.0);
        }
        reference_release();
        parbench_caf_release_point_to_point();
        const auto ci = bench::median_with_ci(ratios);
        const bool measured = bench::all_measured(fortran_us) && bench::all_measured(parbench_us) &&
                              bench::all_measured(ratios);
        const bool ok = measured && (short_form ? bench::ci_within(ci, short_low, short_high)
                                                : ci.median <= long_limit);
        failures += ok ? 0 : 1;
        if (rank == 0)
            std::printf("%10d %8d %14.3f %14.3f %10.3f %10.3f..%-10.3f%s\n", ndata * 8, n,
                        bench::median_with_ci(fortran_us).median,
                        bench::median_with_ci(parbench_us).median, ci.median, ci.low, ci.high,
                        ok ? "" : !measured ? "  NOT MEASURED"
                             : short_form   ? "  CI OUTSIDE [0.90, 1.10]"
                                            : "  ABOVE 1.05");
    }
    if (rank == 0) std::printf("# %s\n", failures == 0 ? "ok" : "FAILED");
    caf::stop_coarray_runtime();
    return failures == 0 ? 0 : 1;
}
