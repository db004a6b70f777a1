// How an OSU one-sided test runs with each of OSU's synchronisations (-s), as parbench's parts:
// the epoch the window holds across iterations, the completion inside each iteration, the kernel
// and the pattern. One iteration is timed per OSU iteration, the completion never aggregated:
//
//   -s           epoch held      completion per iteration     OSU's loop
//   lock         none            lock / unlock                lock; ops; unlock
//   flush        lock            MPI_Win_flush                lock once; ops; flush
//   flush_local  lock            MPI_Win_flush_local          lock once; ops; flush_local
//   lock_all     none            lock_all / unlock_all        lock_all; ops; unlock_all
//   fence        fence           fence (bandwidth tests)      fence; ops; fence
//   pscw         none            post/start/complete/wait     start; ops; complete | post; wait
//
// The latency tests with fence and pscw are OSU's round trips (process 0, then process 1, each in
// its own epoch), reported as half of one. A definition (suites/osu.cpp) says which operation,
// latency or bandwidth, which -s it accepts and its default.
#pragma once

#include "osu/datatypes.hpp"
#include "osu/family.hpp"
#include "osu/messages.hpp"
#include "osu/options.hpp"
#include "osu/suite.hpp"

#include <parbench/mpi/definition.hpp>
#include <parbench/mpi/rma_completion.hpp>
#include <parbench/mpi/rma_window.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/one_sided.hpp>
#include <parbench/suites/rma/kernels.hpp>

#include <mpi.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::osu {

using namespace rma_kernels;

enum class measures { latency, bandwidth };

template <class Def, sync S>
struct one_sided_method {
    static constexpr bool round_trip =
        Def::kind == measures::latency && (S == sync::fence || S == sync::pscw);
    static constexpr bool both_sides = round_trip || Def::bidirectional;

    static constexpr mpi::window_epoch epoch = S == sync::flush || S == sync::flush_local
                                                   ? mpi::window_epoch::lock
                                               : S == sync::fence ? mpi::window_epoch::fence
                                                                  : mpi::window_epoch::none;

    [[nodiscard]] static constexpr pattern::one_sided descriptor(std::uint64_t window) {
        const int per_side = static_cast<int>(window);
        return {.nmsg = Def::bidirectional ? 2 * per_side : per_side,
                .time_divisor = round_trip ? 2.0 : 1.0,
                .pairs = {.kind = pattern::pairing_kind::first_pair, .both_initiate = both_sides},
                .throughput = Def::kind == measures::bandwidth
                                  ? pattern::throughput_rule::per_iteration
                                  : pattern::throughput_rule::none};
    }

    // The accumulates' and atomics' element: -T's datatype of the table (OSU 7.5's acc, fop
    // and cas take -T, MPI_CHAR by default: osu_util.c:588-602 gives their option string T:,
    // osu_fop_latency.c:57, :129-150 pass mpi_type_list's type); get_acc_latency, which takes no
    // -T, MPI_CHAR alone (osu_get_acc_latency.c:183).
    [[nodiscard]] static element element_of(const options& o) noexcept {
        return {.type = mpi_datatype(o.table_datatype, false),
                .size = element_bytes(o.table_datatype),
                .floating = o.table_datatype == datatype::mpi_float};
    }

    // A definition may bring its own kernel (the testing module's corrupting put).
    [[nodiscard]] static auto kernel(const kernel_context& c, std::uint64_t window,
                                     const element& e = default_element(Def::op)) {
        if constexpr (requires { Def::make_kernel(c, window); })
            return Def::make_kernel(c, window);
        else if constexpr (round_trip && S == sync::fence)
            return fence_round_trip<Def::op>{e};
        else if constexpr (round_trip)
            return pscw_round_trip<Def::op>(c, e);
        else
            return transfers<Def::op>{window, e};
    }

