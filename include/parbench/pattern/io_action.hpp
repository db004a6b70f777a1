// io_action: MPI-IO between processes and files (IMB-IO, catalogue A.3.3). The descriptor says
// who does I/O on which file, how the file is addressed, in which direction and whether the call
// is blocking, nonblocking or collective; the runner reads the class, throughput rule and
// participants like any other pattern's, and only this category accepts the file completion
// (mpi/file_completion.hpp).
#pragma once

#include <parbench/pattern/pattern.hpp>

#include <cstddef>
#include <string_view>

namespace parbench::pattern {

// Who does I/O, on which file.
enum class io_files {
    one_process,   // S_: one process on a private file (the others of the run wait)
    common,        // P_/C_: every process of the group on one common file, disjoint blocks
    each_private,  // P_priv: every process on its own file, opened on MPI_COMM_SELF
};

// How an elementary action addresses the file.
enum class io_access {
    individual,  // individual file pointer (tiled view on a common file)
    explicit_offset,
    shared,      // shared file pointer (MPI_File_write_shared)
    ordered,     // shared file pointer, collective in rank order (MPI_File_write_ordered)
};

enum class io_direction { write, read };

// Blocking calls, or nonblocking ones (MPI_File_iwrite, split collective _begin/_end).
enum class io_call { blocking, nonblocking };

struct io_action {
    using category = io_tag;
    benchmark_class klass = benchmark_class::single_transfer;
    participants who = participants::single;
    io_files files = io_files::one_process;
    io_access access = io_access::individual;
    io_direction direction = io_direction::write;
    io_call call = io_call::blocking;
    bool collective = false;  // C_: every process of the group calls (_all, _at_all, _ordered)
    int nmsg = 1;             // X bytes per iteration in all (X/Q per process on a common file)
    double time_divisor = 1.0;
    bool rooted = false;
    // IMB-IO reports X/t for S_, P_ and C_ alike (the C_ definition is "as P_"): the whole
    // portion X over the slowest process's time.
    throughput_rule throughput = throughput_rule::per_iteration;
};

static_assert(io_descriptor<io_action>);

// The bytes process `rank` of `processes` moves in one elementary action of a portion of
// `bytes`, and where its block starts inside the portion: X/Q each, the first X mod Q
// processes one byte more, blocks in rank order (IMB's disjoint contiguous blocks).
[[nodiscard]] constexpr std::size_t io_block_bytes(const io_action& a, std::size_t bytes,
                                                   int rank, int processes) noexcept {
    if (a.files == io_files::one_process || processes <= 1) return bytes;
    const auto q = static_cast<std::size_t>(processes);
    const auto r = static_cast<std::size_t>(rank);
    return bytes / q + (r < bytes % q ? 1 : 0);
}
[[nodiscard]] constexpr std::size_t io_block_offset(const io_action& a, std::size_t bytes,
                                                    int rank, int processes) noexcept {
    if (a.files != io_files::common || processes <= 1) return 0;
    const auto q = static_cast<std::size_t>(processes);
    const auto r = static_cast<std::size_t>(rank);
    return r * (bytes / q) + (r < bytes % q ? r : bytes % q);
}

}  // namespace parbench::pattern
