// exchange: every active process sends to and receives from its neighbours in the same
// iteration — over a pair (IMB PingPing: t = Δt, single transfer), a periodic chain
// (Sendrecv: nmsg = 2, Exchange: nmsg = 4, parallel transfer) or the pairs r <-> r + Q/2 of a
// windowed bandwidth test (Uniband/Biband: nmsg messages per pair, counted for every pair).
#pragma once

#include <parbench/pattern/pairing.hpp>
#include <parbench/pattern/pattern.hpp>

namespace parbench::pattern {

struct exchange {
    using category = point_to_point_tag;
    benchmark_class klass = benchmark_class::parallel_transfer;
    participants who = participants::chain;
    int nmsg = 2;  // messages in and out per process and iteration
    double time_divisor = 1.0;
    bool rooted = false;
    bool specific_source = false;
    pairing pairs = periodic_chain;
    throughput_rule throughput = throughput_rule::by_class;
    bool message_rate = false;  // also report messages per second (windowed bandwidth tests)

    // IMB's three neighbour patterns.
    [[nodiscard]] static constexpr exchange ping_ping(bool specific = false) noexcept {
        return {.klass = benchmark_class::single_transfer, .who = participants::pair, .nmsg = 1,
                .time_divisor = 1.0, .rooted = false, .specific_source = specific,
                .pairs = first_pair};
    }
    [[nodiscard]] static constexpr exchange sendrecv() noexcept { return {.nmsg = 2}; }
    [[nodiscard]] static constexpr exchange left_right() noexcept { return {.nmsg = 4}; }
};

static_assert(point_to_point_descriptor<exchange>);

}  // namespace parbench::pattern
