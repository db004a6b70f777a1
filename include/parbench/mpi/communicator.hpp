// A communicator handle that frees what it created (MPI_Comm_split results) and only borrows
// what it was given (MPI_COMM_WORLD). MPI_COMM_NULL is a valid, inactive value.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

namespace parbench::mpi {

// IMB's MPI-independent barrier (IMB 2021 -imb_barrier on, IMB_utils.c:66-85): the dissemination
// algorithm, a zero-byte MPI_Sendrecv with IMB's tag 1000 per round.
inline void dissemination_barrier(MPI_Comm comm) {
    int size = 1;
    int rank = 0;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    char token = 0;
    for (int mask = 1; mask < size; mask <<= 1)
        MPI_Sendrecv(&token, 0, MPI_BYTE, (rank + mask) % size, 1000, &token, 0, MPI_BYTE,
                     (rank - mask + size) % size, 1000, comm, MPI_STATUS_IGNORE);
}

// `count` barriers on comm: MPI_Barrier, or the dissemination barrier above.
inline void barriers(MPI_Comm comm, int count, bool dissemination) {
    for (int k = 0; k < count; ++k) {
        if (dissemination)
            dissemination_barrier(comm);
        else
            MPI_Barrier(comm);
    }
}

// Completes `request` without holding a core: MPI_Test, then sleeps growing to 1 ms. The first
// 100 polls do not sleep (the usual case: the others are about to arrive).
inline void wait_quietly(MPI_Request& request) {
    int done = 0;
    auto pause = std::chrono::microseconds(1);
    for (int polls = 0;; ++polls) {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done != 0) return;
        if (polls < 100) continue;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(1000));
    }
}

// Completes `request` polling without pause, as a blocking call does (MPI_Test in a loop; not
// MPI_Wait, so that a PMPI tool counting a benchmark's MPI_Wait counts none of these).
inline void wait_polling(MPI_Request& request) {
    int done = 0;
    while (done == 0) MPI_Test(&request, &done, MPI_STATUS_IGNORE);
}

// Completes `request` polling without pause, but hands the core to any other runnable process
// between polls (sched_yield): for a process that waits while others may still be timed, on a
// node with more processes than CPUs. It keeps its MPI progress engine turning (a passive
// one-sided target's origin needs it), but the process that is late runs at once instead of
// after a scheduler time slice. Not where each process has a CPU of its own: there each yield
// is a system call between polls, and a passive target answers late (osu put_latency at 8 B:
// 0.71 us against 0.41 us); session::wait_agreement chooses.
inline void wait_yielding(MPI_Request& request) {
    int done = 0;
    for (;;) {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done != 0) return;
        std::this_thread::yield();
    }
}

// How a process that only waits for others (an idle process of an active set, or every process
// between two sizes) completes its request. Yielding (wait_yielding), where each process has a
// CPU of its own: with nothing else to run the yield returns at once and the process sees the
// others arrive within microseconds, as IMB's spinning MPI_Barrier does, where a sleeping one
// woke up to a millisecond late and every size waited for it (IMB-IO's default run lost ~2 ms a
// size); yet it leaves the core to any other job that wants it. Asleep between polls
// (wait_quietly), where the node runs more processes than CPUs or nobody knows: a runnable
// idle process would still take time slices from the measured ones there.
enum class idle_wait { yielding, sleeping };

inline void wait_idle(MPI_Request& request, idle_wait how) {
    if (how == idle_wait::yielding)
        wait_yielding(request);
    else
        wait_quietly(request);
}

class communicator {
public:
    communicator() = default;
    // Borrows `comm`; never frees it.
    static communicator borrow(MPI_Comm comm) noexcept { return communicator(comm, false); }
    // Takes ownership of `comm` (from MPI_Comm_split and friends).
    static communicator adopt(MPI_Comm comm) noexcept { return communicator(comm, true); }

    communicator(communicator&& other) noexcept
        : comm_(std::exchange(other.comm_, MPI_COMM_NULL)),
          owned_(std::exchange(other.owned_, false)) {}
    communicator& operator=(communicator&& other) noexcept {
        if (this != &other) {
            release();
            comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
            owned_ = std::exchange(other.owned_, false);
        }
        return *this;
    }
    communicator(const communicator&) = delete;
    communicator& operator=(const communicator&) = delete;
    ~communicator() { release(); }

    [[nodiscard]] MPI_Comm get() const noexcept { return comm_; }
    [[nodiscard]] bool valid() const noexcept { return comm_ != MPI_COMM_NULL; }
    [[nodiscard]] int rank() const {
        int r = -1;
        if (valid()) MPI_Comm_rank(comm_, &r);
        return r;
    }
    [[nodiscard]] int size() const {
        int s = 0;
        if (valid()) MPI_Comm_size(comm_, &s);
        return s;
    }
    void barrier() const { MPI_Barrier(comm_); }
    void dissemination_barrier() const { mpi::dissemination_barrier(comm_); }

    // A barrier that does not hold a core while it waits (wait_quietly; `how`): for processes
    // that only wait (the idle ranks of an active set): a spinning MPI_Barrier on a node with
    // more processes than cores takes the cores from the processes being measured (a 0-byte
    // PingPong at -n 4 on 2 cores: ~4 ms instead of ~0.2 us). A collective of its own: every
    // process of the communicator must call quiet_barrier (an Ibarrier never matches an
    // MPI_Barrier). Never inside a timed region.
    void quiet_barrier(idle_wait how = idle_wait::sleeping) const {
        if (!valid()) return;
        MPI_Request request = MPI_REQUEST_NULL;
        MPI_Ibarrier(comm_, &request);
        wait_idle(request, how);
    }

    // quiet_barrier that also agrees on a flag: true on every process when any process passed
    // true (MPI_Iallreduce, MAX). A collective of its own, like quiet_barrier.
    [[nodiscard]] bool quiet_any(bool flag, idle_wait how = idle_wait::sleeping) const {
        int any = flag ? 1 : 0;
        if (!valid()) return flag;
        MPI_Request request = MPI_REQUEST_NULL;
        MPI_Iallreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, comm_, &request);
        wait_idle(request, how);
        return any != 0;
    }

    // MPI_Comm_split; `color` < 0 means MPI_UNDEFINED (the result is MPI_COMM_NULL).
    [[nodiscard]] communicator split(int color, int key) const {
        MPI_Comm out = MPI_COMM_NULL;
        MPI_Comm_split(comm_, color < 0 ? MPI_UNDEFINED : color, key, &out);
        return adopt(out);
    }

private:
    communicator(MPI_Comm comm, bool owned) noexcept : comm_(comm), owned_(owned) {}
    void release() noexcept {
        int finalised = 0;
        MPI_Finalized(&finalised);
        if (owned_ && comm_ != MPI_COMM_NULL && finalised == 0) MPI_Comm_free(&comm_);
        comm_ = MPI_COMM_NULL;
        owned_ = false;
    }
    MPI_Comm comm_ = MPI_COMM_NULL;
    bool owned_ = false;
};

}  // namespace parbench::mpi
