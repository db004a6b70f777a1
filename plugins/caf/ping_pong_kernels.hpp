// The kernels of one ping-pong iteration (caf suite, point-to-point): used by the plugin and,
// unchanged, by bench/caf_put_overhead.cpp, which compares them with the same loop written in
// Fortran.
#pragma once

#include "caf_kernels.h"

#include <parbench/mpi/timed_loop.hpp>

#include <mpi.h>

#include <cstdint>

namespace parbench::caf {

struct sync_all_step {
    void operator()(int /*partner_image*/) const { parbench_caf_sync_all(); }
};
struct sync_images_step {
    void operator()(int partner_image) const {
        if (partner_image > 0) parbench_caf_sync_image(partner_image);
    }
};

// One ping-pong iteration: the data travels there (step one) and back (step two), each step
// closed by the synchronisation. Which image calls the transfer in a step depends on the
// direction: the sender puts, the receiver gets.
template <class Sync>
struct ping_pong_kernel {
    parbench_caf_transfer transfer = nullptr;
    int partner_image = 0;  // 0: idle
    bool moves_in_step_one = false;
    bool moves_in_step_two = false;
    Sync sync{};
    template <class Buffers>
    void operator()(const mpi::kernel_context& /*c*/, std::uint64_t /*i*/, const Buffers&) const {
        if (moves_in_step_one) transfer(partner_image);
        sync(partner_image);
        if (moves_in_step_two) transfer(partner_image);
        sync(partner_image);
    }
};

// EPCC's sanity check: the same round trip with MPI_Send/MPI_Recv and no coarray sync.
struct mpi_send_kernel {
    double* data = nullptr;
    int ndata = 0;
    int partner = -1;  // rank; -1: idle
    bool initiator = false;
    template <class Buffers>
    void operator()(const mpi::kernel_context& /*c*/, std::uint64_t /*i*/, const Buffers&) const {
        if (partner < 0) return;
        if (initiator) {
            MPI_Send(data, ndata, MPI_DOUBLE, partner, 0, MPI_COMM_WORLD);
            MPI_Recv(data, ndata, MPI_DOUBLE, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(data, ndata, MPI_DOUBLE, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(data, ndata, MPI_DOUBLE, partner, 0, MPI_COMM_WORLD);
        }
    }
};

}  // namespace parbench::caf
