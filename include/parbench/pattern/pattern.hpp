// The pattern vocabulary: who takes part in one iteration, how many messages it moves (for
// throughput), how a rank's loop time becomes the reported time, and which benchmark class
// (core/benchmark_class.hpp) decides the columns. Descriptors are small aggregates configured with
// designated initialisers; the runner (mpi/runner.hpp) reads them, kernels never do.
//
// The same vocabulary serves the later one-sided, I/O and offload patterns (rma_epoch: origin and
// targets, io_action: one process and a file, offload_transfer: host and device): each is one
// more descriptor with a category tag, not a new timing loop.
#pragma once

#include <parbench/pattern/pairing.hpp>
#include <parbench/core/benchmark_class.hpp>

#include <concepts>
#include <cstdint>
#include <optional>
#include <type_traits>

namespace parbench::pattern {

// Who is active in one iteration.
enum class participants {
    pair,            // two processes (ping-pong, ping-ping)
    chain,           // a periodic chain: every process has a left and a right neighbour
    all,             // every process of the group (collectives)
    origin_targets,  // one origin, the others targets (one-sided)
    single,          // one process on its own (I/O on private files)
    host_device,     // a host process and its accelerator (offload transfers)
};

// Category tags: what kind of operation one iteration is. Policies that only make sense for one
// category constrain on it, so that misuse fails to compile.
struct point_to_point_tag {};
struct collective_tag {};
struct one_sided_tag {};
struct io_tag {};
struct offload_tag {};

// What every descriptor provides. `nmsg` is IMB's turnover per process and iteration (the factor
// in nmsg * X / t); `time_divisor` turns a loop's time per iteration into the reported time
// (2 for ping-pong: half a round trip).
template <class Pattern>
concept descriptor = std::is_aggregate_v<Pattern> && requires(const Pattern& p) {
    typename Pattern::category;
    { p.klass } -> std::convertible_to<benchmark_class>;
    { p.who } -> std::convertible_to<participants>;
    { p.nmsg } -> std::convertible_to<int>;
    { p.time_divisor } -> std::convertible_to<double>;
    { p.rooted } -> std::convertible_to<bool>;
};

template <class Pattern>
concept collective_descriptor =
    descriptor<Pattern> && std::same_as<typename Pattern::category, collective_tag>;

template <class Pattern>
concept point_to_point_descriptor =
    descriptor<Pattern> && std::same_as<typename Pattern::category, point_to_point_tag>;

template <class Pattern>
concept one_sided_descriptor =
    descriptor<Pattern> && std::same_as<typename Pattern::category, one_sided_tag>;

template <class Pattern>
concept io_descriptor = descriptor<Pattern> && std::same_as<typename Pattern::category, io_tag>;

// Patterns whose operations end in a completion placed by the aggregation policy (an RMA flush
// or fence, the MPI-IO sync triplet); message passing completes inside its kernels.
template <class Pattern>
concept completes_outside_kernel = one_sided_descriptor<Pattern> || io_descriptor<Pattern>;

// How the bytes one iteration moves are counted for a throughput column (MB/s = F * X / t):
//   by_class   — IMB's classes: single transfer F = 1, parallel transfer F = nmsg, none otherwise
//   none       — bare timings only (IMB-RMA parallel transfer, collectives)
//   per_target — F = nmsg * (Q - 1): one origin to every other process (IMB-RMA multiple transfer)
//   per_pair   — F = nmsg * floor(Q / 2): every pair of a halves pairing (IMB Uniband/Biband)
//   per_iteration — F = nmsg: every transfer of one iteration, in both directions where both
//                sides initiate (OSU's windowed one-sided bandwidths: W, or 2W for bibw)
enum class throughput_rule { by_class, none, per_target, per_pair, per_iteration };

// A descriptor may name its pairing (`pairs`) and throughput rule (`throughput`); the ones that
// predate them get the pairing their participants imply and IMB's class rule.
template <descriptor Pattern>
[[nodiscard]] constexpr pairing pairing_of(const Pattern& p) noexcept {
    if constexpr (requires { p.pairs; }) {
        return p.pairs;
    } else {
        return p.who == participants::chain ? periodic_chain : first_pair;
    }
}

template <descriptor Pattern>
[[nodiscard]] constexpr throughput_rule throughput_rule_of(const Pattern& p) noexcept {
    if constexpr (requires { p.throughput; }) {
        return p.throughput;
    } else {
        return throughput_rule::by_class;
    }
}

// The fewest processes one group of the pattern needs, and whether it needs exactly that many.
template <descriptor Pattern>
[[nodiscard]] constexpr int min_processes(const Pattern& p) noexcept {
    return p.who == participants::pair || p.who == participants::origin_targets ? 2 : 1;
}
template <descriptor Pattern>
[[nodiscard]] constexpr bool fixed_group_size(const Pattern& p) noexcept {
    return p.who == participants::pair || p.who == participants::single;
}
// The size of a group of a fixed-size pattern: two for a pair, one for a process on its own
// (IMB-IO's S_ benchmarks run with one active process).
template <descriptor Pattern>
[[nodiscard]] constexpr int fixed_group_processes(const Pattern& p) noexcept {
    return p.who == participants::single ? 1 : 2;
}

// The class a pattern reports in IMB's multiple mode: single transfers running in several groups
// at once "behave as parallel transfer benchmarks".
template <descriptor Pattern>
[[nodiscard]] constexpr benchmark_class class_in_groups(const Pattern& p, int groups) noexcept {
    return groups > 1 && p.klass == benchmark_class::single_transfer
               ? benchmark_class::parallel_transfer
               : p.klass;
}

// F in MB/s = F * X / 1.048576 / t for Q processes per group in `groups` groups; empty where the
// pattern reports bare timings.
template <descriptor Pattern>
[[nodiscard]] constexpr std::optional<double> throughput_factor(const Pattern& p, int processes,
                                                                int groups) noexcept {
    switch (throughput_rule_of(p)) {
        case throughput_rule::none: return std::nullopt;
        case throughput_rule::per_target: return double(p.nmsg) * (processes - 1);
        case throughput_rule::per_pair: return double(p.nmsg) * (processes / 2);
        case throughput_rule::per_iteration: return double(p.nmsg);
        case throughput_rule::by_class: break;
    }
    switch (class_in_groups(p, groups)) {
        case benchmark_class::single_transfer: return 1.0;
        case benchmark_class::parallel_transfer:
            return p.nmsg > 0 ? std::optional<double>(p.nmsg) : std::nullopt;
        default: return std::nullopt;
    }
}

}  // namespace parbench::pattern
