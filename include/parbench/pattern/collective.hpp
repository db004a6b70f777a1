// collective: every active process of the group calls the same operation; bare timings
// (t_min/t_max/t_avg over the ranks), no throughput. Rooted collectives rotate the root through
// the group, root = i % np in iteration i, as IMB does.
#pragma once

#include <parbench/pattern/pattern.hpp>

#include <cstdint>

namespace parbench::pattern {

struct collective {
    using category = collective_tag;
    benchmark_class klass = benchmark_class::collective;
    participants who = participants::all;
    int nmsg = 0;  // no throughput
    double time_divisor = 1.0;
    bool rooted = false;
};

static_assert(collective_descriptor<collective>);

// The root of iteration i in a group of np processes. Only collectives have a root: asking a
// point-to-point pattern for one is a compile error.
template <collective_descriptor Pattern>
[[nodiscard]] constexpr int root_of(const Pattern& /*pattern*/, std::uint64_t iteration,
                                    int processes) noexcept {
    return processes > 0 ? static_cast<int>(iteration % static_cast<std::uint64_t>(processes))
                         : 0;
}

}  // namespace parbench::pattern
