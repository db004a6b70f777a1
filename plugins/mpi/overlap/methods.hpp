// One overlap iteration of a method (catalogue B.1) in a variant (B.2), as a runner kernel
// (mpi/timed_loop.hpp): the variant is a template parameter, so the timed region holds the MPI
// calls and the busy wait and no branch on options.
//
// Messages (the seed leaves them open): `count` MPI_DOUBLEs per process; MPI_SUM for the
// reduction; root 0 for broadcast, gather and scatter. gather/allgather receive count · np,
// scatter sends count · np from the root.
#pragma once

#include "overlap/options.hpp"

#include <parbench/mpi/cpu_load.hpp>
#include <parbench/mpi/message_buffers.hpp>
#include <parbench/policy/cpu_load.hpp>
#include <parbench/mpi/timed_loop.hpp>

#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace parbench::overlap {

inline constexpr int root = 0;

// The send and receive bytes of one iteration on one process.
[[nodiscard]] constexpr mpi::buffer_layout message_layout(method m, std::uint64_t count,
                                                          int processes) noexcept {
    const std::uint64_t x = count * sizeof(double);
    const std::uint64_t all = x * static_cast<std::uint64_t>(processes);
    switch (m) {
        case method::barrier: return {0, 0};
        case method::allreduce: return {x, x};
        case method::broadcast: return {x, 0};
        case method::gather:
        case method::allgather: return {x, all};
        case method::scatter: return {all, x};
    }
    return {0, 0};
}

template <method M>
struct call {
    static void blocking(const mpi::kernel_context& c, void* send, void* recv, int n) {
        if constexpr (M == method::allreduce)
            MPI_Allreduce(send, recv, n, MPI_DOUBLE, MPI_SUM, c.comm);
        else if constexpr (M == method::barrier)
            MPI_Barrier(c.comm);
        else if constexpr (M == method::broadcast)
            MPI_Bcast(send, n, MPI_DOUBLE, root, c.comm);
        else if constexpr (M == method::gather)
            MPI_Gather(send, n, MPI_DOUBLE, recv, n, MPI_DOUBLE, root, c.comm);
        else if constexpr (M == method::allgather)
            MPI_Allgather(send, n, MPI_DOUBLE, recv, n, MPI_DOUBLE, c.comm);
        else
            MPI_Scatter(send, n, MPI_DOUBLE, recv, n, MPI_DOUBLE, root, c.comm);
    }
    static void start(const mpi::kernel_context& c, void* send, void* recv, int n,
                      MPI_Request& r) {
        if constexpr (M == method::allreduce)
            MPI_Iallreduce(send, recv, n, MPI_DOUBLE, MPI_SUM, c.comm, &r);
        else if constexpr (M == method::barrier)
            MPI_Ibarrier(c.comm, &r);
        else if constexpr (M == method::broadcast)
            MPI_Ibcast(send, n, MPI_DOUBLE, root, c.comm, &r);
        else if constexpr (M == method::gather)
            MPI_Igather(send, n, MPI_DOUBLE, recv, n, MPI_DOUBLE, root, c.comm, &r);
        else if constexpr (M == method::allgather)
            MPI_Iallgather(send, n, MPI_DOUBLE, recv, n, MPI_DOUBLE, c.comm, &r);
        else
            MPI_Iscatter(send, n, MPI_DOUBLE, recv, n, MPI_DOUBLE, root, c.comm, &r);
    }
};

// One iteration: the collective and `work_s` of busy wait (policy/cpu_load.hpp's NB_Sleep
// spin, mpi/cpu_load.hpp's NB_active spin that tests the request), placed as the variant says.
// Blocking and NB_Wait spin after the collective has completed: nothing can overlap.
template <method M, variant V>
struct iteration {
    int count = 1;
    double work_s = 0.0;

    template <class Buffers>
    void operator()(const mpi::kernel_context& c, std::uint64_t i, const Buffers& b) const {
        void* send = b.send(i);
        void* recv = b.recv(i);
        if constexpr (V == variant::blocking) {
            call<M>::blocking(c, send, recv, count);
            policy::busy_wait_for(work_s);
        } else {
            MPI_Request r = MPI_REQUEST_NULL;
            call<M>::start(c, send, recv, count, r);
            if constexpr (V == variant::nb_wait) {
                MPI_Wait(&r, MPI_STATUS_IGNORE);
                policy::busy_wait_for(work_s);
            } else if constexpr (V == variant::nb_sleep) {
                policy::busy_wait_for(work_s);
                MPI_Wait(&r, MPI_STATUS_IGNORE);
            } else {
                mpi::test_while_busy(r, work_s);
                MPI_Wait(&r, MPI_STATUS_IGNORE);
            }
        }
    }
};

}  // namespace parbench::overlap
