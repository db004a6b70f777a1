// parbench's BLAS plugin: PAW's CPU BLAS tests (DGEMM, SGEMM, DGEMV, SGEMV) on OpenBLAS, timed
// with PAW's NLOOP method through the compute pattern. Needs no MPI; when the host offers a
// communication service every rank runs the kernels at the same time and rank 0 reports the
// combined figures.
#include "config.hpp"
#include "kernels.hpp"
#include "openblas_env.hpp"

#include <parbench/core/clock.hpp>
#include <parbench/core/memory.hpp>
#include <parbench/core/statistics.hpp>
#include <parbench/core/cpu_info.hpp>
#include <parbench/pattern/compute.hpp>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/paw_parameters.hpp>
#include <parbench/plugin/request.hpp>
#include <parbench/policy/paw_nloop.hpp>
#include <parbench/report/paw_record.hpp>
#include <parbench/report/result.hpp>

#include <cblas.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace parbench;
using parbench::blas::kernel;

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

constexpr parbench_suite blas_suites[] = {
    {"paw", "TACC PAW BLAS tests: DGEMM, SGEMM, DGEMV, SGEMV on OpenBLAS (no MPI needed)",
     paw_benchmarks, std::size(paw_benchmarks), paw_parameters.data(), paw_parameters.size(), 0u},
};

// OpenBLAS's thread count before parbench changed it: the default of --threads.
int initial_threads() {
    static const int threads = openblas_get_num_threads();
    return threads;
}

std::string openblas_config_text() {
    const char* c = openblas_get_config();
    return c != nullptr ? std::string(c) : std::string{};
}

std::string openblas_version() {
    // openblas_get_config() starts "OpenBLAS 0.3.21 ..."
    std::istringstream words(openblas_config_text());
    std::string first, second;
    words >> first >> second;
    return first == "OpenBLAS" ? second : std::string("unknown");
}

std::string openblas_corename() {
    const char* c = openblas_get_corename();
    return c != nullptr ? std::string(c) : std::string("unknown");
}

const char* backend_info() {
    static const std::string text =
        openblas_config_text() + " (core " + openblas_corename() + ")";
    return text.c_str();
}

parbench_status init(const parbench_init_args*, char* error, std::size_t error_size) {
    return plugin::guarded(error, error_size, [] { (void)initial_threads(); });
}

parbench_status finalize(char* error, std::size_t error_size) {
    return plugin::guarded(error, error_size, [] {});
}

nlohmann::json env_or_null(const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr ? nlohmann::json(v) : nlohmann::json(nullptr);
}

// Everything about where the run happens that a reader of the results needs.
struct environment {
    cpu::cpu_info cpu;
    cpu::peak_estimate peak;
    std::string corename;
    std::string version;
    int processes = 1;
    int rank = 0;
    int ranks_per_node = 1;
    clock_characteristics clock{};
    double timer_threshold_s = 0.0;
};

int count_ranks_on_my_node(const parbench_comm_service* comm) {
    if (comm == nullptr) return 1;
    std::array<char, 64> host{};
    gethostname(host.data(), host.size() - 1);
    const int size = comm->size();
    std::vector<char> all(static_cast<std::size_t>(size) * host.size());
    comm->gather_bytes(host.data(), host.size(), all.data(), 0);
    int mine = 0;
    if (comm->rank() == 0)
        for (int r = 0; r < size; ++r)
            if (std::strncmp(all.data() + static_cast<std::size_t>(r) * host.size(), host.data(),
                             host.size()) == 0)
                ++mine;
    // Rank 0's node count stands for every node (homogeneous placement assumed).
    double count = mine;
    comm->broadcast(&count, sizeof(count), 0);
    return std::max(1, static_cast<int>(count));
}

// Peak of one rank running `threads` threads of precision `dp`, or nullopt.
std::optional<double> rank_peak_gflops(const environment& env, int threads, bool dp) {
    const int cores_per_rank = std::max(1, env.cpu.physical_cores() / env.ranks_per_node);
    const int used = std::min(threads, cores_per_rank);
    return dp ? env.peak.dp_gflops(used) : env.peak.sp_gflops(used);
}


