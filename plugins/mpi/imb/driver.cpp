#include "imb/driver.hpp"

#include <parbench/core/error.hpp>
#include <parbench/mpi/file_errors.hpp>

#include <chrono>
#include <cstdio>
#include <thread>

namespace parbench::imb {
namespace driver_impl {
namespace {

[[nodiscard]] std::string mib_text(double bytes) {
    char text[64];
    std::snprintf(text, sizeof text, "%.1f MiB", bytes / 1048576.0);
    return text;
}

}  // namespace

}  // namespace driver_impl
policy::iterations::imb_volume size_iterations(const options& o, bool rooted, bool files,
                                               int processes, std::uint64_t x,
                                               policy::iterations::imb_repetition_chain& chain,
                                               policy::iterations::imb_block_budget& budget) {
    // The repetition rule of this run: under -iter_policy off IMB 2021 counts msgspersample
    // in every mode (methodology::off_policy_counts_msgs_per_sample).
    policy::iterations::imb_volume iterations = o.iterations;
    if (iterations.policy == policy::iterations::imb_policy::off &&
        o.method.off_policy_counts_msgs_per_sample())
        iterations.msgs_nonaggr = iterations.msgs_per_sample;
    // Under the dynamic policy and IMB's own length sequence IMB 2021 never repeats a
    // non-aggregate sample more than msgspersample times
    // (methodology::dynamic_policy_caps_non_aggregate).
    if (iterations.effective_policy(rooted) == policy::iterations::imb_policy::dynamic &&
        o.msglen.empty() && o.method.dynamic_policy_caps_non_aggregate())
        iterations.msgs_nonaggr = std::min(iterations.msgs_nonaggr, iterations.msgs_per_sample);
    // IMB 2021's count under multiple_np (auto for a rooted benchmark): its hyperbola on
    // the largest length of -msglog (methodology::multiple_np_follows_hyperbola).
    const auto iter_policy = iterations.effective_policy(rooted);
    if (o.method.multiple_np_follows_hyperbola()) {
        iterations.imb2021_hyperbola_max_log = o.msglog.max_log;
        // Where the dynamic calibration is skipped, IMB 2021 runs the whole count once,
        // untimed, before the timed run (policy::iterations::imb_volume::
        // imb2021_pre_run_processes).
        if (iter_policy == policy::iterations::imb_policy::multiple_np)
            iterations.imb2021_pre_run_processes = processes;
    }
    // So it does under -iter_policy off, with msgspersample (methodology::
    // off_policy_runs_count_untimed; imb_volume::imb2021_untimed_run).
    if (iter_policy == policy::iterations::imb_policy::off &&
        o.method.off_policy_runs_count_untimed())
        iterations.imb2021_untimed_run = true;
    // IMB 2021's count under the dynamic policy follows the sizes before this one in the
    // pass (methodology::chains_repetitions_across_sizes).
    if (o.method.chains_repetitions_across_sizes()) {
        chain.start_size(x);
        iterations.imb2021_chain = &chain;
    }
    // IMB-IO's probe of each size under IMB 2021's dynamic policy: one repetition, then
    // min(n, rep_test <= 50) (methodology::io_probe_cap; it needs the chain above).
    if (files && iter_policy == policy::iterations::imb_policy::dynamic)
        iterations.imb2021_probe_cap = o.method.io_probe_cap();
    // IMB 2021's -time budget of the pass: its clock starts at the pass's first size, and the
    // timing checks it after the size's probe (methodology::budgets_time_per_block).
    if (o.method.budgets_time_per_block()) {
        budget.start_size(MPI_Wtime());
        iterations.imb2021_budget = &budget;
    }
    return iterations;
}

void pause_after_size(double start) {
    const double took_s = MPI_Wtime() - start;
    MPI_Barrier(MPI_COMM_WORLD);
    std::this_thread::sleep_for(std::chrono::duration<double>(took_s));
}

mpi::session open_session(const run_state& run, const selection& selected, int q) {
    mpi::session session(MPI_COMM_WORLD, q, selected.multiple, run.order, run.opts->map.columns,
                         run.buffers);
    session.rotate_root(run.opts->method.rotates_root());  // the methodology's root rule
    return session;
}

mpi::record_labels labels_of(const run_state& run, const selection& selected,
                             std::string_view name, bool has_bytes, std::string_view mode) {
    return {std::string(run.suite), std::string(name), selected.multiple,
            run.opts->multi.value_or(0) == 1, has_bytes, std::string(mode)};
}

mpi::file_site file_site_of(const run_state& run, const selection& selected,
                            const mpi::session& session,
                            const policy::iterations::imb_volume& iterations, std::uint64_t x,
                            bool aggregate, bool rooted, mpi::kept_file* block_file,
                            std::uint64_t largest_length) {
    const options& o = *run.opts;
    // Room for the warm-up and the largest timed count, in tiles of X. Under IMB 2021 the pass's
    // file (`block_file`) is made at its first size with IMB's size for the pass's largest
    // length and kept across its sizes (methodology::io_file_per_block): writes find it as the
    // pass's earlier sizes left it; under the dynamic policy every timed epoch (aggregate) or
    // timed run (non-aggregate) starts at the file's beginning, as IMB rewinds after its
    // calibration runs, and an aggregate epoch on the file cut back to the size this size found
    // it at (methodology::io_epochs_from_file_start); under multiple_np or off the pointers run
    // on from the warm-up (IMB's untimed run), as IMB's do. Reads find its content.
    const bool rewinds = o.method.io_epochs_from_file_start() &&
                         iterations.effective_policy(rooted) ==
                             policy::iterations::imb_policy::dynamic;
    return {.directory = run.io_directory,
            .group = selected.multiple && session.active() ? session.group_index() : -1,
            .tiles = 2 * iterations.n_sample(x, aggregate),
            .epochs_from_file_start = rewinds,
            .cut_back_each_epoch = aggregate,
            .largest_length = largest_length,
            .overall_volume = iterations.overall_vol_bytes,
            .split = o.method.io_portion_split(),
            .reads_find_block_file = o.method.io_reads_find_block_file() && !o.check,
            .kept = block_file};
}

void publish_record(const run_state& run, bool timed_out, std::uint64_t& dropped_calls,
                    std::uint64_t& timed_calls, const result_record& r) {
    if (timed_out) {  // IMB 2021's "time-out." row: no figures, not a measurement
        run.host->time_out(r);
        return;
    }
    if (const auto& window = r.window_sync) {
        dropped_calls += window->invalid_samples;
        timed_calls += window->invalid_samples + window->valid_samples;
    }
    // IMB 2021's Mbytes/sec (10^6 bytes); throughput_mib_s stays in MiB/s.
    if (run.opts->method.is_2021() && r.throughput_mib_s) {
        result_record with_unit = r;
        message_rates_of(with_unit).mbytes_per_s =
            *r.throughput_mib_s * 1048576.0 / run.opts->method.mbyte_bytes();
        run.host->result(with_unit);
        return;
    }
    run.host->result(r);
}

void close_count(const run_state& run, std::string_view name, int processes, bool timed_out,
                 std::uint64_t dropped_calls, std::uint64_t timed_calls,
                 const mpi::size_notes& notes) {
    // Under IMB 2021 a size over -mem ended the benchmark with IMB's out-of-mem. row instead
    // (family::measure_as): no warning of sizes skipped.
    if (notes.skipped_for_memory() && !timed_out)
        warn_skipped_sizes(run, name, processes, notes.first_skipped_bytes,
                           notes.worst_need_bytes);
    if (notes.allocation_failed) warn_allocation_failed(run, name, processes);
    if (dropped_calls > 0) warn_dropped_calls(run, name, processes, dropped_calls, timed_calls);
}

std::uint64_t aggregate_sections(const policy::iterations::imb_volume& iterations,
                                 std::uint64_t x) {
    const std::uint64_t n = iterations.n_sample(x, true);
    if (x == 0) return 1;
    return std::max<std::uint64_t>(1, std::min(n, iterations.overall_vol_bytes / x));
}

mpi::message_resource imb2021_message_resource(const mpi::session& s, mpi::buffer_layout layout,
                                               mpi::buffer_layout lengths,
                                               const off_cache& cache, std::size_t spread,
                                               std::uint64_t n_sample) {
    const auto slots = [&](std::size_t length) {
        const cache_offsets at =
            imb2021_cache_offsets(cache.cache_mib, cache.line_bytes, length * spread, n_sample);
        return mpi::slot_spacing{.count = at.count, .stride = at.stride};
    };
    return mpi::message_resource(layout, slots(lengths.send_bytes), slots(lengths.recv_bytes),
                                 s.send_pool(), s.recv_pool());
}

target_sections one_sided_sections(const options& o,
                                   const policy::iterations::imb_volume& iterations,
                                   std::uint64_t x, bool aggregate, std::uint64_t lengths) {
    const bool imb2021_layout = o.method.one_sided_origins_share_target();
    if (o.cache.enabled && o.method.one_sided_at_cache_offsets()) {
        // IMB 2021's offsets from the size's count before its calibration and its buffer
        // length, `lengths` x max(X, sizeof(assign_type)) (the target's: r_len, which the Gets'
        // s_len equals), whole cache lines as IMB's: with a line size that is not a multiple of
        // 4 the float and int operations address unaligned elements, as IMB 2021's do.
        const cache_offsets at = imb2021_cache_offsets(
            o.cache.cache_mib, o.cache.line_bytes,
            static_cast<std::size_t>(lengths * std::max<std::uint64_t>(x, assign_type_bytes)),
            iterations.n_sample(x, aggregate));
        return {.count = at.count, .stride = at.stride, .imb2021_layout = imb2021_layout};
    }
    if (aggregate && (o.method.aggregate_transfers_to_disjoint_sections() || o.cache.enabled))
        return {.count = aggregate_sections(iterations, x), .imb2021_layout = imb2021_layout};
    return {.imb2021_layout = imb2021_layout};
}

std::vector<int> process_counts_for(const run_state& st, std::string_view name,
                                    int fixed_processes, bool even_only, int min_processes) {
    const options& o = *st.opts;
    if (fixed_processes > 0) {
        if (st.world_size >= fixed_processes) return {fixed_processes};
        if (st.world_rank == 0)
            st.host->skipped(name, "needs " + std::to_string(fixed_processes) +
                                       " processes and the run has " +
                                       std::to_string(st.world_size));
        return {};
    }
    std::vector<int> counts =
        mpi::process_counts(st.world_size, std::min(o.npmin, st.world_size));
    if (min_processes > 1) {
        std::erase_if(counts, [&](int q) { return q < min_processes; });
        if (counts.empty() && st.world_rank == 0)
            st.host->skipped(name, "needs " + std::to_string(min_processes) +
                                       " processes and the run has " +
                                       std::to_string(st.world_size));
    }
    if (even_only) {
        std::erase_if(counts, [](int q) { return q % 2 != 0; });
        if (counts.empty() && st.world_rank == 0)
            st.host->skipped(name, "needs an even number of processes");
    }
    return counts;
}

void warn_skipped_sizes(const run_state& st, std::string_view name, int processes,
                        std::uint64_t first_skipped, std::size_t worst_need_bytes) {
    if (st.world_rank != 0) return;
    const double need = static_cast<double>(worst_need_bytes);
    const double total = need * st.world_size;
    st.host->warning(
        std::string(name) + " at " + std::to_string(processes) +
        " processes: message buffers from " + std::to_string(first_skipped) + " bytes need up to " +
        driver_impl::mib_text(need) + " per process, above the -mem limit of " +
        driver_impl::mib_text(st.mem_limit_bytes) +
        "; those sizes were skipped (the whole run needs " + driver_impl::mib_text(total) +
        ", -mem " + std::to_string(need / 1073741824.0 * 1.01) + " would allow them)");
}

void warn_allocation_failed(const run_state& st, std::string_view name, int processes) {
    if (st.world_rank != 0) return;
    st.host->warning(std::string(name) + " at " + std::to_string(processes) +
                     " processes: a process could not allocate its message buffers; those sizes "
                     "were skipped");
}

void warn_left_out(const run_state& st, std::string_view name, const std::string& why,
                   bool none_left) {
    if (st.world_rank != 0) return;
    if (none_left)
        st.host->skipped(name, why);
    else
        st.host->warning(std::string(name) + ": " + why + "; those process counts were left out");
}

void warn_dropped_calls(const run_state& st, std::string_view name, int processes,
                        std::uint64_t dropped, std::uint64_t timed) {
    if (st.world_rank != 0) return;
    st.host->warning(std::string(name) + " at " + std::to_string(processes) +
                     " processes, -start_sync window: " + std::to_string(dropped) + " of " +
                     std::to_string(timed) +
                     " calls started late on some process and were dropped (JSON metrics "
                     "valid_samples and invalid_samples give them per size)");
}

void warn_storage(const run_state& st, std::string_view name, int processes, std::uint64_t bytes,
                  const mpi::storage_need& storage) {
    if (st.world_rank != 0) return;
    st.host->warning(std::string(name) + " at " + std::to_string(processes) + " processes, " +
                     std::to_string(bytes) + " bytes: the files need " +
                     driver_impl::mib_text(storage.need_bytes) + " in " + storage.directory +
                     ", which has " + driver_impl::mib_text(storage.free_bytes) +
                     " free; size skipped");
}

void stop_on_file_failure(const mpi::session& s, std::string_view name, std::uint64_t bytes,
                          const std::string& path) {
    if (const std::string failure = mpi::file_errors::take_agreed(s.world().get());
        !failure.empty())
        throw input_error("MPI-IO failed in " + std::string(name) + " (" + std::to_string(bytes) +
                          " bytes, " + std::to_string(s.layout().processes) +
                          " processes) on a file in " + path.substr(0, path.find_last_of('/')) +
                          ": " + failure + "; stopped");
}

}  // namespace parbench::imb