    [[nodiscard]] static auto completion(const kernel_context& c) {
        if constexpr (round_trip) return mpi::no_completion{};
        else if constexpr (S == sync::lock) return mpi::rma::lock_per_transfer{};
        else if constexpr (S == sync::flush) return mpi::rma::flush{};
        else if constexpr (S == sync::flush_local) return mpi::rma::flush_local{};
        else if constexpr (S == sync::lock_all) return mpi::rma::lock_all_per_transfer{};
        else if constexpr (S == sync::fence) return mpi::rma::fence{};
        else return mpi::rma::pscw(c);
    }

    // The hooks of osu/family.hpp: the pair, OSU's sizes (the atomics move one element, the
    // size OSU prints: print_latency(rank, dtype_size, ...), osu_fop_latency.c:294; the
    // accumulates whole elements), and one size on a window of -W sections with the -s
    // completion.
    [[nodiscard]] static int processes(const run_state& /*st*/) { return 2; }
    [[nodiscard]] static std::vector<std::uint64_t> sizes(const options& o) {
        if constexpr (Def::op == rma_op::fetch_and_op || Def::op == rma_op::compare_and_swap)
            return {element_bytes(o.table_datatype)};
        else if constexpr (Def::op == rma_op::accumulate)
            return message_sizes(o, default_max_bytes, element_bytes(o.table_datatype));
        else
            return message_sizes(o);
    }
    [[nodiscard]] static mpi::measurement measure(const mpi::session& s, const options& o,
                                                  std::string_view name, std::uint64_t x) {
        const std::uint64_t window = Def::kind == measures::bandwidth ? o.window_size : 1;
        const pattern::one_sided rma_pattern = descriptor(window);
        mpi::timing_plan<policy::iterations::fixed_count, policy::sync::barrier,
                         policy::aggregation::non_aggregate>
            plan{.iterations = o.counts(Def::kind == measures::latency ? latency_counts
                                                                           : bandwidth_counts),
                 .check = o.check};
        plan.mem_limit_bytes = static_cast<double>(o.mem_limit_bytes);
        // -z: one sample per iteration, reduced (osu/messages.hpp, batching_of and travel_of)
        plan.batching = batching_of(o);
        plan.travel = travel_of(o);
        const auto bytes = static_cast<std::size_t>(x);
        const kernel_context context = s.context(bytes, rma_pattern.pairs);
        const element e = element_of(o);
        // -d: this process's memory where SRC or DST says (the session's space, osu/family.hpp);
        // with device memory on either side OSU 7.5 makes -w allocate's window with
        // MPI_Win_create over memory it allocated (allocate_memory_one_sided,
        // osu_util_mpi.c:2864-2866, :2936-2943), as most MPI libraries cannot allocate it there
        const bool host_only = !device_buffers_asked(o);
        const mpi::window_plan window_plan{
            .creation = o.creation == mpi::window_creation::allocate && !host_only
                            ? mpi::window_creation::create
                            : o.creation,
            .epoch = epoch,
            .bytes = bytes,
            .sections = window,
            .result_bytes = result_bytes(Def::op, bytes, window),
            .memory = s.send_pool().space()};
        mpi::measurement m =
            mpi::measure(s, mpi::measure_config{.pattern = rma_pattern,
                                                .labels = {"osu", std::string(name)},
                                                .bytes = x,
                                                .resource = mpi::rma_window(window_plan, context),
                                                .kernel = kernel(context, window, e),
                                                .completion = completion(context),
                                                .plan = plan,
                                                .check = data_check<Def::op>{e}});
        // OSU prints process 0's own time (osu/table.hpp, process0_time_metric), its MB/s over it
        if (!m.process_us.empty())
            for (auto& r : m.records) r.metrics[process0_time_metric] = m.process_us.front();
        if constexpr (Def::kind == measures::bandwidth)
            for (auto& r : m.records)
                add_bandwidth(r, static_cast<double>(rma_pattern.nmsg) * static_cast<double>(x));
        // -z: OSU 7.5's percentiles of process 0's single iterations (omb_calculate_tail_lat(
        // omb_lat_arr, rank, 1), osu_put_latency.c:224-225, halved on the round trips :554-555,
        // :666-667; osu_get_latency.c, osu_acc_latency.c:271-273, osu_fop_latency.c,
        // osu_cas_latency.c, osu_get_acc_latency.c:190-191), MB/s of their W transfers
        // (osu_put_bw.c:232-234, osu_get_bw.c:230-232; 2 W on put_bibw, osu_put_bibw.c:223-225)
        if (m.reduced) {
            constexpr tail_figure tails =
                Def::kind == measures::bandwidth ? tail_figure::bandwidth : tail_figure::latency;
            add_tail_figures(m.records,
                             tail_series(*m.reduced, tails, rma_pattern.time_divisor, false,
                                         static_cast<double>(rma_pattern.nmsg) *
                                             static_cast<double>(x)),
                             o, tails);
        }
        return m;
    }
};

