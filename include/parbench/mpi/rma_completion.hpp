// One-sided completions (mpi/completion.hpp's open/close) for kernels on an RMA window. Each
// acts only on a window_view, so naming one for a message-passing kernel does not compile; the
// runner also refuses them for patterns other than one_sided.
//
//   flush / flush_local          each initiator completes at each of its targets (remotely, or
//                                only its local buffers); the epoch is held by the resource
//   flush_all / flush_local_all  each initiator, all targets at once
//   fence                        every process of the group: MPI_Win_fence (active target)
//   lock_per_transfer            an initiator locks each target before and unlocks after (OSU's
//                                "lock": the epoch is the completion)
//   lock_all_per_transfer        an initiator opens MPI_Win_lock_all before and closes it after
//                                (OSU's "lock_all")
//   pscw                         initiators MPI_Win_start/complete their targets, targets
//                                MPI_Win_post/wait for their origins (generalised active target)
#pragma once

#include <parbench/mpi/rma_window.hpp>
#include <parbench/mpi/timed_loop.hpp>

#include <mpi.h>

#include <string_view>
#include <utility>
#include <vector>

namespace parbench::mpi::rma {

struct flush {
    static constexpr std::string_view name = "flush";
    void open(const kernel_context& /*c*/, const window_view& /*v*/) const noexcept {}
    void close(const kernel_context& c, const window_view& v) const {
        if (!c.initiator) return;
        for (int step = 0, n = c.target_count(); step < n; ++step) MPI_Win_flush(c.target(step), v.win);
    }
};

struct flush_local {
    static constexpr std::string_view name = "flush_local";
    void open(const kernel_context& /*c*/, const window_view& /*v*/) const noexcept {}
    void close(const kernel_context& c, const window_view& v) const {
        if (!c.initiator) return;
        for (int step = 0, n = c.target_count(); step < n; ++step)
            MPI_Win_flush_local(c.target(step), v.win);
    }
};

struct flush_all {
    static constexpr std::string_view name = "flush_all";
    void open(const kernel_context& /*c*/, const window_view& /*v*/) const noexcept {}
    void close(const kernel_context& c, const window_view& v) const {
        if (c.initiator) MPI_Win_flush_all(v.win);
    }
};

struct flush_local_all {
    static constexpr std::string_view name = "flush_local_all";
    void open(const kernel_context& /*c*/, const window_view& /*v*/) const noexcept {}
    void close(const kernel_context& c, const window_view& v) const {
        if (c.initiator) MPI_Win_flush_local_all(v.win);
    }
};

struct fence {
    static constexpr std::string_view name = "fence";
    void open(const kernel_context& /*c*/, const window_view& /*v*/) const noexcept {}
    void close(const kernel_context& /*c*/, const window_view& v) const { MPI_Win_fence(0, v.win); }
};

struct lock_per_transfer {
    static constexpr std::string_view name = "lock";
    void open(const kernel_context& c, const window_view& v) const {
        if (!c.initiator) return;
        for (int step = 0, n = c.target_count(); step < n; ++step)
            MPI_Win_lock(MPI_LOCK_SHARED, c.target(step), 0, v.win);
    }
    void close(const kernel_context& c, const window_view& v) const {
        if (!c.initiator) return;
        for (int step = 0, n = c.target_count(); step < n; ++step) MPI_Win_unlock(c.target(step), v.win);
    }
};

struct lock_all_per_transfer {
    static constexpr std::string_view name = "lock_all";
    void open(const kernel_context& c, const window_view& v) const {
        if (c.initiator) MPI_Win_lock_all(0, v.win);
    }
    void close(const kernel_context& c, const window_view& v) const {
        if (c.initiator) MPI_Win_unlock_all(v.win);
    }
};

// Post-start-complete-wait. The groups are built once per measurement from the pairing: an
// initiator's access group is its targets, every process's exposure group the initiators that
// target it (both, where both sides of a pair initiate). A process outside the active set has
// neither and opens no epoch.
class pscw {
public:
    static constexpr std::string_view name = "pscw";

    explicit pscw(const kernel_context& c) {
        std::vector<int> targets;
        std::vector<int> origins;
        for (int step = 0, n = c.target_count(); step < n; ++step) targets.push_back(c.target(step));
        for (int r = 0; r < c.size; ++r) {
            if (r == c.rank || !c.pairs.initiator(r, c.size)) continue;
            for (int step = 0, n = c.pairs.target_count(r, c.size); step < n; ++step) {
                if (c.pairs.target(r, c.size, step) == c.rank) {
                    origins.push_back(r);
                    break;
                }
            }
        }
        access_ = group_of(c, targets);
        exposure_ = group_of(c, origins);
    }
    pscw(pscw&& other) noexcept
        : access_(std::exchange(other.access_, MPI_GROUP_NULL)),
          exposure_(std::exchange(other.exposure_, MPI_GROUP_NULL)) {}
    pscw(const pscw&) = delete;
    pscw& operator=(const pscw&) = delete;
    pscw& operator=(pscw&&) = delete;
    ~pscw() {
        int finalised = 0;
        MPI_Finalized(&finalised);
        if (finalised != 0) return;
        if (access_ != MPI_GROUP_NULL) MPI_Group_free(&access_);
        if (exposure_ != MPI_GROUP_NULL) MPI_Group_free(&exposure_);
    }

    void open(const kernel_context& /*c*/, const window_view& v) const {
        if (exposure_ != MPI_GROUP_NULL) MPI_Win_post(exposure_, 0, v.win);
        if (access_ != MPI_GROUP_NULL) MPI_Win_start(access_, 0, v.win);
    }
    void close(const kernel_context& /*c*/, const window_view& v) const {
        if (access_ != MPI_GROUP_NULL) MPI_Win_complete(v.win);
        if (exposure_ != MPI_GROUP_NULL) MPI_Win_wait(v.win);
    }

private:
    MPI_Group access_ = MPI_GROUP_NULL;
    MPI_Group exposure_ = MPI_GROUP_NULL;
};

}  // namespace parbench::mpi::rma
