// ping_pong: two processes, a message there and back per iteration; the reported time is half
// the round trip (IMB PingPong, class single transfer).
#pragma once

#include <parbench/pattern/pattern.hpp>

namespace parbench::pattern {

struct ping_pong {
    using category = point_to_point_tag;
    benchmark_class klass = benchmark_class::single_transfer;
    participants who = participants::pair;
    int nmsg = 1;
    double time_divisor = 2.0;  // half round trip
    bool rooted = false;
    bool specific_source = false;  // receive from the explicit peer instead of MPI_ANY_SOURCE
};

static_assert(point_to_point_descriptor<ping_pong>);

}  // namespace parbench::pattern