// Runs a definition with the -s given (already checked against Def::syncs) or its default.
template <class Def>
void run_one_sided(const run_state& st, std::string_view name) {
    const sync chosen = st.opts->synchronization.value_or(Def::default_sync);
    const auto with = [&]<sync S>() {
        if constexpr (Def::accepts(S)) {
            if (chosen == S) run_sweep<one_sided_method<Def, S>>(st, name);
        }
    };
    with.template operator()<sync::lock>();
    with.template operator()<sync::flush>();
    with.template operator()<sync::flush_local>();
    with.template operator()<sync::lock_all>();
    with.template operator()<sync::pscw>();
    with.template operator()<sync::fence>();
}

// The catalogue entry of a one-sided definition: its class is its descriptor's.
template <class Def>
    requires(mpi::check_definition<Def>())
[[nodiscard]] constexpr benchmark one_sided_entry(const char* name, const char* description,
                                                  std::uint32_t flags) {
    benchmark b{plugin::catalogue_row(name, description,
                                  one_sided_method<Def, Def::default_sync>::descriptor(1).klass,
                                  flags),
            {.banner = Def::banner,
             .datatype = Def::datatype,
             // osu_get_acc_latency.c's BENCHMARK has no %s for the accelerator
             .names_accelerator = Def::op != rma_op::get_accumulate,
             .one_sided = true,
             // process 0's time, or MB/s over it (osu/table.hpp, process0_time_metric)
             .figures = {Def::kind == measures::latency ? one_sided_latency_figure
                                                        : bandwidth_figure}},
            Def::syncs,
            Def::default_sync,
            &run_one_sided<Def>,
            false,
            false,
            // the atomics move one integer whatever -m says
            Def::op != rma_op::fetch_and_op && Def::op != rma_op::compare_and_swap,
            default_max_bytes,
            1,
            1,
            Def::kind == measures::bandwidth ? window_use::sections : window_use::none};
    // -T (OSU 7.5: acc_latency, fop_latency, cas_latency; their records keep their names
    // without it)
    if constexpr (requires { Def::takes_datatype; }) {
        b.takes_datatype = Def::takes_datatype;
        b.names_default_datatype = false;
        b.unit = Def::op == rma_op::accumulate ? 1 : b.unit;
    }
    if constexpr (requires { Def::refusal_with(options{}, 0); })
        b.refusal_with = &Def::refusal_with;
    // -d: process 0's origin, result and window memory where SRC says, process 1's where DST
    // says (allocate_memory_one_sided, allocate_atomic_memory: osu_util_mpi.c:2854-2905);
    // get_acc_latency takes -d and keeps its buffers on the host (posix_memalign,
    // osu_get_acc_latency.c:98-104; its window over them, :695-720)
    b.device_buffers = Def::op == rma_op::get_accumulate ? device_placement::host
                                                          : device_placement::pair;
    b.osu_letters =
        Def::kind == measures::bandwidth ? letters::one_sided_bw : letters::one_sided_lat;
    return b;
}

}  // namespace parbench::osu
