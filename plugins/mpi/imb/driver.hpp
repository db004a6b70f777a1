// The IMB driver: runs one benchmark definition over IMB's process counts (-npmin doubling, or the
// pair of a two-process pattern) and message sizes, with IMB's warm-up, and hands every record to
// the host. Every imb-* suite runs its definitions through run_benchmark<Def>; it is the one
// place in the plugin that opens an mpi::session and calls mpi::warm_up() and mpi::measure().
#pragma once

#include "imb/definition_traits.hpp"
#include "imb/options.hpp"

#include <parbench/core/buffers.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/pattern.hpp>
#include <parbench/plugin/abi.h>
#include <parbench/plugin/export.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::imb {

// What every benchmark of one run shares.
struct run_state {
    std::string_view suite;  // "imb-mpi1", for the records
    const options* opts = nullptr;
    const plugin::host_channel* host = nullptr;
    std::vector<int> order;  // world ranks in -map order
    int world_size = 1;
    int world_rank = 0;
    double mem_limit_bytes = 0.0;
    const memory_space* buffers = nullptr;  // message buffers' memory (nullptr: host)
};

// How one benchmark was selected.
struct selection {
    bool multiple = false;  // Multi- name or -multi
};

using run_fn = void (*)(const run_state&, const selection&, std::string_view name);

// One benchmark of a suite's catalogue: what `parbench list` shows, and how it runs.
struct benchmark {
    parbench_benchmark info;
    run_fn run;
};

// The process counts a benchmark runs at; empty (with a warning on rank 0) when the run cannot
// host it: a pair pattern needs two processes, a windowed pairing an even count.
[[nodiscard]] std::vector<int> process_counts_for(const run_state& st, std::string_view name,
                                                  bool pair, bool even_only);

// Rank 0's warnings after one process count: sizes skipped for -mem, a failed allocation.
void warn_skipped_sizes(const run_state& st, std::string_view name, int processes,
                        std::uint64_t first_skipped, std::size_t worst_need_bytes);
void warn_allocation_failed(const run_state& st, std::string_view name, int processes);

template <class Def>
void run_benchmark(const run_state& st, const selection& sel, std::string_view name) {
    using traits = definition_traits<Def>;
    // Aggregate and non-aggregate blocks (IMB-EXT, IMB-RMA) will loop over the modes here, once
    // the runner places completions by aggregation policy.
    static_assert(traits::modes == run_modes::single, "the runner measures one mode only");
    const options& o = *st.opts;
    const auto& descriptor = Def::descriptor;
    const std::vector<int> counts = process_counts_for(
        st, name, pattern::fixed_group_size(descriptor), traits::window_messages > 0);
    const std::vector<std::uint64_t> sizes =
        traits::has_bytes ? lengths_for(o, traits::unit) : std::vector<std::uint64_t>{0};
    mpi::measure_options mo;
    mo.iterations = o.iterations;
    mo.cache = o.cache;
    mo.mem_limit_bytes = st.mem_limit_bytes;
    mo.check = o.check;
    mpi::record_labels labels{std::string(st.suite), std::string(name), sel.multiple,
                              o.multi.value_or(0) == 1, traits::has_bytes};
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
                const std::uint64_t small = traits::has_bytes ? 4 : 0;
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
                if constexpr (traits::window_messages > 0) {
                    // A window of messages per pair and iteration; all pairs together.
                    const double pairs = r.block.processes / 2;
                    const double per_iteration = traits::window_messages * pairs;
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
        if (worst_need > 0) warn_skipped_sizes(st, name, q, first_skipped, worst_need);
        if (allocation_failed) warn_allocation_failed(st, name, q);
    }
}

}  // namespace parbench::imb
