// The active set for one run at Q processes per group (IMB's -npmin, -map, multiple mode): the
// communicators of the active processes and of this process's group, and the message-buffer
// pools every measurement of the run reuses.
#pragma once

#include <parbench/core/buffers.hpp>
#include <parbench/mpi/active_set.hpp>
#include <parbench/mpi/communicator.hpp>
#include <parbench/mpi/node.hpp>
#include <parbench/mpi/timed_loop.hpp>
#include <parbench/pattern/pairing.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace parbench::mpi {

// The active set for one run at `processes` (Q) per group.
class session {
public:
    // `order`: world ranks in mapped order (mapped_order()); empty means the identity.
    // `map_columns`: the -map matrix width, for the rank-order lines of the header.
    // `buffers`: where message buffers live (nullptr: host memory; see core/buffers.hpp).
    // `group_limit`: in multiple mode, at most this many groups (0: as many as fit); the
    // processes of the order after them wait (a round of disjoint pairs: the links suite).
    session(MPI_Comm world, int processes, bool multiple = false, std::vector<int> order = {},
            int map_columns = 0, const memory_space* buffers = nullptr, int group_limit = 0)
        : send_pool_(aligned_buffer::empty_in(buffers)),
          recv_pool_(aligned_buffer::empty_in(buffers)),
          world_(communicator::borrow(world)) {
        const int world_size = world_.size();
        const int world_rank = world_.rank();
        if (order.empty()) order = mapped_order(world_size, {});
        layout_ = layout_groups(order, std::min(processes, world_size), multiple, map_columns,
                                group_limit);
        // The rows name their processes' nodes where the run's are known (the MPI plugin's
        // placement, mpi/node.hpp world_nodes, by rank of MPI_COMM_WORLD) and this session
        // splits the same processes in the same order.
        int same = MPI_UNEQUAL;
        MPI_Comm_compare(world, MPI_COMM_WORLD, &same);
        const bool world_is_the_run = same == MPI_IDENT || same == MPI_CONGRUENT;
        if (world_is_the_run && !world_nodes::get().empty()) layout_.name_nodes(world_nodes::get());
        const auto position = static_cast<int>(
            std::find(order.begin(), order.end(), world_rank) - order.begin());
        const int q = layout_.processes;
        active_flag_ = q > 0 && position < layout_.groups * q;
        // The run's oversubscription, as warned: every process of the node counts, the idle
        // ones too (they wake from quiet_barrier's sleeps every millisecond or less).
        if (active_flag_ && world_is_the_run) crowded_ = world_nodes::my_node().oversubscribed();
        // Between sizes every process polls (yielding) where each has a CPU of its own (known),
        // else sleeps.
        const node_share share = world_nodes::my_node();
        idle_polls_ = world_is_the_run && share.cpus > 0 && !share.oversubscribed();
        active_root_ = order.front();
        group_index_ = active_flag_ ? position / q : -1;
        active_ = world_.split(active_flag_ ? 0 : -1, position);
        if (active_flag_) group_ = active_.split(group_index_, position);
    }

    [[nodiscard]] bool active() const noexcept { return active_flag_; }
    [[nodiscard]] int group_index() const noexcept { return group_index_; }
    [[nodiscard]] const group_layout& layout() const noexcept { return layout_; }
    [[nodiscard]] const communicator& world() const noexcept { return world_; }
    [[nodiscard]] const communicator& active_comm() const noexcept { return active_; }
    [[nodiscard]] const communicator& group() const noexcept { return group_; }
    // The world rank of the active set's first process, where gather() leaves the figures:
    // world rank 0 unless the order puts another process first.
    [[nodiscard]] int active_root() const noexcept { return active_root_; }

    // What a kernel knows of its group at one size, with `pairs` deciding peer and initiator.
    [[nodiscard]] kernel_context context(std::size_t bytes,
                                         pattern::pairing pairs = pattern::first_pair) const {
        kernel_context c;
        c.comm = group_.get();
        c.rank = group_.rank();
        c.size = std::max(1, group_.size());
        c.left = (c.rank - 1 + c.size) % c.size;
        c.right = (c.rank + 1) % c.size;
        const int partner = pairs.partner(c.rank, c.size);
        c.peer = partner >= 0 ? partner : MPI_PROC_NULL;
        c.bytes = bytes;
        c.pairs = pairs;
        c.initiator = pairs.initiator(c.rank, c.size);
        c.rotate_root = rotate_root_;
        return c;
    }

    // An agreement between the phases of a measurement (mpi/phases.hpp: the allocation check,
    // the warm-up probe, the estimate, the samples kept): MPI_Allreduce in place over the active
    // processes, as an MPI_Iallreduce completed by wait_agreement(). Every active process must
    // call it (an Iallreduce never matches an MPI_Allreduce); never inside a timed region.
    void agree(void* values, int count, MPI_Datatype type, MPI_Op op) const {
        if (!active_flag_ || count == 0) return;
        MPI_Request request = MPI_REQUEST_NULL;
        MPI_Iallreduce(MPI_IN_PLACE, values, count, type, op, active_.get(), &request);
        wait_agreement(request);
    }

    // Completes a request of the active processes' agreements. A process that waits here may be
    // needed by one still timed (a passive one-sided target: its origin's lock and put need the
    // target's progress engine), so it polls without pause, as a blocking call does (MPI_Test in
    // a loop; not MPI_Wait, so that a PMPI tool counting a benchmark's MPI_Wait counts none of
    // these). Where this node runs more processes than it has CPUs, it yields the core between
    // polls instead (wait_yielding): a spinning wait would cost the late process a scheduler time
    // slice (~10 ms at -n 4 on 2 CPUs). Never wait_quietly's sleeps: a sleeping target makes each
    // put ~1 ms.
    void wait_agreement(MPI_Request& request) const {
        if (crowded_)
            wait_yielding(request);
        else
            wait_polling(request);
    }

    // How the processes of this session's world wait for each other outside the measurements
    // (mpi/phases.hpp end_of_size): yielding between polls where this node is known to give each
    // process a CPU, asleep otherwise (communicator.hpp idle_wait).
    [[nodiscard]] idle_wait idle_waiting() const noexcept {
        return idle_polls_ ? idle_wait::yielding : idle_wait::sleeping;
    }

    // Rooted collectives of this session: root i % np (the default) or always 0 (IMB 2021's
    // -root_shift off); every context() carries the rule.
    void rotate_root(bool rotate) noexcept { rotate_root_ = rotate; }

    // Message buffer storage reused by every measurement of this session (IMB allocates once
    // and grows); a cache, hence mutable.
    aligned_buffer& send_pool() const noexcept { return send_pool_; }
    aligned_buffer& recv_pool() const noexcept { return recv_pool_; }

private:
    bool rotate_root_ = true;
    mutable aligned_buffer send_pool_;
    mutable aligned_buffer recv_pool_;
    communicator world_;
    communicator active_;
    communicator group_;
    group_layout layout_;
    bool active_flag_ = false;
    bool crowded_ = false;  // this node runs more processes than it has CPUs (wait_agreement)
    bool idle_polls_ = false;  // this node is known to give each process a CPU (idle_waiting)
    int group_index_ = -1;
    int active_root_ = 0;
};

}  // namespace parbench::mpi
