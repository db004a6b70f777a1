// The caf suite's benchmark families, one file each in this directory: the put/get ping-pongs
// and their MPI_Send comparison (point_to_point.cpp), the synchronisation overheads
// (synchronisation.cpp) and the halo swap (halo.cpp). The suite (suite.cpp) chooses what runs
// and calls each chosen row's family in catalogue order; every family call is collective over
// all images and emits its own records.
//
// Each file runs its benchmark through mpi::sweep() (mpi/sweep.hpp) with a family policy of its
// own, as every MPI-family suite does. Every image takes part in every measurement (EPCC's idle
// images still join `sync all`), so where IMB sweeps process counts, a caf family's "process
// counts" are its tables, each on all images: one per runnable ping-pong mode and step
// synchronisation, in the options' order; one for the halo swap and for each synchronisation
// benchmark. Its sizes are a table's rows: the -count list, the -halosize list, the neighbour
// lists of a synchronisation. No size is skipped for memory (the coarray is the resource, the
// runner's buffers are empty: timing.hpp), so close() has no notes to give.
#pragma once

#include "neighbours.hpp"
#include "options.hpp"
#include "point_to_point.hpp"
#include "timing.hpp"

#include <parbench/mpi/sweep.hpp>
#include <parbench/plugin/export.hpp>

#include <mpi.h>

#include <array>
#include <string>
#include <string_view>

namespace parbench::caf {

// What every family reads during one run of the suite.
struct run_context {
    const options& opts;
    const plugin::host_channel& host;
    const mpi::session& images;
    int rank = 0;
    int size = 1;
    timing_settings timing;
};

// EPCC's "MPI_Cart_dims" grid, reversed for Fortran indexing (x varies fastest).
[[nodiscard]] inline grid3 image_grid(int images) {
    std::array<int, 3> dims{0, 0, 0};
    MPI_Dims_create(images, 3, dims.data());
    return {{dims[2], dims[1], dims[0]}};
}

// ---- point_to_point.cpp ----
// One put or get pattern over every mode, step synchronisation and count of the options.
void run_transfer(const run_context& c, const transfer_pattern& p);
// The same ping-pong with MPI_Send/MPI_Recv, EPCC's sanity check.
void run_mpi_send(const run_context& c);

// ---- synchronisation.cpp ----
enum class sync_kind { all, mpi_barrier, pairwise, random, ring, grid, lock, critical };
// Opens the library of the `critical` construct; collective, once the coarray runtime started.
void open_critical_section();
// Why sync_critical cannot run ("" when it can).
[[nodiscard]] std::string critical_section_problem();
// Delay-loop iterations that take `delay_us` on rank 0, the same count on every image.
[[nodiscard]] int calibrate_delay(double delay_us);
// The overhead of one kind of synchronisation, one row per neighbour count the kind has.
void run_sync(const run_context& c, std::string_view name, sync_kind kind, int delay_loops);

// ---- halo.cpp ----
// The 3D periodic halo swap at every halo size of the options.
void run_halo(const run_context& c);

}  // namespace parbench::caf
