// one_sided: RMA transfers from origins into (or out of) the windows of targets — IMB-EXT's
// active-target and IMB-RMA's passive-target benchmarks, OSU's one-sided tests, PAW p2p_get/put.
// Who is origin and who target comes from the pairing; how transfers complete from the
// completion policy the definition names (mpi/rma_completion.hpp), which only accepts patterns of
// this category.
#pragma once

#include <parbench/pattern/pairing.hpp>
#include <parbench/pattern/pattern.hpp>

namespace parbench::pattern {

struct one_sided {
    using category = one_sided_tag;
    benchmark_class klass = benchmark_class::single_transfer;
    participants who = participants::pair;
    int nmsg = 1;  // transfers to each target per iteration
    double time_divisor = 1.0;
    bool rooted = false;
    pairing pairs = first_pair;
    throughput_rule throughput = throughput_rule::by_class;
};

static_assert(one_sided_descriptor<one_sided>);

}  // namespace parbench::pattern
