// The BLAS plugin's suite `paw`: PAW's CPU BLAS tests (DGEMM, SGEMM, DGEMV, SGEMV) on OpenBLAS.
// Its catalogue of benchmarks and parameters, the environment and warnings of a run, the run
// header, and the sweep (sweep.hpp) of every chosen kernel at every thread count.
#include "suite.hpp"

#include "config.hpp"
#include "openblas.hpp"
#include "openblas_env.hpp"
#include "sweep.hpp"

#include <parbench/core/clock.hpp>
#include <parbench/core/cpu_info.hpp>
#include <parbench/plugin/paw_parameters.hpp>
#include <parbench/plugin/paw_run_header.hpp>
#include <parbench/report/paw_context.hpp>
#include <parbench/report/paw_header.hpp>

#include <cblas.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace parbench::blas {
namespace suite_impl {
namespace {

// ---- the catalogue: the benchmarks, in the order `parbench list` shows them, and parameters ---

constexpr parbench_benchmark paw_benchmarks[] = {
    {"dgemm", "double-precision matrix multiply C = A B (N x N), 2N^2(N+1) flops as PAW",
     "compute", PARBENCH_BENCH_DEFAULT},
    {"sgemm", "single-precision matrix multiply C = A B (N x N), 2N^2(N+1) flops as PAW",
     "compute", PARBENCH_BENCH_DEFAULT},
    {"dgemv", "double-precision matrix-vector product y = A x (N x N), 2N(N+1) flops as PAW",
     "compute", PARBENCH_BENCH_DEFAULT},
    {"sgemv", "single-precision matrix-vector product y = A x (N x N), 2N(N+1) flops as PAW",
     "compute", PARBENCH_BENCH_DEFAULT},
};

constexpr auto paw_parameters = paw::join(
    std::array<parbench_parameter, 6>{{
        {"threads", "T1[,T2...]", "BLAS thread counts to sweep (openblas_set_num_threads)",
         "OpenBLAS's own count (OPENBLAS_NUM_THREADS / OMP_NUM_THREADS)", PARBENCH_ARITY_ONE},
        {"min_size", "N", "smallest matrix order (overrides MIN_BLAS_SIZE)", "8",
         PARBENCH_ARITY_ONE},
        {"med_size", "N", "warm-up matrix order (overrides MED_BLAS_SIZE)", "1024",
         PARBENCH_ARITY_ONE},
        {"max_size", "N", "largest matrix order (overrides MAX_BLAS_SIZE)", "10000",
         PARBENCH_ARITY_ONE},
        {"size_step", "xF|+S", "progression from min to max: multiply by F or add S", "x2",
         PARBENCH_ARITY_ONE},
        {"sizes", "N1,N2,...", "explicit ascending list of matrix orders (replaces min/max/step)",
         nullptr, PARBENCH_ARITY_ONE},
    }},
    paw::loop_parameters("upper bound of calls per timed loop (overrides NLOOP_MAX)", "1000"));

// ---- one run ----------------------------------------------------------------------------------

nlohmann::json env_or_null(const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr ? nlohmann::json(v) : nlohmann::json(nullptr);
}

// As MPI sees nodes (the MPI plugin's MPI_Comm_split_type), not host names: hydra's fork
// launcher can give two MPI nodes on one host. 1 without MPI, or from an MPI plugin that
// predates the call.
int count_ranks_on_my_node(const parbench_comm_service* comm) {
    if (comm == nullptr || comm->processes_on_node == nullptr) return 1;
    return std::max(1, comm->processes_on_node());
}

nlohmann::json peak_json(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json("unknown");
}

void run_paw(const run_request& request, const plugin::host_channel& channel) {
    const parbench_comm_service* comm = channel.comm();

    const auto cfg = parse_config(request, process_environment(), initial_threads());

    environment env;
    env.cpu = ::parbench::cpu::read_cpu_info();
    env.peak = ::parbench::cpu::estimate_peak(env.cpu);
    env.corename = openblas_corename();
    env.version = openblas_version();
    env.processes = comm != nullptr ? comm->size() : 1;
    env.rank = comm != nullptr ? comm->rank() : 0;
    env.ranks_per_node = count_ranks_on_my_node(comm);
    env.clock = measure_clock(monotonic_clock{});
    env.timer_threshold_s = std::max(env.clock.resolution_s, env.clock.overhead_s);
    if (comm != nullptr) comm->allreduce_f64(&env.timer_threshold_s, 1, PARBENCH_OP_MAX);

    std::vector<std::string> warnings;
    const auto fallback = blas::fallback_warning(
        env.corename, env.cpu, env.version,
        std::getenv("OPENBLAS_CORETYPE") != nullptr ? std::getenv("OPENBLAS_CORETYPE") : "");
    if (fallback) warnings.push_back(*fallback);
    const int cores = env.cpu.physical_cores();
    for (const int t : cfg.threads)
        if (t * env.ranks_per_node > cores) {
            warnings.push_back(std::to_string(env.ranks_per_node) + " rank(s) per node x " +
                               std::to_string(t) + " BLAS threads exceed the " +
                               std::to_string(cores) +
                               " cores available: threads compete and rates drop; lower "
                               "--threads or OMP_NUM_THREADS/OPENBLAS_NUM_THREADS");
            break;
        }
    const nlohmann::json omp = env_or_null("OMP_NUM_THREADS");
    const nlohmann::json obt = env_or_null("OPENBLAS_NUM_THREADS");
    if (omp.is_string() && obt.is_string() && omp != obt)
        warnings.push_back("OMP_NUM_THREADS=" + omp.get<std::string>() +
                           " and OPENBLAS_NUM_THREADS=" + obt.get<std::string>() +
                           " disagree; OpenBLAS uses OPENBLAS_NUM_THREADS, PAW names its files "
                           "after OMP_NUM_THREADS: set both alike");
    else if (omp.is_string() && !obt.is_string() &&
             std::to_string(initial_threads()) != omp.get<std::string>())
        warnings.push_back("OMP_NUM_THREADS=" + omp.get<std::string>() + " but OpenBLAS runs " +
                           std::to_string(initial_threads()) + " threads");

    run_start start;
    start.suite = "paw";
    start.layout = "paw";
    start.title = "PAW (TACC Performance Assessment Workbench) compatible BLAS tests";
    for (const kernel k : cfg.kernels) start.benchmarks.emplace_back(blas::name_of(k));
    start.header = report::paw_header{  // report/paw_header.hpp
        .family = "blas",
        .sizes = cfg.sizes,
        .size_range = report::paw_header_size_range{.min_size = cfg.min_size,
                                                    .med_size = cfg.med_size,
                                                    .max_size = cfg.max_size},
        .threads = cfg.threads,
        .loops = paw::header_loops(cfg.policy, env.timer_threshold_s),
        .size_meaning = "bytes = matrix order N",
        .flop_count = "PAW: 2N^2(N+1) (GEMM), 2N(N+1) (GEMV); conventional: 2N^3, 2N^2"};
    nlohmann::json& c = start.context;
    c = report::paw_context{  // report/paw_context.hpp
        .processes = env.processes,
        .timer = paw::context_timer(env.clock),
        .openblas =
            report::paw_context_blas_library{
                .config = openblas_config_text(),
                .corename = env.corename,
                .num_threads = initial_threads(),
                .recorded = {{"version", env.version},
                             {"num_procs", openblas_get_num_procs()},
                             {"parallel", openblas_get_parallel()},
                             {"fallback_core", fallback.has_value()}}},
        .cpu = report::paw_context_cpu{.model_name = env.cpu.model_name,
                                       .physical_cores = cores,
                                       .clock_mhz = env.cpu.clock_mhz > 0.0
                                                        ? std::optional<double>(env.cpu.clock_mhz)
                                                        : std::nullopt,
                                       .vector_flags = ::parbench::cpu::vector_flags_text(env.cpu),
                                       .recorded = {{"vendor", env.cpu.vendor},
                                                    {"family", env.cpu.family},
                                                    {"model", env.cpu.model},
                                                    {"logical_cpus", env.cpu.logical_cpus},
                                                    {"clock_source", env.cpu.clock_source}}},
        .peak = report::paw_context_peak{
            .dp_gflops = env.peak.dp_gflops(cores),
            .sp_gflops = env.peak.sp_gflops(cores),
            .basis = env.peak.basis,
            .recorded = {{"dp_gflops_per_core", peak_json(env.peak.dp_gflops_per_core)},
                         {"percent_of_peak_uses",
                          "conventional flops (2N^3 / 2N^2) over mean time"}}}};
    c["ranks_per_node"] = env.ranks_per_node;
    c["thread_level"] = nullptr;
    c["timer_threshold_s"] = env.timer_threshold_s;
    c["environment"] = {{"OMP_NUM_THREADS", omp},
                        {"OPENBLAS_NUM_THREADS", obt},
                        {"OPENBLAS_CORETYPE", env_or_null("OPENBLAS_CORETYPE")},
                        {"NLOOP_MAX", env_or_null("NLOOP_MAX")},
                        {"NLOOP_MIN", env_or_null("NLOOP_MIN")},
                        {"NREPS", env_or_null("NREPS")},
                        {"MIN_BLAS_SIZE", env_or_null("MIN_BLAS_SIZE")},
                        {"MED_BLAS_SIZE", env_or_null("MED_BLAS_SIZE")},
                        {"MAX_BLAS_SIZE", env_or_null("MAX_BLAS_SIZE")}};
    c["options"] = {{"sizes", cfg.sizes},
                    {"min_size", cfg.min_size},
                    {"med_size", cfg.med_size},
                    {"max_size", cfg.max_size},
                    {"size_step", cfg.size_step},
                    {"threads", cfg.threads},
                    {"nreps", cfg.policy.nreps},
                    {"nloop_max", cfg.policy.nloop_max},
                    {"nloop_min", cfg.policy.nloop_min},
                    {"time", cfg.policy.budget_s},
                    {"min_loop_time", cfg.policy.min_loop_s},
                    {"sources", cfg.sources}};
    c["warnings"] = warnings;
    if (env.rank == 0) {
        channel.run_started(start);
        for (const auto& w : warnings) channel.warning(w);
    }

    for (const kernel k : cfg.kernels)
        for (const int t : cfg.threads) {
            openblas_set_num_threads(t);
            run_kernel(k, t, cfg, env, channel);
        }
    openblas_set_num_threads(initial_threads());
}

}  // namespace

}  // namespace suite_impl
const plugin::hosted_suite suites::paw = {
    {"paw", "TACC PAW BLAS tests: DGEMM, SGEMM, DGEMV, SGEMV on OpenBLAS (no MPI needed)",
     suite_impl::paw_benchmarks, std::size(suite_impl::paw_benchmarks),
     suite_impl::paw_parameters.data(), suite_impl::paw_parameters.size(),
     PARBENCH_SUITE_DAT_FILES},
    &suite_impl::run_paw};

}  // namespace parbench::blas
