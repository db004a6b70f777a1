// Sync policies: how the active processes are aligned before the timed loop. They act on any
// communicator-like object with barrier(), so this header needs no MPI.
//
//  * none    — start as soon as the previous step ends.
//  * barrier — `count` barriers on the group before timing (IMB's N_BARR = 2).
#pragma once

#include <concepts>

namespace parbench::policy::sync {

template <class Comm>
concept has_barrier = requires(Comm& c) { c.barrier(); };

struct none {
    template <has_barrier Comm>
    void before_timing(Comm& /*comm*/) const noexcept {}
};

struct barrier {
    int count = 2;  // IMB N_BARR
    template <has_barrier Comm>
    void before_timing(Comm& comm) const {
        for (int i = 0; i < count; ++i) comm.barrier();
    }
};

}  // namespace parbench::policy::sync

namespace parbench::policy {

// A sync policy aligns the processes of `Comm` before the timed region.
template <class Sync, class Comm>
concept sync_policy = requires(const Sync& s, Comm& c) { s.before_timing(c); };

}  // namespace parbench::policy
