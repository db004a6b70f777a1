// A benchmark's row in a plugin's catalogue (`parbench list`: name, class, default or not,
// description), with the class given as a benchmark_class, never as hand-written text: the
// ABI's string is the enum's own spelling (report/result.hpp's to_string). MPI definitions get
// theirs from their descriptor (mpi/definition.hpp's catalogue_row<Def>).
#pragma once

#include <parbench/plugin/abi.h>
#include <parbench/report/result.hpp>

#include <cstdint>

namespace parbench::plugin {

[[nodiscard]] constexpr parbench_benchmark catalogue_row(const char* name,
                                                         const char* description,
                                                         benchmark_class klass,
                                                         std::uint32_t flags) noexcept {
    // to_string's views are string literals: NUL-terminated, static.
    return {name, description, to_string(klass).data(), flags};
}

}  // namespace parbench::plugin
