// PAW's compute sweep for one BLAS kernel (sweep.hpp).
#include "sweep.hpp"

#include <parbench/core/memory.hpp>
#include <parbench/pattern/compute.hpp>
#include <parbench/report/paw_record.hpp>
#include <parbench/report/result.hpp>

#include <cblas.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace parbench::blas {
namespace sweep_impl {
namespace {

// Peak of one rank running `threads` threads of precision `dp`, or nullopt.
std::optional<double> rank_peak_gflops(const environment& env, int threads, bool dp) {
    const int cores_per_rank = std::max(1, env.cpu.physical_cores() / env.ranks_per_node);
    const int used = std::min(threads, cores_per_rank);
    return dp ? env.peak.dp_gflops(used) : env.peak.sp_gflops(used);
}

template <class Workload>
void sweep(kernel k, int threads, const blas_config& cfg, const environment& env,
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
            // add_flop_rates gave the block
            r.paw_rates.value().rank_spread_percent = 100.0 * (*hi - *lo) / *lo;
            const double p = static_cast<double>(env.processes);
            r.paw_rates->aggregate_gflops_paw = p * work.flops_paw / *hi / 1e9;
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

}  // namespace

}  // namespace sweep_impl
void run_kernel(kernel k, int threads, const blas_config& cfg, const environment& env,
                const plugin::host_channel& channel) {
    switch (k) {
        case kernel::dgemm:
            sweep_impl::sweep<blas::gemm_workload<double>>(k, threads, cfg, env, channel);
            break;
        case kernel::sgemm:
            sweep_impl::sweep<blas::gemm_workload<float>>(k, threads, cfg, env, channel);
            break;
        case kernel::dgemv:
            sweep_impl::sweep<blas::gemv_workload<double>>(k, threads, cfg, env, channel);
            break;
        case kernel::sgemv:
            sweep_impl::sweep<blas::gemv_workload<float>>(k, threads, cfg, env, channel);
            break;
    }
}

}  // namespace parbench::blas
