#include "imb/run_header.hpp"
#include <parbench/mpi/imb_cpu_work.hpp>

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <parbench/mpi/async_progress.hpp>
#include <parbench/mpi/run_header.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/policy/cpu_load.hpp>
#include <parbench/report/imb_context.hpp>
#include <parbench/report/imb_header.hpp>

#ifndef PARBENCH_PLUGIN_VERSION
#define PARBENCH_PLUGIN_VERSION "0.0.0"
#endif

namespace parbench::imb {

run_start make_run_start(const suite_spec& spec, const run_state& st,
                         const std::vector<std::string>& listed, const mpi::node_share& share) {
    const options& o = *st.opts;
    const auto sizes = lengths_for(o, 1);
    run_start start;
    start.suite = spec.name;
    start.layout = "imb";
    // IMB 2021.11 names two parts differently from IMB 4.0's (IMB_g_info.c:99, 104).
    std::string part = report::to_string(spec.part);
    if (o.method.is_2021() && (spec.part == report::imb_part::nbc ||
                               spec.part == report::imb_part::rma))
        part = "MPI-" + part;
    start.title = std::string("parbench " PARBENCH_PLUGIN_VERSION ", ") + spec.compatible_with +
                  " compatible (" + std::string(o.method.label()) + " methodology), " + part;
    start.benchmarks = listed;
    report::imb_header header =
        mpi::make_imb_header({.benchmarks = listed,
                              .sizes = sizes,
                              .lengths_user_defined = !o.msglen.empty(),
                              .datatype = mpi_type_name(o.data_type),
                              .reduction_datatype = mpi_type_name(o.red_data_type),
                              .check = o.check});
    header.part = spec.part;
    header.methodology = std::string(o.method.label());
    if (!st.io_directory.empty()) {
        // IMB-IO's header speaks of I/O portions; the driver removes this directory when it
        // stops the run (--timeout, signals).
        header.io = report::imb_header_io{.length_name = "io portion",
                                          .io_directory = st.io_directory};
    }
    start.header = header;
    const policy::aggregation::batched batching_defaults{};
    nlohmann::json effective = {
        {"npmin", std::min(o.npmin, st.world_size)},
        {"map", o.map.enabled() ? std::to_string(o.map.rows) + "x" + std::to_string(o.map.columns)
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
        {"data_type", o.data_type},
        {"red_data_type", o.red_data_type},
        {"contig_type", o.contig_type},
        {"zero_size", o.zero_size},
        {"warm_up", o.warm_up},
        {"io_dir", o.io_dir},
        {"n_barr", 2},
        {"methodology", std::string(to_string(o.method.name))},
        {"aggregate_mode", o.aggregate_mode},
        {"msg_pause", o.msg_pause},
        {"start_sync", std::string(policy::sync::to_string(o.sync.which))},
        {"n_warmup", std::min(mpi::n_warmup, o.iterations.msgs_per_sample)},
        {"max_batches", batching_defaults.max_batches},
        {"min_batch_s", batching_defaults.min_batch_s},
    };
    // Every rule the methodology decides (plugins/mpi/imb/methodology.hpp, docs/methodology.md).
    const methodology& m = o.method;
    nlohmann::json rules = {
        {"name", std::string(to_string(m.name))},
        {"label", std::string(m.label())},
        {"mbyte_bytes", m.mbyte_bytes()},
        {"collectives_timed", m.times_each_call(true, true) ? "each call" : "batched loop"},
        {"root", m.rotates_root() ? "i % np" : "0"},
        {"pingpong_source", m.explicit_source() ? "partner" : "MPI_ANY_SOURCE"},
        {"window_size", m.window()},
        {"ack_bytes", m.ack_bytes()},
        {"rma_all_targets_completion",
         m.completes_all_targets_once_per_sample() ? "once per sample" : "every iteration"},
        {"overlap_t_cpu", m.times_cpu_inside_overlap() ? "inside the overlapped loop"
                                                       : "the work timed alone"},
        {"overlap_divisor", m.is_2021() ? "max(t_pure, t_CPU)" : "min(t_pure, t_CPU)"},
        {"overlap_cpu_work",
         {{"matrix_order", m.cpu_exploit_order()},
          {"calibrated", m.nbc_calibrates_once_per_run()
                             ? "rate once per run, each process on its own; work per size from "
                               "its own t_pure"
                             : "collectively, once per size"}}},
        {"truly_passive_put_iteration", m.passive_put_barrier_per_iteration()
                                            ? "put, flush, barrier (target: work, barrier)"
                                            : "put, flush (target: work)"},
        {"truly_passive_put_work", m.passive_put_work_like_imb()
                                       ? "IMB_cpu_exploit: the 10x10 pass, the target's passes "
                                         "for t_pure at its rate probed once per run"
                                       : "the clock spun for t_pure"},
        {"truly_passive_put_columns", m.pure_before_overlapped() ? "t_pure t_ovrl"
                                                                 : "t_ovrl t_pure"},
        {"ext_length_unit_bytes", m.ext_length_unit()},
        {"ext_first_length", m.ext_first_length_cap() > 0
                                 ? "min(2^MIN, " + std::to_string(m.ext_first_length_cap()) +
                                       ") with -msglog"
                                 : std::string("2^MIN")},
        {"ireduce_overlapped_root",
         m.ireduce_overlapped_root_round_robin() || m.rotates_root() ? "i % np" : "0"},
        // How often an aggregate sample is timed (methodology::aggregate_repeats_budget_s).
        {"aggregate_epochs",
         !(m.aggregate_repeats_budget_s() > 0.0) ? std::string("1")
         : std::isfinite(m.aggregate_repeats_budget_s())
             ? std::to_string(min_ci_samples) + " where the " +
                   std::to_string(min_ci_samples - 1) + " repeats fit in the budget, else 1"
             : std::to_string(min_ci_samples)},
        {"aggregate_repeats_budget_s", std::isfinite(m.aggregate_repeats_budget_s())
                                           ? nlohmann::json(m.aggregate_repeats_budget_s())
                                           : nlohmann::json(nullptr)},
        {"non_aggregate_repetitions_under_iter_policy_off",
         m.off_policy_counts_msgs_per_sample() ? "msgs_per_sample" : "msgs_nonaggr"},
        {"warm_up_under_iter_policy_off", m.off_policy_runs_count_untimed()
                                              ? "the whole count, untimed (IMB's run before "
                                                "the timed run)"
                                              : "max(n / 20, 3)"},
        {"non_aggregate_repetitions_under_iter_policy_dynamic",
         m.dynamic_policy_caps_non_aggregate() ? "msgs_nonaggr capped at msgs_per_sample"
                                               : "msgs_nonaggr"},
        {"one_sided_aggregate_target",
         m.aggregate_transfers_to_disjoint_sections()
             ? "disjoint sections"
             : "one location (IMB's cache offsets with -off_cache)"},
        {"one_sided_off_cache",
         m.one_sided_at_cache_offsets()
             ? "both ends of transfer i at i % count * offs, every mode (IMB's cache offsets)"
             : "the aggregate sections, non-aggregate at displacement 0"},
        {"one_sided_shared_target",
         m.one_sided_origins_share_target()
             ? "every origin at the same displacement; Exchange_* side by side, offsets from 2X"
             : "a region per origin"},
        {"message_off_cache", m.messages_at_cache_offsets()
                                  ? "message i at i % count * offs (IMB's cache offsets)"
                                  : "2 lines past the last message, in 2 max(cache, X), wrapping"},
        {"window_put_target", m.window_puts_to_self() ? "self" : "right neighbour"},
        {"reduce_scatter_counts", m.reduce_scatter_whole_x_each()
                                      ? "X / size(type) to every process, np X reduced"
                                      : "X split over the processes"},
        {"repetitions_under_iter_policy_multiple_np",
         m.multiple_np_follows_hyperbola()
             ? "max(tmp - tmp mod np, np), tmp = (int)(msgs_per_sample 2^max_log / (np max(X, 4) "
               "+ 2^max_log) + 0.5)"
             : "min(selected, floor(secs / t)) rounded down to a multiple of np, at least np"},
        {"repetitions_under_iter_policy_dynamic",
         m.chains_repetitions_across_sizes()
             ? "min(selected, int(1 + secs / t), the previous size's count; with a length list "
               "adjusted against every earlier length instead)"
             : "min(selected, floor(secs / t))"},
        // -time as a budget per block (methodology::budgets_time_per_block): the formula and
        // this run's value in seconds; none under 4.0.
        {"time_budget_per_block", m.budgets_time_per_block()
                                      ? "max(max(n_lens, max_log - min_log) - 1, 1) * secs"
                                      : "none"},
        {"time_budget_per_block_s", m.budgets_time_per_block()
                                        ? nlohmann::json(block_time_limit_s(o))
                                        : nlohmann::json(nullptr)},
    };
    if (spec.defaults.rma_mode_order)
        rules["rma_mode_order"] = m.rma_runs_non_aggregate_first() ? "non_aggregate, aggregate"
                                                                   : "aggregate, non_aggregate";
    if (spec.defaults.io_files) {
        // IMB-IO's rules (methodology::io_*); its overlap[%] divides by the shorter time under
        // both (IMB_output.c:338).
        rules["io"] = {
            {"npmin_default", m.io_npmin()},
            {"msglog_default", "0:" + std::to_string(m.io_max_msglog())},
            {"iter_default", std::to_string(m.io_msgs_per_sample()) + "," +
                                 std::to_string(m.io_overall_vol_bytes() >> 20) + "," +
                                 std::to_string(m.io_msgs_nonaggr())},
            {"cpu_load_s", m.io_cpu_load_s()},
            {"nonblocking_in_default_set", m.io_nonblocking_by_default()},
            {"single_mode", m.io_single_mode_is_aggregate() ? "aggregate" : "non_aggregate"},
            {"t_cpu", m.io_cpu_time_from_calibration()
                          ? "world rank 0's one timed run of the work at its calibration"
                          : "the work timed alone"},
            {"cpu_work", {{"matrix_order", m.cpu_exploit_order()},
                          {"calibrated", m.io_calibrates_once_per_run()
                                             ? "once per run, each process on its own"
                                             : "collectively, once per size"}}},
            {"probe", m.io_probe_cap() > 0
                          ? "1 + min(n, rep_test <= " + std::to_string(m.io_probe_cap()) +
                                ") repetitions under the dynamic policy"
                          : std::string("max(n / 20, 3) repetitions")},
            {"overlap_divisor", "min(t_pure, t_CPU)"},
            {"overlap_times", m.io_times_each_their_maximum()
                                  ? "t_pure and t_ovrl each the largest over the processes"
                                  : "the process with the largest t_ovrl"},
            {"aggregate_epoch_start", m.io_epochs_from_file_start()
                                          ? "the file's beginning"
                                          : "where the file pointers stand"},
            {"timed_writes_start", m.io_epochs_from_file_start()
                                       ? "the file's beginning under the dynamic policy; "
                                         "where the warm-up left the pointers under "
                                         "multiple_np (IMB's untimed run) and off"
                                       : "where the warm-up left the pointers"},
            {"open_close_repetitions", m.io_open_close_counts_msgs_nonaggr()
                                           ? "msgs_nonaggr"
                                           : "msgspersample"},
            {"write_file", m.io_file_per_block()
                               ? "one per block (count, mode), made sparse at IMB 2021's size "
                                 "and kept across the sizes"
                               : "a fresh file per size, preallocated for 2n portions"},
            {"portion_split", m.io_portion_split().by_file_rank
                                  ? "units of 4 bytes by the rank in the file's communicator"
                                  : "X/Q bytes by world rank"},
            {"cpu_exploit_lines", m.io_prints_cpu_exploit()
                                      ? "before the first table of a run with nonblocking "
                                        "benchmarks"
                                      : "none"},
            {"read_file", m.io_reads_find_block_file()
                              ? "IMB 2021's block file, one per block (count), kept across "
                                "the sizes, its bytes a function of the offset: its total bytes "
                                "from offset 0, reads past them read nothing (every tile too "
                                "under -check)"
                              : "2n portions per size, every read finds data"},
        };
        rules.erase("overlap_divisor");
        rules.erase("overlap_t_cpu");
        rules.erase("overlap_cpu_work");
    }
    if (m.is_2021()) {
        rules["sync"] = m.sync;
        rules["root_shift"] = m.root_shift;
        rules["imb_barrier"] = m.imb_barrier;
        effective["sync"] = m.sync;
        effective["root_shift"] = m.root_shift;
        effective["imb_barrier"] = m.imb_barrier;
    }
    // -multi and -window_size as the IMB consoles read them (report/imb_context.hpp); -multi is
    // null where it was not given.
    effective["multi"] = nullptr;
    effective.update(nlohmann::json(report::imb_options_context{
        .multi = o.multi,
        .window_size = m.is_2021() ? std::optional<std::uint64_t>(m.window_size) : std::nullopt}));
    start.context = mpi::mpi_run_context(
        share, st.buffers != nullptr ? std::string(st.buffers->name) + " device memory"
                                     : std::string("host memory"));
    start.context["methodology"] = rules;
    start.context["off_cache"] = o.cache.enabled;
    start.context["options"] = effective;
    if (st.datatypes != nullptr) {
        // The header names the element types as IMB 2021 prints them; these are the datatypes
        // the calls actually take.
        start.context["datatypes"] = {
            {"messages", st.datatypes->description(false)},
            {"reductions", st.datatypes->description(true)},
            {"reduction_op", st.datatypes->user_op()
                                 ? "user-defined sum of the data elements (MPI_Op_create, as "
                                   "IMB 2021 on derived datatypes)"
                                 : "MPI_SUM"},
            {"buffer_bytes_per_data_byte", st.datatypes->spread()},
        };
    }
    // IMB-IO 2021.11 calibrates its CPU work before the first benchmark of a run with
    // nonblocking benchmarks and prints its rate above the first table
    // (original_benchmark.h:180-188; methodology::io_prints_cpu_exploit): IMB_cpu_exploit.c:116's
    // MFlops = passes x flops per pass / 10^6 / seconds of its one probe on the wall clock
    // (MPI_Wtime). parbench's is that calibration, the run's (mpi/imb_cpu_work.hpp), rank 0's; the
    // figures it came from are in the context.
    if (header.io && m.io_prints_cpu_exploit() && st.cpu_work != nullptr &&
        lists_io_nonblocking(listed)) {
        const policy::imb_calibration& c = st.cpu_work->mine;
        header.io->cpu_exploit_mflops = c.mflops();
        start.header = header;
        start.context["cpu_exploit"] = {{"passes", c.probe_passes},
                                        {"seconds", c.probe_s},
                                        {"order", c.order},
                                        {"flops_per_pass", policy::cpu_load::flops_per_pass_of(c.order)},
                                        {"mflops", c.mflops()},
                                        {"work_passes", c.passes},
                                        {"t_cpu_s", st.cpu_work->t_cpu_s}};
    }
    return start;
}

bool lists_io_nonblocking(const std::vector<std::string>& listed) {
    return std::any_of(listed.begin(), listed.end(), [](const std::string& n) {
        return n.find("_IWrite_") != std::string::npos || n.find("_IRead_") != std::string::npos;
    });
}

void add_overlap_header(run_start& start, const run_state& st) {
    start.layout = "imb-nbc";
    // The CPU work's rate: under IMB 2021 the run's probe (mpi/imb_cpu_work.hpp, rank 0's; IMB
    // prints none for IMB-NBC: do_nonblocking is set by IMB-IO's name parser only,
    // IMB_parse_name_io.c:172), its figures in the context; under the guide parbench's
    // calibration of its 100x100 pass.
    double rate = 0.0;
    std::string kernel;
    if (st.cpu_work != nullptr) {
        const policy::imb_calibration& c = st.cpu_work->mine;
        rate = c.mflops();
        kernel = std::to_string(c.order) + "x" + std::to_string(c.order) +
                 " single-precision matrix-vector product";
        start.context["cpu_exploit"] = {{"passes", c.probe_passes},
                                        {"seconds", c.probe_s},
                                        {"order", c.order},
                                        {"flops_per_pass",
                                         policy::cpu_load::flops_per_pass_of(c.order)},
                                        {"passes_per_second", c.passes_per_second},
                                        {"mflops", rate}};
    } else {
        policy::matvec_load load;
        const policy::matvec_calibration c = policy::calibrate_matvec(load, 0.0);
        rate = policy::cpu_load::rate_mflops(1, c.seconds_per_pass);
        kernel = "100x100 single-precision matrix-vector product";
    }
    const mpi::async_progress progress = mpi::detect_async_progress();
    auto header = start.header.get<report::imb_header>();
    header.overlap = report::imb_header_overlap{
        .cpu_load_kernel = kernel,
        .cpu_load_rate_mflops = rate,
        .async_progress = mpi::describe(progress)};
    start.header = header;
    start.context["async_progress"] = mpi::to_json(progress);
    start.context["cpu_load_rate_mflops"] = rate;
}

}  // namespace parbench::imb
