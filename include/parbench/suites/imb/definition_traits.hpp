// What the IMB driver reads from a benchmark definition besides its pattern, layout, kernel and
// check: the traits a definition declares as static constexpr members, with the defaults that
// most benchmarks share, so that a definition states only how it differs.
//
//   has_bytes       false: no message size (Barrier); one row at 0 bytes
//   unit            message lengths are multiples of this (sizeof(float) for float reductions)
//   fixed_bytes     > 0: one size only, this many bytes (IMB-RMA Fetch_and_op and
//                   Compare_and_swap move a single element)
//   modes           which of IMB's modes the benchmark runs in (IMB-EXT/IMB-RMA: aggregate and
//                   non-aggregate blocks); MPI-1 benchmarks have none. A benchmark in only one
//                   mode gets that mode's repetition rule but no MODE label (IMB's Window)
//   warm_up         false: no IMB warm-up before the first size (IMB-IO has none)
#pragma once

#include <cstdint>

namespace parbench::imb {

enum class run_modes : unsigned {
    single = 0,            // no mode: one block (IMB-MPI1)
    aggregate = 1u << 0,   // M transfers, one completion
    non_aggregate = 1u << 1,  // every transfer completed (MSGS_NONAGGR repetitions)
    both = aggregate | non_aggregate,
};

template <class Def>
struct definition_traits {
    static constexpr bool has_bytes = [] {
        if constexpr (requires { Def::has_bytes; }) return bool{Def::has_bytes};
        else return true;
    }();
    static constexpr std::uint64_t unit = [] {
        if constexpr (requires { Def::unit; }) return std::uint64_t{Def::unit};
        else return std::uint64_t{1};
    }();
    static constexpr std::uint64_t fixed_bytes = [] {
        if constexpr (requires { Def::fixed_bytes; }) return std::uint64_t{Def::fixed_bytes};
        else return std::uint64_t{0};
    }();
    static constexpr run_modes modes = [] {
        if constexpr (requires { Def::modes; }) return run_modes{Def::modes};
        else return run_modes::single;
    }();
    static constexpr bool warm_up = [] {
        if constexpr (requires { Def::warm_up; }) return bool{Def::warm_up};
        else return true;
    }();
    static_assert(unit >= 1, "a message length unit of at least one byte");
};

}  // namespace parbench::imb
