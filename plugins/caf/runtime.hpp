// Starting and stopping OpenCoarrays inside a process whose MPI someone else owns (the MPI
// plugin, or a bench's own MPI environment).
#pragma once

#include "caf_kernels.h"

#include <mpi.h>

#include <cstddef>
#include <vector>

// OpenCoarrays' duplicate of MPI_COMM_WORLD (exported by libcaf_mpich).
extern "C" MPI_Comm CAF_COMM_WORLD;

namespace parbench::caf {

// OpenCoarrays' finalize announces "stopped" to every other image with one message each on its
// communicator, which only a later `sync images` would receive; there is none, and UCX reports
// each at MPI_Finalize as an "unexpected tag-receive descriptor ... was not matched" warning.
// Receives posted before the finalize take them. Every other image sends exactly one such
// message, so waiting for these receives cannot hang.
class stop_announcements {
public:
    stop_announcements() {
        int images = 1;
        int me = 0;
        MPI_Comm_size(CAF_COMM_WORLD, &images);
        MPI_Comm_rank(CAF_COMM_WORLD, &me);
        for (int other = 0; other < images; ++other) {
            if (other == me) continue;
            requests_.emplace_back();
            values_.emplace_back();
        }
        for (int other = 0, k = 0; other < images; ++other) {
            if (other == me) continue;
            MPI_Irecv(&values_[static_cast<std::size_t>(k)], 1, MPI_INT, other, MPI_ANY_TAG,
                      CAF_COMM_WORLD, &requests_[static_cast<std::size_t>(k)]);
            ++k;
        }
    }
    void receive() {
        MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    }

private:
    std::vector<MPI_Request> requests_;
    std::vector<int> values_;
};

// MPI must be running: OpenCoarrays then leaves both MPI_Init and MPI_Finalize to its owner.
inline void start_coarray_runtime(int* argc, char*** argv) { _gfortran_caf_init(argc, argv); }

// Collective; before MPI_Finalize.
inline void stop_coarray_runtime() {
    stop_announcements announcements;
    _gfortran_caf_finalize();
    announcements.receive();
}

}  // namespace parbench::caf
