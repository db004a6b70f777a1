// The completion of MPI-IO writes (mpi/completion.hpp's open/close): IMB's assured completion,
// the triplet MPI_File_sync; MPI_Barrier(file communicator); MPI_File_sync — "the minimum
// sequence of operations after which all processes of the file communicator have a consistent
// view after a write" (catalogue A.6.9). The aggregation policy places it: once after the M
// writes of an aggregate timing, after every write in non-aggregate mode. It acts only on a
// file_view, so naming it for another resource does not compile.
#pragma once

#include <parbench/mpi/file_resource.hpp>
#include <parbench/mpi/timed_loop.hpp>

#include <mpi.h>

#include <string_view>

namespace parbench::mpi::io {

struct assured_completion {
    static constexpr std::string_view name = "sync_barrier_sync";
    void open(const kernel_context& /*c*/, const file_view& /*v*/) const noexcept {}
    void close(const kernel_context& /*c*/, const file_view& v) const {
        v.note(MPI_File_sync(v.fh));
        MPI_Barrier(v.comm);
        v.note(MPI_File_sync(v.fh));
    }
};

}  // namespace parbench::mpi::io
