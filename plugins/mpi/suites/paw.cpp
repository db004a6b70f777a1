// paw (MPI part): TACC PAW's one-sided point-to-point tests p2p_get and p2p_put (catalogue C.5,
// C.7). Task i of the first half pairs with task i + n/2; each iteration is one PSCW epoch: the
// first half MPI_Win_start / MPI_Get or MPI_Put / MPI_Win_complete, the second half
// MPI_Win_post / MPI_Win_wait. PAW's method: an untimed warm-up at MED_P2P_SIZE, then per size a
// warm-up and NREPS timed loops of NLOOP epochs (policy/paw_repetitions.hpp); every task times,
// each repetition's time is the minimum across tasks, and min/max/mean/stddev are over the
// repetitions (mpi/reduction.hpp). Files get_time/get_bw and put_time/put_bw -np_<tasks>.dat.
//
// The BLAS, GPU and offload plugins offer the other paw tests; the driver picks this plugin when
// p2p_get or p2p_put is named.
#include "suites/suite.hpp"

#include <parbench/core/clock.hpp>
#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/phases.hpp>
#include <parbench/mpi/reduction.hpp>
#include <parbench/mpi/rma_completion.hpp>
#include <parbench/mpi/rma_window.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/one_sided.hpp>
#include <parbench/plugin/paw_parameters.hpp>
#include <parbench/plugin/paw_transfer_settings.hpp>
#include <parbench/policy/paw_repetitions.hpp>
#include <parbench/suites/rma/kernels.hpp>

