// The IMB-EXT benchmarks (MPI-2 one-sided, active target; catalogue A.3.2) as definitions: the
// window opened by a fence outside timing, every transfer to a disjoint section, MPI_Win_fence as
// the assured completion (once after the M transfers in aggregate mode, after each in
// non-aggregate mode). Window times MPI_Win_create/fence/put/fence/free itself.
#pragma once

#include <parbench/mpi/message_buffers.hpp>
#include <parbench/pattern/collective.hpp>
#include <parbench/suites/imb/datatypes.hpp>
#include <parbench/suites/imb/methodology.hpp>
#include <parbench/suites/imb/one_sided.hpp>

namespace parbench::imb_ext {

using namespace imb_one_sided;

struct active_target : mpi::definition_defaults {
    static constexpr mpi::window_epoch epoch = mpi::window_epoch::fence;
    using completion = mpi::rma::fence;
    static constexpr mpi::definition_traits traits{.modes = mpi::run_modes::both};
    static constexpr regions window_regions = regions::shared;
};

// Unidir_*: rank 0 transfers, rank 1 only takes part in the fences.
struct unidir : active_target {
    static constexpr pattern::one_sided descriptor{};
};

// Bidir_*: both processes transfer at once.
struct bidir : active_target {
    static constexpr pattern::one_sided descriptor{
        .pairs = {.kind = pattern::pairing_kind::first_pair, .both_initiate = true}};
};

// Accumulate: every active process adds MPI_FLOATs into rank 0's window (class collective).
struct into_root : active_target {
    static constexpr pattern::one_sided descriptor{.klass = benchmark_class::collective,
                                                   .who = pattern::participants::all,
                                                   .pairs = pattern::to_root,
                                                   .throughput = pattern::throughput_rule::none};
    static constexpr mpi::definition_traits traits{.unit = sizeof(float),
                                                  .modes = mpi::run_modes::both};
};

using unidir_put_def = transfer_def<put, unidir>;
using unidir_get_def = transfer_def<get, unidir>;
using bidir_put_def = transfer_def<put, bidir>;
using bidir_get_def = transfer_def<get, bidir>;
using accumulate_def = transfer_def<accumulate, into_root>;

// Window: the overhead of a window's life, MPI_Win_create of X bytes, a fence, a 1-byte put
// (a non-trivial action so that an unused window is not optimised away), a fence, MPI_Win_free.
// The put goes to the process's own window under IMB 2021 (IMB_window.c:108-109,
// methodology::window_puts_to_self), to the right neighbour's under 4.0. Its memory comes from
// the message buffers (the window itself is the kernel's), MSGS_NONAGGR repetitions, time only.
// Every iteration uses the buffers' first slot, also with -off_cache: IMB 2021 creates the
// window over r_buffer and puts from s_buffer, never at a cache offset (IMB_window.c:103-109),
// though it sizes them for -off_cache as any other benchmark's.
struct window_def : mpi::definition_defaults {
    static constexpr pattern::collective descriptor{.klass = benchmark_class::other};
    static constexpr mpi::definition_traits traits{.modes = mpi::run_modes::non_aggregate};
    static mpi::buffer_layout layout(std::size_t x, int /*np*/) { return {1, x}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t /*i*/, const Buffers& b) const {
            MPI_Win win = MPI_WIN_NULL;
            MPI_Win_create(b.recv(0), static_cast<MPI_Aint>(c.bytes), 1, MPI_INFO_NULL, c.comm,
                           &win);
            MPI_Win_fence(0, win);
            if (c.bytes > 0) MPI_Put(b.send(0), 1, MPI_BYTE, target, 0, 1, MPI_BYTE, win);
            MPI_Win_fence(0, win);
            MPI_Win_free(&win);
        }
        int target = 0;  // a rank of c.comm
    };
    static kernel make_kernel(const kernel_context& c, const imb_mpi1::sized_operands& /*o*/,
                              const imb::methodology& m) {
        return {.target = m.window_puts_to_self() ? c.rank : c.right};
    }
};

}  // namespace parbench::imb_ext
