// The MPI runner: one measurement of one pattern at one size on an active set of processes — the
// phases of mpi/phases.hpp composed. Collective over the session's world: idle processes wait in
// a barrier that sleeps instead of spinning (IMB's MPI_Barrier would steal cores); active ones
// prepare the resource (-mem cap, agreed allocation, collective setup), time the size (the
// iteration policy's warm-up and count, the sync policy, the batched timed loop with the
// completion where the aggregation policy puts it, -check), gather every process's figures to
// world rank 0, which reduces them to records, and tear the resource down.
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

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace parbench::mpi {

// A message-passing check (resource.hpp's message_check) or no_check.
template <class Check>
concept data_check = message_check<Check> || std::same_as<Check, no_check>;

// The message-passing runner's options (IMB-MPI1 and every suite of messages).
struct measure_options {
    policy::iterations::imb_volume iterations{};
    policy::aggregation::batched batching{};
    off_cache cache{};
    double mem_limit_bytes = 0.0;  // per process; 0: no cap
    bool check = false;
};

struct measurement {
    std::vector<result_record> records;  // world rank 0 only
    std::size_t skipped_need_bytes = 0;  // > 0: not run, the resource exceeds the -mem cap
    bool allocation_failed = false;      // not run: some process could not allocate
    std::optional<storage_need> skipped_storage;  // not run: the files would not fit
};

// Measures one size on any resource with any completion and plan. Collective over the session's
// world: every process calls it with the same arguments. `kernel` and `resource` are built for
// s.context(bytes, pattern::pairing_of(pattern)). Returns the records on world rank 0.
template <pattern::descriptor Pattern, resource R, class Kernel, class Completion,
          class Iterations, class Sync, class Aggregation, class Check = no_check>
    requires(!completes<Completion> || pattern::completes_outside_kernel<Pattern>)
[[nodiscard]] measurement measure(const session& s, const Pattern& pattern,
                                  const record_labels& labels, std::uint64_t bytes, R resource,
                                  Kernel&& kernel, Completion&& completion,
                                  timing_plan<Iterations, Sync, Aggregation>& plan,
                                  const Check& check = {}) {
    measurement out;
    {
        prepared<R> ready = prepare(s, std::move(resource), plan.mem_limit_bytes);
        if (ready.state() == preparation::over_memory_limit) out.skipped_need_bytes = ready.need_bytes();
        if (ready.state() == preparation::allocation_failed) out.allocation_failed = true;
        if (ready.state() == preparation::over_storage) out.skipped_storage = ready.storage();
        if (ready.ready()) {
            const kernel_context context =
                s.context(static_cast<std::size_t>(bytes), pattern::pairing_of(pattern));
            const rank_timing mine = time_iterations(s, pattern, ready, context, kernel,
                                                     completion, plan, bytes, check);
            const gathered figures = gather(s, mine, plan.batching.max_batches);
            out.records = reduce(pattern, labels, s.layout(), bytes,
                                 plan.check && Check::enabled, figures);
        }
    }  // the resource is torn down here, before the idle processes are released
    s.world().quiet_barrier();
    return out;
}

// The message-passing form: send/receive buffers of `layout` from the session's pools, no
// completion, IMB's volume rule.
template <pattern::descriptor Pattern, class Kernel, data_check Check = no_check,
          class Sync = policy::sync::barrier,
          policy::aggregation_policy Aggregation = policy::aggregation::aggregate>
    requires kernel_for<Kernel, message_buffers<fixed_slots>> &&
             kernel_for<Kernel, message_buffers<rotating_slots>> &&
             policy::sync_policy<Sync, const communicator>
[[nodiscard]] measurement measure(const session& s, const Pattern& pattern,
                                  const record_labels& labels, std::uint64_t bytes,
                                  buffer_layout layout, Kernel&& kernel,
                                  const measure_options& options, const Check& check = {},
                                  Sync sync = {}, Aggregation = {}) {
    timing_plan<policy::iterations::imb_volume, Sync, Aggregation> plan{
        options.iterations, sync, {}, options.batching, options.mem_limit_bytes, options.check};
    return measure(s, pattern, labels, bytes,
                   message_resource(layout, options.cache, s.send_pool(), s.recv_pool()),
                   std::forward<Kernel>(kernel), no_completion{}, plan, check);
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
