// How the osu suite measures a message-passing definition (osu/point_to_point.hpp,
// osu/collectives.hpp) through osu/family.hpp's sweep: one session over the processes the
// definition uses (a pair: processes 0 and 1; all: every process), OSU's counts of its kind with
// -i/-x applied, the -M limit, and per size mpi::measure() on message buffers of the
// definition's layout. OSU's MB/s come from the pattern's throughput rule (bytes of one iteration
// over its time); a definition that combines two timings (bcast_ack) brings its own
// `measure_size`.
//
// A definition provides: descriptor(options), layout(x, np), make_kernel(context, options),
// verify_check, counts, max_bytes (OSU's default MAX), unit (element size) and has_bytes; a
// persistent test also request_maker(context, options): what makes its requests on the buffers
// once per size (mpi/persistent.hpp) for its kernel to start.
#pragma once

#include "osu/datatypes.hpp"
#include "osu/family.hpp"
#include "osu/options.hpp"
#include "osu/suite.hpp"
#include "osu/table.hpp"

#include <parbench/mpi/definition.hpp>
#include <parbench/mpi/persistent.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/pattern.hpp>
#include <parbench/policy/sync.hpp>

#include <mpi.h>

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::osu {

// The plan every message-passing test of one run shares: OSU's fixed counts, two barriers
// before the timed loop, the -M limit and -c.
using message_plan = mpi::timing_plan<policy::iterations::fixed_count, policy::sync::barrier,
                                      policy::aggregation::aggregate>;

// The resource of one size: the session's message buffers of the definition's layout, with the
// persistent requests it makes on them where it has any (request_maker: the *_persistent tests).
template <class Def>
[[nodiscard]] auto message_resource_of(const mpi::session& s, const options& o,
                                       const mpi::kernel_context& context, std::size_t bytes) {
    const mpi::buffer_layout layout = [&] {
        if constexpr (requires { Def::layout(bytes, 2, o); })  // -b multiple's window buffers
            return Def::layout(bytes, s.layout().processes, o);
        else
            return Def::layout(bytes, s.layout().processes);
    }();
    if constexpr (requires { Def::request_maker(context, o); })
        return mpi::persistent_requests(
            mpi::message_resource(layout, {}, s.send_pool(), s.recv_pool()), context,
            Def::request_maker(context, o));
    else
        return mpi::messages{.layout = layout};
}

// The plan of the collectives, whose calls OSU 7.5 times one by one: the same counts, limit and
// -c, with a sync policy chosen per run (per_call_plan_of); never window sync (OSU has no
// -start_sync), so no windowed loop is compiled for them.
using collective_plan =
    mpi::timing_plan<policy::iterations::fixed_count, policy::sync::barrier_or_each_call,
                     policy::aggregation::aggregate>;

// A definition OSU 7.5 times call by call (its blocking, persistent and neighbourhood
// collectives; the window tests, a window being one call) says how many MPI_Barrier follow each
// timed call: 1 (osu_allreduce.c and the others: t_start, the call, t_stop, MPI_Barrier), 0 for
// osu_barrier and osu_barrier_persistent (the barrier is the call) and for bw, bibw and their
// persistent forms (osu_bw.c:224-262: the next window at once), 2 for mbw_mr
// (osu/point_to_point.hpp). A definition with OSU's method of an older release (bcast_ack)
// sets it to only_batched.
inline constexpr int only_batched = -1;
template <class Def>
concept timed_per_call = requires {
    { Def::barriers_after_call } -> std::convertible_to<int>;
} && Def::barriers_after_call != only_batched;

// OSU 7.5's method (the default): one MPI_Barrier before the size's loop, then every call timed
// on its own with Def::barriers_after_call barriers after it, outside the timed part; each
// process's time per call is the sum of its calls' times over the iterations, and the row's Avg
// Latency is the mean of the processes' times, Min and Max their extremes
// (util/osu_util_mpi.c print_stats via osu_allreduce.c's three MPI_Reduce). -batched: parbench's
// loop of calls timed as one batch, with no barrier between calls.
// `barriers_after` barriers after each timed call; the plan of `plan` otherwise.
[[nodiscard]] inline collective_plan per_call_plan(const options& o, const message_plan& plan,
                                                   int barriers_after) {
    policy::sync::barrier_or_each_call sync{.which = policy::sync::method::each_call,
                                            .barriers = {.count = 1},
                                            .after_call = barriers_after};
    if (o.batched) sync = {.which = policy::sync::method::barrier, .barriers = plan.sync};
    return {.iterations = plan.iterations,
            .sync = sync,
            .batching = plan.batching,
            .mem_limit_bytes = plan.mem_limit_bytes,
            .check = plan.check,
            .travel = plan.travel};
}
template <class Def>
    requires timed_per_call<Def>
[[nodiscard]] collective_plan per_call_plan_of(const options& o, const message_plan& plan) {
    return per_call_plan(o, plan, Def::barriers_after_call);
}

// -z: OSU 7.5 takes its percentiles over the times of single iterations (omb_lat_arr[i -
// options.skip], osu_latency.c:215-219; the collectives' per call, osu_allreduce.c), so under -z
// each timed iteration is a sample of its own (one clock read per iteration, as OSU reads it),
// up to max_tail_samples; beyond, consecutive iterations share a sample.
inline constexpr std::size_t max_tail_samples = std::size_t{1} << 16;

[[nodiscard]] inline policy::aggregation::batched batching_of(const options& o) noexcept {
    if (o.percentiles.empty()) return {};
    return {.max_batches = max_tail_samples, .min_batch_s = 0.0};
}

// -z's series are reduced across the processes, as OSU reduces its omb_lat_arr
// (osu_util_mpi.c:727-728), instead of gathered whole to one process.
[[nodiscard]] inline mpi::batch_travel travel_of(const options& o) noexcept {
    return o.percentiles.empty() ? mpi::batch_travel::gathered : mpi::batch_travel::reduced;
}

// OSU 7.5's series of times for -z, µs per iteration: where the table's figure is a mean over
// the processes (the collectives; multi_lat, which OSU gives no -z), each iteration's mean over
// them (omb_get_stats: MPI_Reduce SUM, then / comm_size, osu_util_mpi.c:714-750, called by
// osu_allreduce.c:196 and every blocking, persistent and neighbourhood collective; on the
// nonblocking ones of the overall loop's iterations, osu_iallreduce.c:261-264, :278); otherwise
// process 0's own times (the pair tests: omb_calculate_tail_lat(omb_lat_arr, myid, 1) on process
// 0 alone, osu_latency.c:288, osu_latency_persistent.c:301, osu_latency_mp.c:303,
// osu_partitioned_latency.c:520).
// `mean`: the table's figure is the mean over the processes (its first column is t_avg_us).
[[nodiscard]] inline std::vector<double> tail_series_us(const mpi::reduced_batches& b,
                                                        double time_divisor, bool mean) {
    const std::vector<double>& seconds = mean ? b.sum_s : b.first_s;
    const double scale = 1e6 / time_divisor / (mean ? std::max(1, b.processes) : 1);
    std::vector<double> us;
    us.reserve(seconds.size());
    for (const double t : seconds) us.push_back(t * scale);
    return us;
}

// -z's series of one size: a latency table's times (tail_series_us), a bandwidth table's MB/s of
// `iteration_bytes` over process 0's single iterations (tail_bandwidths_mb_s).
[[nodiscard]] inline std::vector<double> tail_series(const mpi::reduced_batches& b,
                                                     tail_figure kind, double time_divisor,
                                                     bool mean, double iteration_bytes) {
    return kind == tail_figure::bandwidth ? tail_bandwidths_mb_s(b.first_s, iteration_bytes)
                                          : tail_series_us(b, time_divisor, mean);
}

// What OSU adds to one size's records, the same for every definition (compiled once;
// message_method::measure says what it knows of the definition): a pair test's figure, process
// 0's own time (osu/table.hpp, process0_time_metric), or mbw_mr's, the mean of its senders', the
// first half of the processes (senders_time_metric); a latency test's -z tail latencies
// (tail_series_us; `mean_tails`: over the processes' mean), a bandwidth test's -z MB/s of
// process 0's single windows (osu_bw.c:269-274, osu_bibw.c:284-289, osu_bw_persistent.c:282-287,
// osu_bibw_persistent.c:297-302, osu_mbw_mr.c:553-557: rank 0's window, tmp_total of every
// pair; omb_calculate_tail_lat(omb_lat_arr, myid, 1) on process 0 alone, osu_bw.c:379-382,
// osu_mbw_mr.c:647); MB/s and the message rate by the pattern's throughput `factor`.
enum class own_time { none, process0, senders };
inline void add_size_figures(mpi::measurement& m, const options& o, std::uint64_t x, own_time own,
                             tail_figure tails, bool mean_tails, double time_divisor,
                             std::optional<double> factor) {
    if (!m.process_us.empty()) {
        if (own == own_time::process0) {
            for (auto& r : m.records) r.metrics[process0_time_metric] = m.process_us.front();
        } else if (own == own_time::senders) {
            const std::size_t senders = std::max<std::size_t>(1, m.process_us.size() / 2);
            double sum = 0.0;
            for (std::size_t k = 0; k < senders; ++k) sum += m.process_us[k];
            for (auto& r : m.records)
                r.metrics[senders_time_metric] = sum / static_cast<double>(senders);
        }
    }
    const bool has_tails =
        tails == tail_figure::latency || (tails == tail_figure::bandwidth && factor);
    if (m.reduced && has_tails) {
        const double iteration_bytes =
            factor.value_or(0.0) * static_cast<double>(payload_bytes(o, x));
        add_tail_figures(m.records,
                         tail_series(*m.reduced, tails, time_divisor, mean_tails, iteration_bytes),
                         o, tails);
    }
    if (factor)
        for (auto& r : m.records) {
            add_bandwidth(r, *factor * static_cast<double>(payload_bytes(o, x)));
            if (r.message_rates && r.message_rates->messages_per_s) add_message_rate(r, *factor);
        }
}

// The definition's -c check with the options it depends on (the root of -k), or its default.
// A check of bytes (point_to_point.hpp bytes_of_partner) lists the elements of -T's datatype.
template <class Def>
[[nodiscard]] auto check_of(const options& o) {
    auto check = [&] {
        if constexpr (requires { Def::make_check(o); })
            return Def::make_check(o);
        else
            return typename Def::verify_check{};
    }();
    if constexpr (requires { check.typed_by = std::size_t{1}; })
        check.typed_by = element_bytes(o.table_datatype);
    return check;
}

template <class Def>
[[nodiscard]] mpi::measurement measure_message_size(const mpi::session& s, const options& o,
                                                    const mpi::record_labels& labels,
                                                    std::uint64_t x, const message_plan& plan) {
    const auto descriptor = Def::descriptor(o);
    const auto bytes = static_cast<std::size_t>(x);
    const mpi::kernel_context context = s.context(bytes, pattern::pairing_of(descriptor));
    const auto config = [&](const auto& chosen_plan) {
        return mpi::measure_config{.pattern = descriptor,
                                   .labels = labels,
                                   .bytes = x,
                                   .resource = message_resource_of<Def>(s, o, context, bytes),
                                   .kernel = Def::make_kernel(context, o),
                                   .plan = chosen_plan,
                                   .check = check_of<Def>(o)};
    };
    if constexpr (timed_per_call<Def>)
        return mpi::measure(s, config(per_call_plan_of<Def>(o, plan)));
    else
        return mpi::measure(s, config(plan));
}

// Whether a definition takes -T (a collective with data: osu/collectives.hpp; the point-to-point
// tests of osu/point_to_point.hpp).
template <class Def>
[[nodiscard]] constexpr bool takes_datatype_of() noexcept {
    if constexpr (requires { Def::takes_datatype; })
        return Def::takes_datatype;
    else
        return false;
}

// The element size of a definition's sizes: -T's datatype of the table, or its own unit.
template <class Def>
[[nodiscard]] std::uint64_t unit_of(const options& o) noexcept {
    if constexpr (takes_datatype_of<Def>())
        return element_bytes(o.table_datatype);
    else
        return Def::traits.unit;
}

// Where a definition's sizes start without -m: OSU's point-to-point latency tests at 0 bytes.
template <class Def>
[[nodiscard]] constexpr std::uint64_t smallest_of() noexcept {
    if constexpr (requires { Def::smallest_bytes; })
        return Def::smallest_bytes;
    else
        return 1;
}

// The method of osu/family.hpp for a message-passing definition: the pair or every process, OSU's
// sizes of the definition, and per size its own measure_size or measure_message_size with OSU's
// MB/s from the pattern's throughput rule.
template <class Def>
struct message_method {
    [[nodiscard]] static int processes(const run_state& st) {
        return Def::all_processes ? st.world_size : 2;
    }
    [[nodiscard]] static std::vector<std::uint64_t> sizes(const options& o) {
        if (!Def::traits.has_bytes) return {0};
        std::vector<std::uint64_t> sizes =
            message_sizes(o, Def::max_bytes, unit_of<Def>(o), smallest_of<Def>());
        // -D indx: a message must hold the indexed type's last block (ddt_fits)
        std::erase_if(sizes, [&](std::uint64_t x) { return !ddt_fits(o, unit_of<Def>(o), x); });
        return sizes;
    }
    [[nodiscard]] static mpi::measurement measure(const mpi::session& s, const options& o,
                                                  std::string_view name, std::uint64_t x) {
        const message_plan plan{.iterations = o.counts(Def::counts),
                                .batching = batching_of(o),
                                .mem_limit_bytes = static_cast<double>(o.mem_limit_bytes),
                                .check = o.check,
                                .travel = travel_of(o)};
        const mpi::record_labels labels{.suite = "osu",
                                        .benchmark = std::string(name),
                                        .has_bytes = Def::traits.has_bytes};
        mpi::measurement m;
        if constexpr (requires { Def::measure_size(s, o, labels, x, plan); })
            m = Def::measure_size(s, o, labels, x, plan);
        else
            m = measure_message_size<Def>(s, o, labels, x, plan);
        constexpr own_time own = !Def::all_processes                       ? own_time::process0
                                 : requires { Def::windowed; } ? own_time::senders
                                                               : own_time::none;
        // -z's series: the mean over the processes where the figure is (t_avg_us), but on
        // partitioned_latency (a nonblocking table of a pair) process 0's, as OSU's
        // omb_calculate_tail_lat(omb_lat_arr, myid, 1), osu_partitioned_latency.c:520
        bool mean_tails = false;
        if constexpr (Def::text.latency || Def::text.nonblocking)
            mean_tails = std::string_view(Def::text.figures[0].source) == "t_avg_us" &&
                         Def::all_processes;
        const auto descriptor = Def::descriptor(o);
        add_size_figures(m, o, x, own, tail_of(Def::text), mean_tails, descriptor.time_divisor,
                         pattern::throughput_factor(descriptor, s.layout().processes,
                                                    s.layout().groups));
        // Where the processes ran: a test of every pair at once (multi_lat, mbw_mr: r <-> r + n/2)
        // names each pair's nodes, as IMB-MT's and PAW's rows do (one group of every process
        // would call two intra-node pairs on two nodes inter-node).
        if constexpr (Def::all_processes && requires { Def::descriptor(o).pairs; }) {
            const pattern::pairing pairs = Def::descriptor(o).pairs;
            if (pairs.kind == pattern::pairing_kind::halves)
                for (auto& r : m.records)
                    r.placement = mpi::pair_placement(s.layout(), [&](int position, int q) {
                        return pairs.partner(position, q);
                    });
        }
        return m;
    }
};

// mbw_mr -V (osu_mbw_mr.c:215-330): per size, the test at each of OSU's WINDOW_SIZES in turn,
// -W aside; each record is one cell of OSU's table, its window its message_rates.window_size
// (the metric "window_size" in JSON) and its
// mode "window:W" (which keeps the records' JSON names apart). The console prints them as
// OSU's matrix (report/osu_console.hpp, the block's "window_matrix").
template <class Def>
struct varied_window_method : message_method<Def> {
    [[nodiscard]] static mpi::measurement measure(const mpi::session& s, const options& o,
                                                  std::string_view name, std::uint64_t x) {
        mpi::measurement all;
        for (const std::uint64_t w : varied_windows) {
            options one = o;
            one.window_size = w;
            mpi::measurement m = message_method<Def>::measure(s, one, name, x);
            for (auto& r : m.records) {
                message_rates_of(r).window_size = w;
                r.block.mode = "window:" + std::to_string(w);
                all.records.push_back(std::move(r));
            }
            all.skipped_need_bytes = std::max(all.skipped_need_bytes, m.skipped_need_bytes);
            all.allocation_failed = all.allocation_failed || m.allocation_failed;
        }
        return all;
    }
};

// A test that OSU runs either way (mbw_mr: -W's window, or -V's windows).
template <class Def>
void run_window_or_varied(const run_state& st, std::string_view name) {
    if (st.opts->vary_window)
        run_sweep<varied_window_method<Def>>(st, name);
    else
        run_sweep<message_method<Def>>(st, name);
}

// The catalogue entry of a message-passing definition: its class is its descriptor's (OSU's
// descriptors take the options, the class never depends on them).
template <class Def>
    requires(mpi::check_definition<Def>())
[[nodiscard]] constexpr benchmark message_entry(const char* name, const char* description,
                                                std::uint32_t flags) {
    const benchmark_class klass = Def::descriptor(options{}).klass;
    return {.info = plugin::catalogue_row(name, description, klass,
                                          flags | mpi::verification_flag<Def>()),
            .text = Def::text,
            .run = [] {
                if constexpr (requires { Def::varies_window; })
                    return &run_window_or_varied<Def>;
                else
                    return &run_sweep<message_method<Def>>;
            }(),
            .all_processes = Def::all_processes,
            .even_processes = [] {
                if constexpr (requires { Def::even_processes; }) return Def::even_processes;
                return false;
            }(),

            .sized = Def::traits.has_bytes,
            .max_bytes = Def::max_bytes,
            .unit = Def::traits.unit,
            .smallest = smallest_of<Def>(),
            .window = [] {
                if constexpr (requires { Def::windowed; }) return window_use::requests;
                return window_use::none;
            }(),
            .refusal = [] {
                if constexpr (requires { Def::refusal(0); })
                    return &Def::refusal;
                else
                    return static_cast<std::string (*)(int)>(nullptr);
            }(),
            .refusal_with = [] {
                if constexpr (requires { Def::refusal_with(options{}, 0); })
                    return &Def::refusal_with;
                else
                    return static_cast<std::string (*)(const options&, int)>(nullptr);
            }(),
            .takes_datatype = takes_datatype_of<Def>(),
            .names_default_datatype = [] {
                if constexpr (requires { Def::names_default_datatype; })
                    return Def::names_default_datatype;
                return true;
            }(),
            .takes_in_place = [] {
                if constexpr (requires { Def::takes_in_place; }) return Def::takes_in_place;
                return false;
            }(),
            .takes_root = [] {
                if constexpr (requires { Def::takes_root; }) return Def::takes_root;
                return false;
            }(),
            .takes_buffers = [] {
                if constexpr (requires { Def::takes_buffers; }) return Def::takes_buffers;
                return false;
            }(),
            .takes_buffers_with_accelerator = [] {
                if constexpr (requires { Def::takes_buffers_with_accelerator; })
                    return Def::takes_buffers_with_accelerator;
                return true;
            }(),
            .takes_pairs_options_with_accelerator = [] {
                if constexpr (requires { Def::takes_pairs_options_with_accelerator; })
                    return Def::takes_pairs_options_with_accelerator;
                return false;
            }(),
            .takes_ddt = [] {
                if constexpr (requires { Def::takes_ddt; }) return Def::takes_ddt;
                return false;
            }(),
            .reduction = [] {
                if constexpr (requires { Def::sums_elements; }) return Def::sums_elements;
                return false;
            }(),
            .device_buffers = [] {
                if constexpr (requires { Def::device_buffers; }) return Def::device_buffers;
                return device_placement::none;
            }(),
            .osu_letters = [] {
                if constexpr (requires { Def::osu_letters; }) return Def::osu_letters;
                return static_cast<const char*>(nullptr);
            }()};
}

}  // namespace parbench::osu
