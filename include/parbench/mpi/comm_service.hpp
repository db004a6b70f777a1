// The communication service over MPI_COMM_WORLD (plugin/abi.h parbench_comm_service): rank, size,
// barrier, broadcast, reductions, gather and abort, for code that must not link MPI itself (the
// driver, other plugins). The MPI plugin offers it; a program built on parbench::mpi::main hands
// it to the driver's run code (driver/session_run.hpp), which links no MPI either.
#pragma once

#include <parbench/plugin/abi.h>

#include <mpi.h>

#include <algorithm>
#include <cstddef>

namespace parbench::mpi {

namespace world_service {

[[nodiscard]] inline MPI_Op op_of(int op) {
    switch (op) {
        case PARBENCH_OP_MIN: return MPI_MIN;
        case PARBENCH_OP_MAX: return MPI_MAX;
        default: return MPI_SUM;
    }
}

inline int rank() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}
inline int size() {
    int s = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
}
inline int barrier() { return MPI_Barrier(MPI_COMM_WORLD); }
inline int broadcast(void* data, size_t bytes, int root) {
    auto* p = static_cast<char*>(data);
    while (bytes > 0) {
        const auto chunk = std::min<size_t>(bytes, size_t{1} << 30);
        if (const int rc = MPI_Bcast(p, static_cast<int>(chunk), MPI_BYTE, root, MPI_COMM_WORLD);
            rc != MPI_SUCCESS)
            return rc;
        p += chunk;
        bytes -= chunk;
    }
    return MPI_SUCCESS;
}
inline int allreduce_f64(double* inout, size_t count, int op) {
    return MPI_Allreduce(MPI_IN_PLACE, inout, static_cast<int>(count), MPI_DOUBLE, op_of(op),
                         MPI_COMM_WORLD);
}
inline int gather_bytes(const void* send, size_t bytes, void* recv, int root) {
    return MPI_Gather(send, static_cast<int>(bytes), MPI_BYTE, recv, static_cast<int>(bytes),
                      MPI_BYTE, root, MPI_COMM_WORLD);
}
inline void abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }
inline double wtime() { return MPI_Wtime(); }

}  // namespace world_service

// The service; `processes_on_node` counts the processes sharing this process's node (the MPI
// plugin's comes from its placement, hwloc's view).
[[nodiscard]] constexpr parbench_comm_service world_comm_service(int (*processes_on_node)()) {
    return {
        sizeof(parbench_comm_service),
        &world_service::rank,
        &world_service::size,
        &world_service::barrier,
        &world_service::broadcast,
        &world_service::allreduce_f64,
        &world_service::gather_bytes,
        &world_service::abort,
        &world_service::wtime,
        processes_on_node,
        {nullptr, nullptr, nullptr},
    };
}

}  // namespace parbench::mpi
