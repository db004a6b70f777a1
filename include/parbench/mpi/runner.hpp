// The MPI runner: one measurement of one pattern at one size on an active set of processes — the
// phases of mpi/phases.hpp composed. Collective over the session's world: idle processes wait in
// a barrier that sleeps instead of spinning (IMB's MPI_Barrier would steal cores); active ones
// prepare the resource (-mem cap, agreed allocation, collective setup), time the size (the
// iteration policy's warm-up and count, the sync policy, the batched timed loop with the
// completion where the aggregation policy puts it, -check), gather every process's figures to
// the active set's first process (the batch times in them, or reduced on the way: the plan's
// batch_travel), which reduces them to records (world rank 0, where the host
// listens, unless the family's order puts another process first: mpi/deliver.hpp), and tear the
// resource down. Under IMB 2021's -time budget per block a size that ran out is not timed
// (measurement::timed_out, known on every process).
//
// Kernels are template parameters (functors): the timed loop is the same code as a hand-written
// loop around the MPI calls.
#pragma once

#include <parbench/core/buffers.hpp>
#include <parbench/mpi/completion.hpp>
#include <parbench/mpi/message_buffers.hpp>
#include <parbench/mpi/phases.hpp>
#include <parbench/mpi/resource.hpp>
#include <parbench/mpi/session.hpp>
#include <parbench/mpi/timed_loop.hpp>
#include <parbench/pattern/pattern.hpp>
#include <parbench/policy/aggregation.hpp>
#include <parbench/policy/iterations.hpp>
#include <parbench/policy/sync.hpp>
#include <parbench/report/result.hpp>

#include <mpi.h>

#include <concepts>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace parbench::mpi {

// A message-passing check (resource.hpp's message_check) or no_check.
template <class Check>
concept data_check = message_check<Check> || std::same_as<Check, no_check>;

// The session's message buffers of `layout` (its send and receive pools, rotated over -off_cache
// slots): the resource of every message-passing benchmark, built by measure() from the session.
struct messages {
    buffer_layout layout{};
    off_cache cache{};
};

struct measurement {
    std::vector<result_record> records;  // the active set's first process only (deliver.hpp)
    std::size_t skipped_need_bytes = 0;  // > 0: not run, the resource exceeds the -mem cap
    bool allocation_failed = false;      // not run: some process could not allocate
    std::optional<storage_need> skipped_storage;  // not run: the files would not fit
    // The plan's batch_travel::reduced: the batch times reduced across the processes, on the
    // records' process (a suite's own figure of them, OSU's -z percentiles: osu/messages.hpp).
    std::optional<reduced_batches> reduced;
    // Each active process's own time per iteration, µs, in the active set's order, on the
    // records' process (phases.hpp's process_times_us: a suite whose figure is not the slowest
    // process's, OSU's pair tests and mbw_mr).
    std::vector<double> process_us;
    // With the plan's check: what this process's own check found (on every active process;
    // the records' defects are the sum of the counts), for a suite's per-process log (OSU's
    // -clog), and the timed iteration whose data it read.
    check::findings own_check{};
    std::uint64_t checked_iteration = 0;
    // Not timed, and the benchmark ends here: IMB 2021's -time budget of the block ran out
    // before this size's timed run (policy/imb_block_budget.hpp), or, under that budget, the
    // size was over the -mem cap (IMB 2021's SAMPLE_FAILED_MEMORY, which ends the benchmark as a
    // time-out does: helper_IMB_functions.h:556-557, 784-787); every process of the world knows
    // (mpi::end_of_size). skipped_need_bytes tells the two apart on the active processes.
    bool timed_out = false;
};

// What one measure() call times, by name: one size of one pattern. Designated initialisers
// follow the declaration order; only `pattern` and `kernel` are required:
//
//   mpi::measure(session, mpi::measure_config{.pattern = pattern::ping_pong{},
//                                             .labels = {.suite = "my", .benchmark = "Ssend"},
//                                             .bytes = 1024,
//                                             .resource = mpi::messages{.layout = {1024, 1024}},
//                                             .kernel = ssend_ping_pong});
//
// resource:   mpi::messages (the default: the session's pools), an RMA window (mpi::rma_window)
//             or any mpi::resource, built for session.context(bytes, pattern::pairing_of(pattern))
// completion: what ends an operation inside the timed region (one-sided patterns only)
// plan:       the iteration, sync and aggregation policies, batching, -mem cap and -check
// check:      the data check run when plan.check is set (a message_check on messages)
template <pattern::descriptor Pattern, class Kernel, class Resource = messages,
          class Completion = no_completion, class Plan = timing_plan<>, class Check = no_check>
