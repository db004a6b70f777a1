// A benchmark definition: one struct that says what one benchmark is, read by every family's
// driver (IMB, OSU, PAW, IMB-IO, parbench::mpi::main). Its members are named here once:
//
//   required
//     descriptor       the pattern (pattern/pattern.hpp): who takes part, the class, nmsg
//     resource plan    one of layout(x, np) (message buffers), window(x, sections, np) (an RMA
//                      window), file(x, context, site) (a file)
//     make_kernel(...) one iteration; its arguments are the family's (IMB: the context, and the
//                      operands of IMB 2021's datatypes where it takes them; PAW: the window)
//   optional, with defaults from definition_defaults
//     verify_check     the -check fill/verify pair (mpi/resource.hpp's message_check); the
//                      default, no_check, carries no defects column
//     traits           the values below, set with designated initialisers so that a misspelt
//                      name is a compile error naming it:
//                      static constexpr mpi::definition_traits traits{.has_bytes = false};
//
// A definition derives from definition_defaults and states only how it differs. C++20 cannot
// list a struct's members, so a value written as a loose member (`static constexpr bool
// has_bytes = false;`, the shape before traits) would be silently ignored: the checks below
// reject it with a message naming the member.
//
// The catalogue row of a benchmark (parbench list: name, description, class, flags) is derived
// from its definition by catalogue_row(): the class is the descriptor's, never a string.
#pragma once

#include <parbench/pattern/pattern.hpp>
#include <parbench/plugin/catalogue_row.hpp>
#include <parbench/report/result.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

namespace parbench::mpi {

// Which of IMB's modes a benchmark runs in (IMB-EXT/IMB-RMA: aggregate and non-aggregate
// blocks); MPI-1 benchmarks have none. A benchmark in only one mode gets that mode's repetition
// rule but no MODE label (IMB's Window).
enum class run_modes : unsigned {
    single = 0,               // no mode: one block (IMB-MPI1)
    aggregate = 1u << 0,      // M transfers, one completion
    non_aggregate = 1u << 1,  // every transfer completed (MSGS_NONAGGR repetitions)
    both = aggregate | non_aggregate,
};

// A figure column a benchmark declares for its table beside its class's (a record field or
// metric key, its heading), in a form a constexpr definition can hold.
struct table_column {
    const char* source;   // "t_ovrl_us"
    const char* heading;  // "t_ovrl[usec]"
    int precision = 2;
};

// The optional values of a definition, with the defaults most benchmarks share.
struct definition_traits {
    bool has_bytes = true;          // false: no message size (Barrier); one row at 0 bytes
    std::uint64_t unit = 1;         // message lengths are multiples of this (sizeof(float))
    std::uint64_t fixed_bytes = 0;  // > 0: one size only (IMB-RMA Fetch_and_op: one element)
    run_modes modes = run_modes::single;
    bool warm_up = true;     // false: no warm-up before the first size (IMB-IO has none)
    bool reduction = false;  // IMB 2021: lengths and operands follow -red_data_type
    std::span<const table_column> columns = {};  // figure columns beside the class's
};

// Without -check: nothing to fill or verify, and records carry no defects.
struct no_check {};

// Whether a check looks at the data (every check but no_check).
template <class Check>
inline constexpr bool checks_data = !std::same_as<Check, no_check>;

// What a definition has unless it says otherwise.
struct definition_defaults {
    static constexpr definition_traits traits{};
    using verify_check = no_check;
};

// A trait written as a loose member, which no driver reads (check_definition names it).
template <class Def>
concept loose_trait = requires { Def::has_bytes; } || requires { Def::unit; } ||
                      requires { Def::fixed_bytes; } || requires { Def::modes; } ||
                      requires { Def::warm_up; } || requires { Def::reduction; } ||
                      requires { Def::columns; } || requires { Def::verify_check::enabled; };

// Message buffers, an RMA window or a file.
template <class Def>
concept has_resource_plan =
    requires(std::size_t x, int np) { Def::layout(x, np); } ||
    requires(std::size_t x, std::uint64_t sections, int np) { Def::window(x, sections, np); } ||
    requires { &Def::file; };

// A definition as every family reads it: a descriptor (an object, or OSU's function of the
// options), traits, a check, and one resource plan where the family does not supply its own.
template <class Def>
concept definition =
    std::derived_from<Def, definition_defaults> &&
    std::same_as<std::remove_cvref_t<decltype(Def::traits)>, definition_traits> &&
    requires { typename Def::verify_check; } && !loose_trait<Def>;

// The checks of `definition`, one message per member: a family's driver calls this where it
// takes a definition, so that a mistake names itself instead of a failed concept.
template <class Def>
consteval bool check_definition() {
    static_assert(std::derived_from<Def, definition_defaults>,
                  "a definition derives from parbench::mpi::definition_defaults");
    static_assert(std::same_as<std::remove_cvref_t<decltype(Def::traits)>, definition_traits>,
                  "traits is a parbench::mpi::definition_traits");
    static_assert(!requires { Def::has_bytes; },
                  "has_bytes is set in traits{.has_bytes = ...}, not as a member");
    static_assert(!requires { Def::unit; }, "unit is set in traits{.unit = ...}, not as a member");
    static_assert(!requires { Def::fixed_bytes; },
                  "fixed_bytes is set in traits{.fixed_bytes = ...}, not as a member");
    static_assert(!requires { Def::modes; },
                  "modes is set in traits{.modes = ...}, not as a member");
    static_assert(!requires { Def::warm_up; },
                  "warm_up is set in traits{.warm_up = ...}, not as a member");
    static_assert(!requires { Def::reduction; },
                  "reduction is set in traits{.reduction = ...}, not as a member");
    static_assert(!requires { Def::columns; },
                  "columns is set in traits{.columns = ...}, not as a member");
    static_assert(!requires { Def::verify_check::enabled; },
                  "a check no longer says enabled: every check but no_check is enabled");
    static_assert(Def::traits.unit >= 1, "a message length unit of at least one byte");
    return true;
}

// A definition whose descriptor is an object and whose resource plan is its own (IMB, IMB-IO,
// PAW-MPI, parbench::mpi::main).
template <class Def>
concept self_contained_definition =
    definition<Def> && pattern::descriptor<std::remove_cvref_t<decltype(Def::descriptor)>> &&
    has_resource_plan<Def>;

// The catalogue row of a definition: `parbench list`'s name, description and flags from the
// suite's table, the class from the definition's descriptor, and PARBENCH_BENCH_NO_VERIFY from
// its check (no_check: --check has nothing to verify).
template <class Def>
[[nodiscard]] constexpr std::uint32_t verification_flag() noexcept {
    return checks_data<typename Def::verify_check> ? 0u : std::uint32_t{PARBENCH_BENCH_NO_VERIFY};
}

template <class Def>
    requires(check_definition<Def>())
[[nodiscard]] constexpr parbench_benchmark catalogue_row(const char* name,
                                                         const char* description,
                                                         std::uint32_t flags) noexcept {
        return plugin::catalogue_row(name, description, Def::descriptor.klass,
                                     flags | verification_flag<Def>());
}

}  // namespace parbench::mpi