#include <mpi.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace parbench::paw_mpi {
namespace {

using rma_kernels::rma_op;

inline constexpr paw::transfer_family p2p_family{
    "MIN_P2P_SIZE", "MED_P2P_SIZE", "MAX_P2P_SIZE", "NLOOP_MAX", 1, 20000, 1000000, 1000};

struct test {
    parbench_benchmark info;
    const char* stem;  // PAW's file prefix: get_time-np_<n>.dat
    rma_op op;
};

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;
constexpr std::array<test, 2> tests = {{
    {{"p2p_get", "PSCW epochs: the first half MPI_Get from partners i + n/2", "parallel_transfer",
      dflt},
     "get",
     rma_op::get},
    {{"p2p_put", "PSCW epochs: the first half MPI_Put to partners i + n/2", "parallel_transfer",
      dflt},
     "put",
     rma_op::put},
}};

constexpr std::array<parbench_benchmark, 2> benchmark_rows = {
    tests[0].info,
    tests[1].info,
};

constexpr auto parameter_rows = paw::join(
    std::array<parbench_parameter, 4>{{
        {"min_size", "BYTES", "smallest message (overrides MIN_P2P_SIZE)", "1", PARBENCH_ARITY_ONE},
        {"med_size", "BYTES", "warm-up message size (overrides MED_P2P_SIZE)", "20000",
         PARBENCH_ARITY_ONE},
        {"max_size", "BYTES", "largest message (overrides MAX_P2P_SIZE)", "1000000",
         PARBENCH_ARITY_ONE},
        {"sizes", "B1,B2,...", "explicit ascending list of message sizes in bytes", nullptr,
         PARBENCH_ARITY_ONE},
    }},
    paw::loop_parameters("upper bound of epochs per timed loop (overrides NLOOP_MAX)", "1000"));

constexpr pattern::one_sided descriptor{.klass = benchmark_class::parallel_transfer,
                                        .pairs = pattern::halves,
                                        .throughput = pattern::throughput_rule::none};

// The size's record in PAW's terms: the file stem as its title, the bytes one pair moves per
// epoch and PAW's bandwidth (10^9 bytes/s) over the mean time and parbench's over the median.
void add_paw_figures(result_record& r, const test& t, std::uint64_t bytes,
                     const policy::iterations::paw_repetitions& policy) {
    r.block.title = t.stem;
    const double x = static_cast<double>(bytes);
    const auto gb_per_s = [&](double t_us) { return t_us > 0.0 ? x / t_us / 1e3 : 0.0; };
    r.metrics["bytes_per_iteration"] = x;
    r.metrics["gb_per_s_mean"] = gb_per_s(r.t_avg_us);
    r.metrics["gb_per_s_min"] = gb_per_s(r.t_max_us);
    r.metrics["gb_per_s_max"] = gb_per_s(r.t_min_us);
    r.metrics["gb_per_s_median"] = gb_per_s(r.distribution_us.median);
    r.metrics["nreps_planned"] = static_cast<double>(policy.method.nreps);
    if (policy.last_plan.reps_cut)
        r.warnings.push_back("NREPS lowered from " + std::to_string(policy.method.nreps) + " to " +
                             std::to_string(policy.last_plan.nreps) +
                             " by the per-size time budget");
}

template <rma_op Op>
void run_test(const test& t, const paw::transfer_settings& cfg, double timer_threshold_s,
              bool check, const plugin::host_channel& host) {
    int world = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    const mpi::session session(MPI_COMM_WORLD, world);
    const auto kernel_for = [](const mpi::kernel_context&) {
        return rma_kernels::transfers<Op>{1};
    };
    const auto window_for = [&](std::uint64_t bytes, const mpi::kernel_context& c) {
        return mpi::rma_window(
            mpi::window_plan{.creation = mpi::window_creation::create, .bytes = bytes}, c);
    };
    {  // PAW's warm-up at MED_P2P_SIZE, untimed
        const mpi::kernel_context c = session.context(cfg.med_bytes, descriptor.pairs);
        mpi::warm_up(session, window_for(cfg.med_bytes, c), kernel_for(c), mpi::rma::pscw(c),
                     10, cfg.med_bytes, descriptor.pairs);
    }
    mpi::timing_plan<policy::iterations::paw_repetitions, policy::sync::barrier,
                     policy::aggregation::non_aggregate>
        plan{.iterations = {.method = cfg.policy, .timer_threshold_s = timer_threshold_s},
             .batching = {.max_batches = std::max<std::size_t>(64, cfg.policy.nreps)},
             .check = check};
    const mpi::record_labels labels{"paw", t.info.name};
    for (const std::uint64_t x : cfg.sizes) {
        host.progress(t.info.name, x, world);
        const mpi::kernel_context c = session.context(static_cast<std::size_t>(x), descriptor.pairs);
        mpi::prepared<mpi::rma_window> ready = mpi::prepare(session, window_for(x, c), 0.0);
        if (!ready.ready()) {
            if (session.world().rank() == 0)
                host.warning(std::string(t.info.name) + ": no memory for " + std::to_string(x) +
                             "-byte windows; size skipped");
            continue;
        }
        auto kernel = kernel_for(c);
        mpi::rma::pscw completion(c);
        const mpi::rank_timing mine =
            mpi::time_iterations(session, descriptor, ready, c, kernel, completion, plan, x,
                                 rma_kernels::data_check<Op>{});
        const mpi::gathered figures = mpi::gather(session, mine, plan.batching.max_batches);
        for (auto& r : mpi::reduce_min_per_repetition(descriptor, labels, session.layout(), x,
                                                      check, figures)) {
            add_paw_figures(r, t, x, plan.iterations);
            host.result(r);
        }
    }
}

run_start make_run_start(const paw::transfer_settings& cfg, double timer_threshold_s, int world,
                         const std::vector<std::string>& names) {
    const auto clock = measure_clock(mpi::wtime_clock{});
    run_start start;
    start.suite = "paw";
    start.layout = "paw";
    start.title = "PAW (TACC Performance Assessment Workbench) compatible MPI one-sided tests";
    start.benchmarks = names;
    start.header = paw::transfer_header("mpi", cfg, timer_threshold_s, "bytes per message");
    start.header["pairing"] = "task i <-> task i + n/2";
    start.header["method"] = "every task times; MIN across tasks per repetition";
    start.context = {{"mpi_library", mpi::library_version()},
                     {"processes", world},
                     {"timer", "MPI_Wtime"},
                     {"timer_resolution_s", clock.resolution_s},
                     {"timer_overhead_s", clock.overhead_s},
                     {"timer_threshold_s", timer_threshold_s},
                     {"options", {{"sources", cfg.sources}, {"sizes", cfg.sizes}}}};
    return start;
}

void run(const run_request& request, const plugin::host_channel& host) {
    const paw::transfer_settings cfg =
        paw::parse_transfer_settings(request, paw::process_environment(), p2p_family);
    std::vector<const test*> chosen;
    for (const auto& t : tests)
        if (request.benchmarks.empty() ||
            std::any_of(request.benchmarks.begin(), request.benchmarks.end(),
                        [&](const std::string& name) { return same_name(t.info.name, name); }))
            chosen.push_back(&t);
    if (chosen.empty()) throw input_error("paw: no p2p_get or p2p_put named");
    int world = 1;
    int rank = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (world < 2 || world % 2 != 0)
        throw input_error(std::string(chosen.front()->info.name) +
                          " needs an even number of tasks (PAW pairs task i with task i + n/2); "
                          "the run has " + std::to_string(world));
    // PAW's step 1, on rank 0 for everyone: NLOOP must be planned alike on every task.
    double timer_threshold_s = policy::iterations::timer_threshold_s(mpi::wtime_clock{});
    MPI_Bcast(&timer_threshold_s, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        std::vector<std::string> names;
        for (const test* t : chosen) names.emplace_back(t->info.name);
        host.run_started(make_run_start(cfg, timer_threshold_s, world, names));
    }
    for (const test* t : chosen) {
        if (t->op == rma_op::get)
            run_test<rma_op::get>(*t, cfg, timer_threshold_s, request.check, host);
        else
            run_test<rma_op::put>(*t, cfg, timer_threshold_s, request.check, host);
    }
}

const parbench_suite& info() {
    static const parbench_suite s = {
        "paw", "TACC PAW MPI one-sided tests p2p_get and p2p_put (run when named)",
        benchmark_rows.data(), benchmark_rows.size(), parameter_rows.data(), parameter_rows.size(),
        PARBENCH_SUITE_NEEDS_MPI};
    return s;
}

}  // namespace
}  // namespace parbench::paw_mpi

namespace parbench::mpi_plugin {
const hosted_suite suites::paw = {paw_mpi::info(), &paw_mpi::run};
}  // namespace parbench::mpi_plugin
