#include "comm_service.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstddef>

#include "placement.hpp"

namespace parbench::mpi_plugin {
namespace comm_service_impl {
namespace {

MPI_Op op_of(int op) {
    switch (op) {
        case PARBENCH_OP_MIN: return MPI_MIN;
        case PARBENCH_OP_MAX: return MPI_MAX;
        default: return MPI_SUM;
    }
}

int comm_rank() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}
int comm_size() {
    int s = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
}
int comm_barrier() { return MPI_Barrier(MPI_COMM_WORLD); }
int comm_broadcast(void* data, size_t bytes, int root) {
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
int comm_allreduce_f64(double* inout, size_t count, int op) {
    return MPI_Allreduce(MPI_IN_PLACE, inout, static_cast<int>(count), MPI_DOUBLE, op_of(op),
                         MPI_COMM_WORLD);
}
int comm_gather_bytes(const void* send, size_t bytes, void* recv, int root) {
    return MPI_Gather(send, static_cast<int>(bytes), MPI_BYTE, recv, static_cast<int>(bytes),
                      MPI_BYTE, root, MPI_COMM_WORLD);
}
void comm_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }
double comm_wtime() { return MPI_Wtime(); }
int comm_processes_on_node() { return mpi::index_of_node(MPI_COMM_WORLD).processes_on_node; }

const parbench_comm_service service = {
    sizeof(parbench_comm_service),
    &comm_rank,
    &comm_size,
    &comm_barrier,
    &comm_broadcast,
    &comm_allreduce_f64,
    &comm_gather_bytes,
    &comm_abort,
    &comm_wtime,
    &comm_processes_on_node,
    {nullptr, nullptr, nullptr},
};

}  // namespace

}  // namespace comm_service_impl
const parbench_comm_service* comm_service() { return &comm_service_impl::service; }

}  // namespace parbench::mpi_plugin