template <class Workload>
void sweep(kernel k, int threads, const blas::blas_config& cfg, const environment& env,
           const plugin::host_channel& channel) {
    const parbench_comm_service* comm = channel.comm();
    pattern::compute_collective collective;
    if (comm != nullptr) {
        collective.barrier = [comm] { comm->barrier(); };
        collective.agree_max = [comm](double v) {
            comm->allreduce_f64(&v, 1, PARBENCH_OP_MAX);
            return v;
        };
    }
    const std::string name(blas::name_of(k));
    const bool dp = blas::is_double(k);

    // Sizes whose operands do not fit 80 % of memory (all ranks of a node together) are dropped
    // before any allocation.
    std::vector<std::uint64_t> sizes;
    std::vector<std::uint64_t> too_big;
    const double memory = physical_memory_bytes();
    for (auto n : cfg.sizes) {
        if (memory > 0.0 && blas::bytes_of(k, n) * env.ranks_per_node > 0.8 * memory)
            too_big.push_back(n);
        else
            sizes.push_back(n);
    }
    if (!too_big.empty() && env.rank == 0)
        channel.warning(name + ": sizes " + fmt::format("{}", fmt::join(too_big, ", ")) +
                        " skipped: their operands exceed 80 % of physical memory");

    // Setting a size up (allocating and filling its operands) is untimed but not free: 17 GB for
    // dgemv at N = 46340, set up twice (NLOOP calibration, then the size). So that --time bounds
    // the setup too, sizes whose setup alone is predicted to exceed the per-size budget are
    // dropped before any allocation, from the fill rate of a 64 MiB buffer agreed over ranks.
    // A setup is always allowed one second, so that tiny budgets still measure small sizes.
    if (cfg.policy.budget_s > 0.0 && !sizes.empty()) {
        const double setup_limit_s = std::max(cfg.policy.budget_s, 1.0);
        constexpr std::size_t probe_doubles = std::size_t{8} << 20;
        const auto start = std::chrono::steady_clock::now();
        {
            blas::typed_buffer<double> probe(probe_doubles);
            blas::fill_pattern(probe.data(), probe.size(), 5);
            volatile double sink = probe.data()[probe_doubles - 1];
            (void)sink;
        }
        const double probe_s = collective.max(std::max(
            1e-6, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
        const double bytes_per_s = static_cast<double>(probe_doubles * sizeof(double)) / probe_s;
        const auto slow = std::find_if(sizes.begin(), sizes.end(), [&](std::uint64_t n) {
            return 2.0 * blas::bytes_of(k, n) / bytes_per_s > setup_limit_s;
        });
        if (slow != sizes.end()) {
            const std::vector<std::uint64_t> dropped(slow, sizes.end());
            if (env.rank == 0) {
                std::ostringstream msg;
                msg.precision(3);
                msg << name << ": sizes " << fmt::format("{}", fmt::join(dropped, ", "))
                    << " skipped: setting up N = " << dropped.front() << " ("
                    << blas::bytes_of(k, dropped.front()) / 1e9
                    << " GB of operands) is predicted to take "
                    << 2.0 * blas::bytes_of(k, dropped.front()) / bytes_per_s << " s, over the "
                    << setup_limit_s << " s per-size budget; raise --time to run them";
                channel.warning(msg.str());
            }
            sizes.erase(slow, sizes.end());
        }
    }

    pattern::compute_sweep_config sc;
    sc.policy = cfg.policy;
    sc.timer_threshold_s = env.timer_threshold_s;
    sc.warmup_size = std::min(cfg.med_size, sizes.empty() ? cfg.med_size : sizes.back());
    sc.cost_exponent = blas::is_gemm(k) ? 3.0 : 2.0;

    const auto make = [](std::uint64_t n) { return Workload(n); };
    const auto before = [&](std::uint64_t n) { channel.progress(name, n, env.processes); };
    const auto on_skip = [&](const pattern::compute_skip& skip) {
        if (env.rank != 0) return;
        std::ostringstream msg;
        msg << name << " (" << threads << " thread" << (threads == 1 ? "" : "s") << "): sizes "
            << fmt::format("{}", fmt::join(skip.sizes, ", ")) << " cut short by the "
            << skip.budget_s << " s per-size budget (one call at N = " << skip.sizes.front()
            << " predicted to take " << skip.predicted_call_s
            << " s); raise --time or lower --max_size / MAX_BLAS_SIZE to run them";
        channel.warning(msg.str());
    };
    const auto on_result = [&](const pattern::compute_measurement& m) {
        // Every rank's repetitions to rank 0.
        std::vector<double> all = m.seconds_per_call;
        std::vector<double> rank_means;
        if (comm != nullptr && env.processes > 1) {
            const std::size_t bytes = m.seconds_per_call.size() * sizeof(double);
            all.assign(m.seconds_per_call.size() * static_cast<std::size_t>(env.processes), 0.0);
            comm->gather_bytes(m.seconds_per_call.data(), bytes, all.data(), 0);
            for (int r = 0; r < env.processes; ++r) {
                const auto first = all.begin() + static_cast<std::ptrdiff_t>(
                                                      static_cast<std::size_t>(r) *
                                                      m.seconds_per_call.size());
                const auto last =
                    first + static_cast<std::ptrdiff_t>(m.seconds_per_call.size());
                rank_means.push_back(std::accumulate(first, last, 0.0) /
                                     static_cast<double>(m.seconds_per_call.size()));
            }
        }
        if (env.rank != 0) return;
        const auto work = blas::work_of(k, m.size);
        // PAW's statistics over every rank's repetitions.
        result_record r = report::paw_measurement_record("paw", name, benchmark_class::compute,
                                                         name, m, all);
        r.block.processes = env.processes;
        r.block.threads = threads;
        auto& x = r.metrics;
        report::add_flop_rates(r, work, rank_peak_gflops(env, threads, dp));
        x["threads_openblas"] = openblas_get_num_threads();
        if (!rank_means.empty()) {
            const auto [lo, hi] = std::minmax_element(rank_means.begin(), rank_means.end());
            x["rank_mean_min_us"] = *lo * 1e6;
            x["rank_mean_max_us"] = *hi * 1e6;
            x["rank_spread_percent"] = 100.0 * (*hi - *lo) / *lo;
            const double p = static_cast<double>(env.processes);
            x["aggregate_gflops_paw"] = p * work.flops_paw / *hi / 1e9;
            x["aggregate_gflops_conventional"] = p * work.flops_conventional / *hi / 1e9;
            if (const auto peak = rank_peak_gflops(env, threads, dp)) {
                x["aggregate_peak_gflops"] = *peak * p;
                x["aggregate_percent_of_peak"] =
                    100.0 * x["aggregate_gflops_conventional"] / (*peak * p);
            }
        }
        channel.result(r);
    };
    if (sizes.empty()) return;
    monotonic_clock clock;
    pattern::run_compute_sweep(clock, sc, sizes, make, before, on_result, on_skip, collective);
}

void run_kernel(kernel k, int threads, const blas::blas_config& cfg, const environment& env,
                const plugin::host_channel& channel) {
    switch (k) {
        case kernel::dgemm: sweep<blas::gemm_workload<double>>(k, threads, cfg, env, channel); break;
        case kernel::sgemm: sweep<blas::gemm_workload<float>>(k, threads, cfg, env, channel); break;
        case kernel::dgemv: sweep<blas::gemv_workload<double>>(k, threads, cfg, env, channel); break;
        case kernel::sgemv: sweep<blas::gemv_workload<float>>(k, threads, cfg, env, channel); break;
    }
}

nlohmann::json peak_json(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json("unknown");
}

void run_paw(const char* request_json, const parbench_host* host) {
    const run_request request = parse_run_request(request_json, "blas plugin");
    if (request.suite != "paw")
        throw input_error("blas plugin: unknown suite '" + request.suite + "' (it offers: paw)");
    const plugin::host_channel channel(host);
    const parbench_comm_service* comm = channel.comm();

    const auto cfg = blas::parse_config(request, blas::process_environment(), initial_threads());

    environment env;
    env.cpu = cpu::read_cpu_info();
    env.peak = cpu::estimate_peak(env.cpu);
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
    start.header = {
        {"family", "blas"},
        {"sizes", cfg.sizes},
        {"min_size", cfg.min_size},
        {"med_size", cfg.med_size},
        {"max_size", cfg.max_size},
        {"threads", cfg.threads},
        {"nreps", cfg.policy.nreps},
        {"nloop_max", cfg.policy.nloop_max},
        {"nloop_min", cfg.policy.nloop_min},
        {"threshold_factor", cfg.policy.threshold_factor},
        {"timer_threshold_s", env.timer_threshold_s},
        {"budget_s", cfg.policy.budget_s},
        {"flop_count", "PAW: 2N^2(N+1) (GEMM), 2N(N+1) (GEMV); conventional: 2N^3, 2N^2"},
        {"size_meaning", "bytes = matrix order N"},
    };
    nlohmann::json& c = start.context;
    c["processes"] = env.processes;
    c["ranks_per_node"] = env.ranks_per_node;
    c["thread_level"] = nullptr;
    c["timer_resolution_s"] = env.clock.resolution_s;
    c["timer_overhead_s"] = env.clock.overhead_s;
    c["timer_threshold_s"] = env.timer_threshold_s;
    nlohmann::json& blas_info = c["openblas"];
    blas_info["version"] = env.version;
    blas_info["config"] = openblas_config_text();
    blas_info["corename"] = env.corename;
    blas_info["num_threads"] = initial_threads();
    blas_info["num_procs"] = openblas_get_num_procs();
    blas_info["parallel"] = openblas_get_parallel();
    blas_info["fallback_core"] = fallback.has_value();
    c["environment"] = {{"OMP_NUM_THREADS", omp},
                        {"OPENBLAS_NUM_THREADS", obt},
                        {"OPENBLAS_CORETYPE", env_or_null("OPENBLAS_CORETYPE")},
                        {"NLOOP_MAX", env_or_null("NLOOP_MAX")},
                        {"NLOOP_MIN", env_or_null("NLOOP_MIN")},
                        {"NREPS", env_or_null("NREPS")},
                        {"MIN_BLAS_SIZE", env_or_null("MIN_BLAS_SIZE")},
                        {"MED_BLAS_SIZE", env_or_null("MED_BLAS_SIZE")},
                        {"MAX_BLAS_SIZE", env_or_null("MAX_BLAS_SIZE")}};
    c["cpu"] = {{"vendor", env.cpu.vendor},
                {"model_name", env.cpu.model_name},
                {"family", env.cpu.family},
                {"model", env.cpu.model},
                {"vector_flags", cpu::vector_flags_text(env.cpu)},
                {"logical_cpus", env.cpu.logical_cpus},
                {"physical_cores", cores},
                {"clock_mhz", env.cpu.clock_mhz > 0.0 ? nlohmann::json(env.cpu.clock_mhz)
                                                      : nlohmann::json("unknown")},
                {"clock_source", env.cpu.clock_source}};
    c["peak"] = {{"dp_gflops_per_core", peak_json(env.peak.dp_gflops_per_core)},
                 {"dp_gflops", peak_json(env.peak.dp_gflops(cores))},
                 {"sp_gflops", peak_json(env.peak.sp_gflops(cores))},
                 {"basis", env.peak.basis},
                 {"percent_of_peak_uses", "conventional flops (2N^3 / 2N^2) over mean time"}};
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

parbench_status run(const char* request_json, const parbench_host* host, char* error,
                     std::size_t error_size) {
    return plugin::guarded(error, error_size, [&] { run_paw(request_json, host); });
}

const parbench_plugin blas_plugin = {
    PARBENCH_ABI_MAJOR,
    PARBENCH_ABI_MINOR,
    sizeof(parbench_plugin),
    "blas",
    "0.1.0",
    backend_info,
    init,
    finalize,
    blas_suites,
    std::size(blas_suites),
    nullptr,
    run,
    nullptr,  // parameter_types (ABI 1.1): all text
    0,
    {},
};

}  // namespace

PARBENCH_PLUGIN_ENTRY(blas_plugin)
