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

#include "osu/family.hpp"
#include "osu/options.hpp"
#include "osu/suite.hpp"

#include <parbench/mpi/definition.hpp>
#include <parbench/mpi/persistent.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/pattern.hpp>

#include <mpi.h>

#include <cstdint>
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
    const mpi::buffer_layout layout = Def::layout(bytes, s.layout().processes);
    if constexpr (requires { Def::request_maker(context, o); })
        return mpi::persistent_requests(
            mpi::message_resource(layout, {}, s.send_pool(), s.recv_pool()), context,
            Def::request_maker(context, o));
    else
        return mpi::messages{.layout = layout};
}

template <class Def>
[[nodiscard]] mpi::measurement measure_message_size(const mpi::session& s, const options& o,
                                                    const mpi::record_labels& labels,
                                                    std::uint64_t x, const message_plan& plan) {
    const auto descriptor = Def::descriptor(o);
    const auto bytes = static_cast<std::size_t>(x);
    const mpi::kernel_context context = s.context(bytes, pattern::pairing_of(descriptor));
    return mpi::measure(s, mpi::measure_config{.pattern = descriptor,
                                               .labels = labels,
                                               .bytes = x,
                                               .resource = message_resource_of<Def>(s, o, context,
                                                                                    bytes),
                                               .kernel = Def::make_kernel(context, o),
                                               .plan = plan,
                                               .check = typename Def::verify_check{}});
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
        return Def::traits.has_bytes
                   ? message_sizes(o, Def::max_bytes, Def::traits.unit, smallest_of<Def>())
                   : std::vector<std::uint64_t>{0};
    }
    [[nodiscard]] static mpi::measurement measure(const mpi::session& s, const options& o,
                                                  std::string_view name, std::uint64_t x) {
        const message_plan plan{.iterations = o.counts(Def::counts),
                                .mem_limit_bytes = static_cast<double>(o.mem_limit_bytes),
                                .check = o.check};
        const mpi::record_labels labels{.suite = "osu",
                                        .benchmark = std::string(name),
                                        .has_bytes = Def::traits.has_bytes};
        mpi::measurement m;
        if constexpr (requires { Def::measure_size(s, o, labels, x, plan); })
            m = Def::measure_size(s, o, labels, x, plan);
        else
            m = measure_message_size<Def>(s, o, labels, x, plan);
        if (const auto factor = pattern::throughput_factor(
                Def::descriptor(o), s.layout().processes, s.layout().groups))
            for (auto& r : m.records) add_bandwidth(r, *factor * static_cast<double>(x));
        return m;
    }
};

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
            .run = &run_sweep<message_method<Def>>,
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
            }()};
}

}  // namespace parbench::osu
