// The MPI plugin: owns MPI_Init_thread/MPI_Finalize, offers the communication service
// (comm_service.hpp), and runs the imb-mpi1 suite (IMB-MPI1 benchmarks through the header-only
// runner in include/parbench/mpi).
#include "comm_service.hpp"
#include "imb_mpi1_kernels.hpp"
#include "cuda_buffers.hpp"
#include "imb_mpi1_options.hpp"

#include <parbench/core/clock.hpp>
#include <parbench/core/memory.hpp>
#include <parbench/mpi/active_set.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/node.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/plugin/abi.h>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/request.hpp>

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#ifndef PARBENCH_PLUGIN_VERSION
#define PARBENCH_PLUGIN_VERSION "0.0.0"
#endif

namespace parbench::imb_mpi1 {
namespace {

constexpr const char* suite_name = "imb-mpi1";

// --- one benchmark of the suite ------------------------------------------------------------

struct run_state {
    const options* opts = nullptr;
    plugin::host_channel* host = nullptr;
    std::vector<int> order;  // world ranks in -map order
    int world_size = 1;
    int world_rank = 0;
    double mem_limit_bytes = 0.0;
    const memory_space* buffers = nullptr;  // message buffers' memory (nullptr: host)
};

struct selection {
    bool multiple = false;  // Multi- name or -multi
};

using run_fn = void (*)(const run_state&, const selection&, std::string_view name);

struct entry {
    parbench_benchmark info;
    run_fn run;
    bool windowed = false;
};

[[nodiscard]] std::string mib_text(double bytes) {
    char text[64];
    std::snprintf(text, sizeof text, "%.1f MiB", bytes / 1048576.0);
    return text;
}

template <class Def, bool HasBytes = true, std::uint64_t Unit = 1, int WindowFactor = 0>
void run_benchmark(const run_state& st, const selection& sel, std::string_view name) {
    const options& o = *st.opts;
    const auto& descriptor = Def::descriptor;
    const bool pair = pattern::fixed_group_size(descriptor);
    std::vector<int> counts;
    if (pair) {
        if (st.world_size < 2) {
            if (st.world_rank == 0)
                st.host->warning(std::string(name) +
                                 " needs 2 processes and the run has 1; skipped");
            return;
        }
        counts = {2};
    } else {
        counts = mpi::process_counts(st.world_size, o.npmin_given ? o.npmin : std::min(2, st.world_size));
        if constexpr (WindowFactor > 0) {
            std::erase_if(counts, [](int q) { return q % 2 != 0; });
            if (counts.empty()) {
                if (st.world_rank == 0)
                    st.host->warning(std::string(name) +
                                     " needs an even number of processes; skipped");
                return;
            }
        }
    }
    const std::vector<std::uint64_t> sizes =
        HasBytes ? lengths_for(o, Unit) : std::vector<std::uint64_t>{0};
    mpi::measure_options mo;
    mo.iterations = o.iterations;
    mo.cache = o.cache;
    mo.mem_limit_bytes = st.mem_limit_bytes;
    mo.check = o.check;
    mpi::record_labels labels{suite_name, std::string(name), sel.multiple, o.multi.value_or(0) == 1,
                              HasBytes};
    for (const int q : counts) {
        const mpi::session session(MPI_COMM_WORLD, q, sel.multiple, st.order, o.map.columns,
                                   st.buffers);
        std::size_t worst_need = 0;
        std::uint64_t first_skipped = 0;
        bool allocation_failed = false;
        bool warmed_up = false;
        for (const std::uint64_t x : sizes) {
            st.host->progress(name, x, q);
            if (!warmed_up) {
                // After the first progress call, so that the time limit covers it.
                const std::uint64_t small = HasBytes ? 4 : 0;
                const mpi::kernel_context warm_context =
                    session.context(static_cast<std::size_t>(small));
                mpi::warm_up(session, small,
                             Def::layout(static_cast<std::size_t>(small),
                                         session.layout().processes),
                             Def::make_kernel(warm_context),
                             std::min(mpi::n_warmup, o.iterations.msgs_per_sample));
                warmed_up = true;
            }
            const mpi::kernel_context context = session.context(static_cast<std::size_t>(x));
            const mpi::buffer_layout layout =
                Def::layout(static_cast<std::size_t>(x), session.layout().processes);
            const typename Def::verify_check check{};
            mpi::measurement m = mpi::measure(session, descriptor, labels, x, layout,
                                              Def::make_kernel(context), mo, check);
            if (m.skipped_need_bytes > 0) {
                if (worst_need == 0) first_skipped = x;
                worst_need = std::max(worst_need, m.skipped_need_bytes);
            }
            allocation_failed = allocation_failed || m.allocation_failed;
            for (auto& r : m.records) {
                if constexpr (WindowFactor > 0) {
                    // A window of messages per pair and iteration; all pairs together.
                    const double pairs = r.block.processes / 2;
                    const double per_iteration = WindowFactor * window_size * pairs;
                    r.klass = benchmark_class::parallel_transfer;
                    r.throughput_mib_s = r.t_max_us > 0.0 ? per_iteration * static_cast<double>(x) /
                                                                1.048576 / r.t_max_us
                                                          : 0.0;
                    r.metrics["messages_per_s"] =
                        r.t_max_us > 0.0 ? per_iteration * 1e6 / r.t_max_us : 0.0;
                }
                st.host->result(r);
            }
            // No early exit on a failed allocation: idle processes cannot know of it, and every
            // process must make the same sequence of measure() calls.
        }
        if (st.world_rank == 0 && worst_need > 0) {
            const double total = static_cast<double>(worst_need) * st.world_size;
            st.host->warning(std::string(name) + " at " + std::to_string(q) +
                             " processes: message buffers from " + std::to_string(first_skipped) +
                             " bytes need up to " + mib_text(static_cast<double>(worst_need)) +
                             " per process, above the -mem limit of " +
                             mib_text(st.mem_limit_bytes) + "; those sizes were skipped (the whole "
                             "run needs " + mib_text(total) + ", -mem " +
                             std::to_string(static_cast<double>(worst_need) / 1073741824.0 * 1.01) +
                             " would allow them)");
        }
        if (st.world_rank == 0 && allocation_failed)
            st.host->warning(std::string(name) + " at " + std::to_string(q) +
                             " processes: a process could not allocate its message buffers; "
                             "those sizes were skipped");
    }
}

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;

const entry catalogue[] = {
    {{"PingPong", "Half round trip of one message between two processes", "single_transfer", dflt},
     &run_benchmark<ping_pong_def<false>>},
    {{"PingPongSpecificSource", "PingPong receiving from the explicit source rank",
      "single_transfer", 0},
     &run_benchmark<ping_pong_def<true>>},
    {{"PingPing", "Two processes send to each other at once (obstructed messages)",
      "single_transfer", dflt},
     &run_benchmark<ping_ping_def<false>>},
    {{"PingPingSpecificSource", "PingPing receiving from the explicit source rank",
      "single_transfer", 0},
     &run_benchmark<ping_ping_def<true>>},
    {{"Sendrecv", "MPI_Sendrecv along a periodic chain (nmsg = 2)", "parallel_transfer", dflt},
     &run_benchmark<sendrecv_def>},
    {{"Exchange", "Isend/Recv with both chain neighbours (nmsg = 4)", "parallel_transfer", dflt},
     &run_benchmark<exchange_def>},
    {{"Bcast", "MPI_Bcast, root i % np", "collective", dflt}, &run_benchmark<bcast_def>},
    {{"Allgather", "MPI_Allgather", "collective", dflt}, &run_benchmark<allgather_def<false>>},
    {{"Allgatherv", "MPI_Allgatherv with equal counts", "collective", dflt},
     &run_benchmark<allgather_def<true>>},
    {{"Scatter", "MPI_Scatter, root i % np", "collective", dflt},
     &run_benchmark<scatter_def<false>>},
    {{"Scatterv", "MPI_Scatterv, root i % np", "collective", dflt},
     &run_benchmark<scatter_def<true>>},
    {{"Gather", "MPI_Gather, root i % np", "collective", dflt}, &run_benchmark<gather_def<false>>},
    {{"Gatherv", "MPI_Gatherv, root i % np", "collective", dflt},
     &run_benchmark<gather_def<true>>},
    {{"Alltoall", "MPI_Alltoall", "collective", dflt}, &run_benchmark<alltoall_def<false>>},
    {{"Alltoallv", "MPI_Alltoallv with equal counts", "collective", dflt},
     &run_benchmark<alltoall_def<true>>},
    {{"Reduce", "MPI_Reduce of MPI_FLOAT with MPI_SUM, root i % np", "collective", dflt},
     &run_benchmark<reduce_def, true, 4>},
    {{"Reduce_scatter", "MPI_Reduce_scatter of MPI_FLOAT with MPI_SUM", "collective", dflt},
     &run_benchmark<reduce_scatter_def, true, 4>},
    {{"Allreduce", "MPI_Allreduce of MPI_FLOAT with MPI_SUM", "collective", dflt},
     &run_benchmark<allreduce_def, true, 4>},
    {{"Barrier", "MPI_Barrier", "collective", dflt}, &run_benchmark<barrier_def, false>},
    {{"Uniband", "Windowed unidirectional bandwidth: 64 Isend then an ack, pairs (r, r+Q/2)",
      "parallel_transfer", 0},
     &run_benchmark<windowed_def<false>, true, 1, 1>, true},
    {{"Biband", "Windowed bidirectional bandwidth: 64 Isend and 64 Irecv each way, then an ack",
      "parallel_transfer", 0},
     &run_benchmark<windowed_def<true>, true, 1, 2>, true},
    {{"Test_Corrupt", "Fault injection: a PingPong whose receiver flips one arrived byte",
      "single_transfer", PARBENCH_BENCH_TEST_ONLY},
     &run_benchmark<ping_pong_def<true, true>>},
    {{"Test_Deadlock", "Fault injection: rank 0 waits for a message nobody sends",
      "single_transfer", PARBENCH_BENCH_TEST_ONLY},
     &run_benchmark<deadlock_def>},
};
constexpr std::size_t catalogue_size = sizeof(catalogue) / sizeof(catalogue[0]);

const parbench_benchmark* benchmark_table() {
    static const auto table = [] {
        std::vector<parbench_benchmark> t;
        for (const auto& e : catalogue) t.push_back(e.info);
        return t;
    }();
    return table.data();
}

const parbench_parameter parameters[] = {
    {"npmin", "P_MIN", "smallest number of active processes (then doubled up to P)", "2",
     PARBENCH_ARITY_ONE},
    {"multi", "0|1", "multiple mode: 0 reports the worst group, 1 every group", nullptr,
     PARBENCH_ARITY_ONE},
    {"map", "PxQ", "renumber processes along the rows of a P x Q matrix", nullptr,
     PARBENCH_ARITY_ONE},
    {"off_cache", "CACHE_MB[,LINE_BYTES]|-1", "rotate message buffers to avoid cache reuse",
     nullptr, PARBENCH_ARITY_ONE},
    {"iter", "MSGS[,VOL_MB[,MSGS_NONAGGR]][,POLICY]", "repetition limits (IMB -iter)",
     "1000,40,100", PARBENCH_ARITY_ONE},
    {"iter_policy", "dynamic|multiple_np|auto|off", "how repetitions are cut to fit -time",
     "dynamic", PARBENCH_ARITY_ONE},
    {"time", "SECONDS", "maximum run time per message size", "10", PARBENCH_ARITY_ONE},
    {"mem", "GB", "maximum message buffer memory per process",
     "80% of physical memory / processes per node", PARBENCH_ARITY_ONE},
    {"msglog", "[MIN:]MAX", "message sizes 0, 2^MIN ... 2^MAX", "0:22", PARBENCH_ARITY_ONE},
    {"msglen", "FILE", "file with one message length per line", nullptr, PARBENCH_ARITY_ONE},
    {"input", "FILE", "file with one benchmark name per line ('#' comments)", nullptr,
     PARBENCH_ARITY_ONE},
    {"include", "NAME...", "benchmarks to add to the run", nullptr, PARBENCH_ARITY_LIST},
    {"exclude", "NAME...", "benchmarks to drop from the run", nullptr, PARBENCH_ARITY_LIST},
    {"thread_level", "single|funneled|serialized|multiple", "MPI_Init_thread level", "single",
     PARBENCH_ARITY_ONE},
    {"accelerator", "cuda",
     "message buffers in CUDA device memory (OSU's -d cuda); needs a CUDA-aware MPI", nullptr,
     PARBENCH_ARITY_ONE},
};

const parbench_suite suites[] = {{
    suite_name,
    "Intel MPI Benchmarks IMB-MPI1: point-to-point and collective MPI-1 benchmarks",
    benchmark_table(),
    catalogue_size,
    parameters,
    sizeof(parameters) / sizeof(parameters[0]),
    PARBENCH_SUITE_NEEDS_MPI,
}};

// --- selection ---------------------------------------------------------------------------------

[[nodiscard]] bool test_kernels_enabled() {
    const char* v = std::getenv("PARBENCH_TEST_KERNELS");
    return v != nullptr && std::string_view(v) == "1";
}

struct resolved {
    std::size_t index = 0;
    bool multi_name = false;
};

[[nodiscard]] resolved resolve(const std::string& typed) {
    std::string name = lowercase(typed);
    resolved r;
    if (name.rfind("multi-", 0) == 0) {
        name = name.substr(6);
        r.multi_name = true;
    }
    for (std::size_t k = 0; k < catalogue_size; ++k) {
        const auto& info = catalogue[k].info;
        if ((info.flags & PARBENCH_BENCH_TEST_ONLY) != 0 && !test_kernels_enabled()) continue;
        if (lowercase(info.name) == name) {
            r.index = k;
            return r;
        }
    }
    throw input_error("unknown benchmark '" + typed + "' in suite imb-mpi1 (see parbench list)");
}

struct selected {
    bool run = false;
    bool multi_name = false;
};

[[nodiscard]] std::vector<selected> select(const run_request& request, const options& o) {
    std::vector<selected> chosen(catalogue_size);
    std::vector<std::string> names = request.benchmarks;
    names.insert(names.end(), o.input_names.begin(), o.input_names.end());
    if (names.empty()) {
        for (std::size_t k = 0; k < catalogue_size; ++k)
            chosen[k].run = (catalogue[k].info.flags & PARBENCH_BENCH_DEFAULT) != 0;
    }
    for (const auto& n : names) {
        const auto r = resolve(n);
        chosen[r.index].run = true;
        chosen[r.index].multi_name = chosen[r.index].multi_name || r.multi_name;
    }
    for (const auto& n : o.include) {
        const auto r = resolve(n);
        chosen[r.index].run = true;
        chosen[r.index].multi_name = chosen[r.index].multi_name || r.multi_name;
    }
    for (const auto& n : o.exclude) chosen[resolve(n).index].run = false;
    if (std::none_of(chosen.begin(), chosen.end(), [](const selected& s) { return s.run; }))
        throw input_error("nothing to run: -exclude removed every benchmark selected");
    return chosen;
}

// --- the run -------------------------------------------------------------------------------

// 80 % of physical memory shared by the processes of the busiest node (the same on every
// process, so that every process skips the same sizes).
[[nodiscard]] double default_mem_limit_bytes(const mpi::node_share& share) {
    const double physical = physical_memory_bytes();
    return physical > 0.0 ? 0.8 * physical / std::max(1, share.processes) : 0.0;
}

// Said once per run: figures from a node with more processes than CPUs measure the scheduler.
[[nodiscard]] std::string oversubscription_warning(const mpi::node_share& share) {
    return "oversubscribed: " + std::to_string(share.processes) + " processes share " +
           std::to_string(share.cpus) + " CPUs on a node; MPI busy-polls, so any measurement with "
           "more active processes than CPUs times the scheduler (milliseconds instead of "
           "microseconds). Idle processes wait without spinning, but run at most one process per "
           "CPU for figures worth keeping";
}

void run_suite(const run_request& request, plugin::host_channel& host) {
    if (lowercase(request.suite) != suite_name)
        throw input_error("suite '" + request.suite + "' is not offered by the mpi plugin");
    run_state st;
    MPI_Comm_size(MPI_COMM_WORLD, &st.world_size);
    MPI_Comm_rank(MPI_COMM_WORLD, &st.world_rank);
    const options o = parse_options(request, st.world_size);
    const std::vector<selected> chosen = select(request, o);
    st.opts = &o;
    st.host = &host;
    st.order = mpi::mapped_order(st.world_size, o.map);
    const mpi::node_share share = mpi::busiest_node(MPI_COMM_WORLD);
    st.mem_limit_bytes = o.mem_gib ? *o.mem_gib * 1073741824.0 : default_mem_limit_bytes(share);
    if (o.accelerator == "cuda") {
        // Every rank asks the same library, so every rank refuses alike (one line, on rank 0).
        MPI_Comm node = MPI_COMM_NULL;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
        int local_rank = 0;
        MPI_Comm_rank(node, &local_rank);
        MPI_Comm_free(&node);
        st.buffers = imb_mpi1::cuda_memory_space(local_rank);
    }

    std::vector<std::string> listed;
    for (std::size_t k = 0; k < catalogue_size; ++k) {
        if (!chosen[k].run) continue;
        const std::string name = catalogue[k].info.name;
        listed.push_back(o.multi ? "(Multi-)" + name : chosen[k].multi_name ? "Multi-" + name : name);
    }

    if (st.world_rank == 0) {
        int thread_level = MPI_THREAD_SINGLE;
        MPI_Query_thread(&thread_level);
        const auto clock = measure_clock(mpi::wtime_clock{});
        const auto sizes = lengths_for(o, 1);
        run_start start;
        start.suite = suite_name;
        start.layout = "imb";
        start.title = "parbench " PARBENCH_PLUGIN_VERSION ", IMB-MPI1 compatible (IMB 4.0 methodology), MPI-1 part";
        start.benchmarks = listed;
        start.header = {
            {"part", "MPI-1 part"},
            {"mpi_version", mpi::standard_version()},
            {"mpi_thread_environment", std::string(mpi::thread_level_name(thread_level))},
            {"lengths_user_defined", !o.msglen.empty()},
            {"min_bytes", *std::min_element(sizes.begin(), sizes.end())},
            {"max_bytes", *std::max_element(sizes.begin(), sizes.end())},
            {"datatype", "MPI_BYTE"},
            {"reduction_datatype", "MPI_FLOAT"},
            {"reduction_op", "MPI_SUM"},
            {"benchmark_list", listed},
            {"check", o.check},
        };
        const mpi::measure_options mo_defaults{};
        nlohmann::json effective = {
            {"npmin", o.npmin_given ? o.npmin : std::min(2, st.world_size)},
            {"multi", o.multi ? nlohmann::json(*o.multi) : nlohmann::json(nullptr)},
            {"map", o.map.enabled() ? std::to_string(o.map.rows) + "x" +
                                          std::to_string(o.map.columns)
                                    : std::string()},
            {"off_cache", o.cache.enabled ? nlohmann::json{{"cache_mib", o.cache.cache_mib},
                                                           {"line_bytes", o.cache.line_bytes}}
                                          : nlohmann::json(nullptr)},
            {"msgs_per_sample", o.iterations.msgs_per_sample},
            {"overall_vol_bytes", o.iterations.overall_vol_bytes},
            {"msgs_nonaggr", o.iterations.msgs_nonaggr},
            {"iter_policy", std::string(policy::iterations::to_string(o.iterations.policy))},
            {"time_s", o.iterations.secs_per_sample},
            {"mem_limit_bytes", st.mem_limit_bytes},
            {"msglog", std::to_string(o.msglog.min_log) + ":" + std::to_string(o.msglog.max_log)},
            {"msglen", o.msglen_file},
            {"thread_level", o.thread_level},
            {"check", o.check},
            {"accelerator", o.accelerator},
            {"n_barr", 2},
            {"n_warmup", std::min(mpi::n_warmup, o.iterations.msgs_per_sample)},
            {"max_batches", mo_defaults.batching.max_batches},
            {"min_batch_s", mo_defaults.batching.min_batch_s},
        };
        start.context = {
            {"mpi_library", mpi::library_version()},
            {"processes", st.world_size},
            {"processes_per_node", share.processes},
            {"cpus_per_node", share.cpus},
            {"oversubscribed", share.oversubscribed()},
            {"thread_level", std::string(mpi::thread_level_name(thread_level))},
            {"timer", "MPI_Wtime"},
            {"message_buffers", st.buffers != nullptr
                                    ? std::string(st.buffers->name) + " device memory"
                                    : std::string("host memory")},
            {"timer_resolution_s", clock.resolution_s},
            {"timer_overhead_s", clock.overhead_s},
            {"off_cache", o.cache.enabled},
            {"options", effective},
        };
        host.run_started(start);
        if (share.oversubscribed()) host.warning(oversubscription_warning(share));
    }
    for (std::size_t k = 0; k < catalogue_size; ++k) {
        if (!chosen[k].run) continue;
        const selection sel{o.multi.has_value() || chosen[k].multi_name};
        catalogue[k].run(st, sel, catalogue[k].info.name);
    }
}

// --- the C surface ---------------------------------------------------------------------------

bool we_initialised = false;

const char* backend_info() {
    static const std::string text = mpi::library_version();
    return text.c_str();
}

parbench_status init(const parbench_init_args* args, char* error, size_t error_size) {
    return plugin::guarded(error, error_size, [&] {
        int initialised = 0;
        MPI_Initialized(&initialised);
        if (initialised != 0) return;
        const char* level_text =
            args != nullptr && args->thread_level != nullptr ? args->thread_level : "single";
        const int required = mpi::parse_thread_level(level_text);
        int provided = 0;
        int* argc = args != nullptr ? args->argc : nullptr;
        char*** argv = args != nullptr ? args->argv : nullptr;
        if (MPI_Init_thread(argc, argv, required, &provided) != MPI_SUCCESS)
            throw std::runtime_error("MPI_Init_thread failed");
        we_initialised = true;
    });
}

parbench_status finalize(char* error, size_t error_size) {
    return plugin::guarded(error, error_size, [&] {
        int finalised = 0;
        MPI_Finalized(&finalised);
        if (we_initialised && finalised == 0) MPI_Finalize();
        we_initialised = false;
    });
}

parbench_status run(const char* request_json, const parbench_host* host_ptr, char* error,
                    size_t error_size) {
    return plugin::guarded(error, error_size, [&] {
        int initialised = 0;
        MPI_Initialized(&initialised);
        if (initialised == 0) throw std::runtime_error("the mpi plugin was not initialised");
        const run_request request = parse_run_request(request_json, "mpi plugin");
        plugin::host_channel host(host_ptr);
        run_suite(request, host);
    });
}

const parbench_plugin descriptor = {
    PARBENCH_ABI_MAJOR,
    PARBENCH_ABI_MINOR,
    sizeof(parbench_plugin),
    "mpi",
    PARBENCH_PLUGIN_VERSION,
    &backend_info,
    &init,
    &finalize,
    suites,
    sizeof(suites) / sizeof(suites[0]),
    &mpi_plugin::comm_service,
    &run,
    {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr},
};

}  // namespace
}  // namespace parbench::imb_mpi1

PARBENCH_PLUGIN_ENTRY(parbench::imb_mpi1::descriptor)