struct measure_config {
    Pattern pattern;
    record_labels labels{};
    std::uint64_t bytes = 0;
    Resource resource{};
    Kernel kernel;
    Completion completion{};
    Plan plan{};
    Check check{};
};

template <class Plan>
inline constexpr bool is_timing_plan = false;
template <class Iterations, class Sync, class Aggregation>
inline constexpr bool is_timing_plan<timing_plan<Iterations, Sync, Aggregation>> = true;

// The resource a configuration names, ready for prepare(): message buffers from the session's
// pools, or the resource itself.
template <class Resource>
[[nodiscard]] auto resource_for(const session& s, Resource&& r) {
    if constexpr (std::same_as<std::remove_cvref_t<Resource>, messages>)
        return message_resource(r.layout, r.cache, s.send_pool(), s.recv_pool());
    else
        return std::forward<Resource>(r);
}

// Measures one size. Collective over the session's world: every process calls it with the same
// configuration. Returns the records on the active set's first process (world rank 0 unless a
// family's order puts another first: mpi/deliver.hpp).
template <pattern::descriptor Pattern, class Kernel, class Resource, class Completion, class Plan,
          class Check>
    requires(resource<Resource> ||
             (std::same_as<Resource, messages> && data_check<Check> &&
              kernel_for<Kernel, message_buffers<fixed_slots>> &&
              kernel_for<Kernel, message_buffers<rotating_slots>>)) &&
            is_timing_plan<Plan> &&
            (!completes<Completion> || pattern::completes_outside_kernel<Pattern>)
[[nodiscard]] measurement measure(
    const session& s, measure_config<Pattern, Kernel, Resource, Completion, Plan, Check> config) {
    using R = decltype(resource_for(s, std::move(config.resource)));
    measurement out;
    bool timed_out = false;
    {
        prepared<R> ready = prepare(s, resource_for(s, std::move(config.resource)),
                                    config.plan.mem_limit_bytes);
        if (ready.state() == preparation::over_memory_limit) out.skipped_need_bytes = ready.need_bytes();
        if (ready.state() == preparation::allocation_failed) out.allocation_failed = true;
        if (ready.state() == preparation::over_storage) out.skipped_storage = ready.storage();
        if (ready.ready()) {
            const kernel_context context = s.context(static_cast<std::size_t>(config.bytes),
                                                     pattern::pairing_of(config.pattern));
            rank_timing mine =
                time_iterations(s, config.pattern, ready, context, config.kernel,
                                config.completion, config.plan, config.bytes, config.check);
            timed_out = mine.timed_out;
            if (!timed_out) {
                gathered figures =
                    gather(s, mine, config.plan.batching.max_batches, config.plan.travel);
                out.records = reduce(config.pattern, config.labels, s.layout(), config.bytes,
                                     config.plan.check && checks_data<Check>, figures);
                out.process_us = process_times_us(config.pattern, figures);
                out.reduced = std::move(figures.reduced);
            }
            out.own_check = std::move(mine.found);
            out.checked_iteration = mine.checked_iteration;
        }
    }  // the resource is torn down here, before the idle processes are released
    out.timed_out = end_of_size(s, config.plan.iterations, timed_out || out.skipped_need_bytes > 0);
    return out;
}

// IMB's warm-up: `iterations` untimed runs of the kernel at a small size (sizeof(float)) once per
// active set, to take connection setup and first-touch costs out of the first measurement. Only
// the active processes take part; call it on every process after the host's progress call.
inline constexpr std::uint64_t n_warmup = 10;

template <resource R, class Kernel, class Completion = no_completion>
void warm_up(const session& s, R resource, Kernel&& kernel, Completion&& completion = {},
             std::uint64_t iterations = n_warmup, std::size_t bytes = 0,
             pattern::pairing pairs = pattern::first_pair) {
    if (!s.active() || iterations == 0) return;
    prepared<R> ready = prepare(s, std::move(resource), 0.0);
    if (!ready.ready()) return;
    const kernel_context context = s.context(bytes, pairs);
    ready.get().begin_access();
    ready.get().visit([&](const auto& view) {
        run_untimed<false>(kernel, context, view, completion, 0, iterations);
    });
    ready.get().end_access();
}

template <class Kernel>
    requires kernel_for<Kernel, message_buffers<fixed_slots>>
void warm_up(const session& s, std::uint64_t bytes, buffer_layout layout, Kernel&& kernel,
             std::uint64_t iterations = n_warmup) {
    warm_up(s, message_resource(layout, off_cache{}, s.send_pool(), s.recv_pool()),
            std::forward<Kernel>(kernel), no_completion{}, iterations,
            static_cast<std::size_t>(bytes));
}

}  // namespace parbench::mpi
