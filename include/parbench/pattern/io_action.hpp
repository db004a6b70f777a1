// io_action: MPI-IO between processes and files (IMB-IO, catalogue A.3.3). The descriptor says
// who does I/O on which file, how the file is addressed, in which direction and whether the call
// is blocking, nonblocking or collective; the runner reads the class, throughput rule and
// participants like any other pattern's, and only this category accepts the file completion
// (mpi/file_completion.hpp).
#pragma once

#include <parbench/pattern/pattern.hpp>

#include <algorithm>
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

// Process `rank`'s block of a portion of `bytes` split among `processes`: the bytes it moves in
// one elementary action and where its block starts inside the portion. IMB's split
// (IMB_get_rank_portion, IMB 2021.11 src_c/IMB_init.c:1030-1075): the portion counts
// ceil(bytes / unit) units; each process takes units / Q of them in rank order, the first
// units mod Q one more; the last block is cut at the portion's end, and a process past it has
// none. IMB splits in units of sizeof(assign_type) = 4 bytes (IMB_init_transfer.c:109), so at
// Q = 2 a portion of 4 bytes or less is rank 0's alone, and by the process's rank in the file's
// communicator (File_rank), which is 0 for every process of P_*_priv (a file on MPI_COMM_SELF,
// IMB_init_file.c:147-156): each private file takes the first block. With unit 1 and the world
// rank (the guide's X/Q) each process has X/Q bytes, the first X mod Q one more.
struct io_split {
    std::size_t unit = 1;
    bool by_file_rank = false;
};
struct io_block {
    std::size_t offset = 0;
    std::size_t bytes = 0;
};
[[nodiscard]] constexpr io_block io_rank_block(const io_action& a, std::size_t bytes, int rank,
                                               int processes, io_split split = {}) noexcept {
    if (a.files == io_files::one_process || processes <= 1) return {0, bytes};
    const auto q = static_cast<std::size_t>(processes);
    const bool own_file = a.files != io_files::common;
    const auto r = static_cast<std::size_t>(split.by_file_rank && own_file ? 0 : rank);
    const std::size_t unit = split.unit;
    const std::size_t units = (bytes + unit - 1) / unit;
    const std::size_t base = units / q;
    const std::size_t extra = units % q;
    const std::size_t first = (r * base + std::min(r, extra)) * unit;
    const std::size_t length = (base + (r < extra ? 1 : 0)) * unit;
    const std::size_t end = std::min(first + length, bytes);
    // A file per process (P_*_priv) holds its block from offset 0.
    const std::size_t offset = own_file ? 0 : std::min(first, bytes);
    return {offset, end > first ? end - first : 0};
}

}  // namespace parbench::pattern
