// The IMB-IO benchmarks (MPI-IO; catalogue A.3.3) as definitions: an io_action descriptor, the
// file it works on (mpi/file_resource.hpp), one elementary MPI-IO call per iteration, and for
// writes the assured completion (mpi/file_completion.hpp) that the runner places after the M
// writes of an aggregate timing or after each write in non-aggregate mode. The nonblocking
// flavours add the nonblocking call and its overlapped kernel (A.6.10). No timing code.
#pragma once

#include "io/overlap.hpp"

#include <parbench/mpi/check.hpp>
#include <parbench/mpi/completion.hpp>
#include <parbench/mpi/file_completion.hpp>
#include <parbench/mpi/file_resource.hpp>
#include <parbench/mpi/timed_loop.hpp>
#include <parbench/pattern/io_action.hpp>
#include <parbench/policy/cpu_load.hpp>
#include <parbench/mpi/definition.hpp>
#include <parbench/suites/imb/methodology.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

namespace parbench::imb_io {

using mpi::file_view;
using mpi::kernel_context;
using pattern::io_access;
using pattern::io_action;
using pattern::io_direction;
using pattern::io_files;
namespace check = mpi::check;

// --- the elementary action ---------------------------------------------------------------------

// One MPI-IO call of X (or X/Q) bytes, chosen at compile time from the descriptor.
template <io_action A>
struct elementary_action {
    void operator()(const kernel_context& /*c*/, std::uint64_t i, const file_view& v) const {
        void* b = v.buffer;
        constexpr bool write = A.direction == io_direction::write;
        if constexpr (A.access == io_access::individual) {
            if constexpr (write && A.collective)
                v.note(MPI_File_write_all(v.fh, b, v.count, MPI_BYTE, MPI_STATUS_IGNORE));
            else if constexpr (write)
                v.note(MPI_File_write(v.fh, b, v.count, MPI_BYTE, MPI_STATUS_IGNORE));
            else if constexpr (A.collective)
                v.note(MPI_File_read_all(v.fh, b, v.count, MPI_BYTE, MPI_STATUS_IGNORE));
            else
                v.note(MPI_File_read(v.fh, b, v.count, MPI_BYTE, MPI_STATUS_IGNORE));
        } else if constexpr (A.access == io_access::explicit_offset) {
            if constexpr (write && A.collective)
                v.note(MPI_File_write_at_all(v.fh, v.offset(i), b, v.count, MPI_BYTE, MPI_STATUS_IGNORE));
            else if constexpr (write)
                v.note(MPI_File_write_at(v.fh, v.offset(i), b, v.count, MPI_BYTE, MPI_STATUS_IGNORE));
            else if constexpr (A.collective)
                v.note(MPI_File_read_at_all(v.fh, v.offset(i), b, v.count, MPI_BYTE, MPI_STATUS_IGNORE));
            else
                v.note(MPI_File_read_at(v.fh, v.offset(i), b, v.count, MPI_BYTE, MPI_STATUS_IGNORE));
        } else if constexpr (A.access == io_access::shared) {
            if constexpr (write)
                v.note(MPI_File_write_shared(v.fh, b, v.count, MPI_BYTE, MPI_STATUS_IGNORE));
            else
                v.note(MPI_File_read_shared(v.fh, b, v.count, MPI_BYTE, MPI_STATUS_IGNORE));
        } else {
            if constexpr (write)
                v.note(MPI_File_write_ordered(v.fh, b, v.count, MPI_BYTE, MPI_STATUS_IGNORE));
            else
                v.note(MPI_File_read_ordered(v.fh, b, v.count, MPI_BYTE, MPI_STATUS_IGNORE));
        }
    }
};

// The nonblocking form of the same call (catalogue A.3.3's "Nonblocking calls"): begin starts
// it — MPI_File_i... with a request, or a collective's split _begin — and end waits for it
// (MPI_Wait, or the split _end).
template <io_action A>
struct nonblocking_action {
    void begin(std::uint64_t i, const file_view& v, MPI_Request& r) const {
        void* b = v.buffer;
        constexpr bool write = A.direction == io_direction::write;
        if constexpr (A.collective) {
            if constexpr (A.access == io_access::individual)
                v.note(write ? MPI_File_write_all_begin(v.fh, b, v.count, MPI_BYTE)
                             : MPI_File_read_all_begin(v.fh, b, v.count, MPI_BYTE));
            else if constexpr (A.access == io_access::explicit_offset)
                v.note(write ? MPI_File_write_at_all_begin(v.fh, v.offset(i), b, v.count, MPI_BYTE)
                             : MPI_File_read_at_all_begin(v.fh, v.offset(i), b, v.count, MPI_BYTE));
            else
                v.note(write ? MPI_File_write_ordered_begin(v.fh, b, v.count, MPI_BYTE)
                             : MPI_File_read_ordered_begin(v.fh, b, v.count, MPI_BYTE));
        } else if constexpr (A.access == io_access::individual) {
            v.note(write ? MPI_File_iwrite(v.fh, b, v.count, MPI_BYTE, &r)
                         : MPI_File_iread(v.fh, b, v.count, MPI_BYTE, &r));
        } else if constexpr (A.access == io_access::explicit_offset) {
            v.note(write ? MPI_File_iwrite_at(v.fh, v.offset(i), b, v.count, MPI_BYTE, &r)
                         : MPI_File_iread_at(v.fh, v.offset(i), b, v.count, MPI_BYTE, &r));
        } else {
            v.note(write ? MPI_File_iwrite_shared(v.fh, b, v.count, MPI_BYTE, &r)
                         : MPI_File_iread_shared(v.fh, b, v.count, MPI_BYTE, &r));
        }
    }

    void end(const file_view& v, MPI_Request& r) const {
        void* b = v.buffer;
        constexpr bool write = A.direction == io_direction::write;
        if constexpr (A.collective) {
            if constexpr (A.access == io_access::individual)
                v.note(write ? MPI_File_write_all_end(v.fh, b, MPI_STATUS_IGNORE)
                             : MPI_File_read_all_end(v.fh, b, MPI_STATUS_IGNORE));
            else if constexpr (A.access == io_access::explicit_offset)
                v.note(write ? MPI_File_write_at_all_end(v.fh, b, MPI_STATUS_IGNORE)
                             : MPI_File_read_at_all_end(v.fh, b, MPI_STATUS_IGNORE));
            else
                v.note(write ? MPI_File_write_ordered_end(v.fh, b, MPI_STATUS_IGNORE)
                             : MPI_File_read_ordered_end(v.fh, b, MPI_STATUS_IGNORE));
        } else {
            v.note(MPI_Wait(&r, MPI_STATUS_IGNORE));
        }
    }
};

// t_ovrl's iteration that ends its own transfer: a C_ flavour's (catalogue A.6.10; IMB's
// collective branch, IMB_write.c:386-435, IMB_read.c:415-476, in both modes): begin the split
// collective, exploit the CPU, end it. (bench/io_overhead.cpp also times it for S_IWrite_indv
// beside a plain loop of the same per-iteration shape.)
template <io_action A, class Work>
struct overlapped_transfer {
    Work* work;
    void operator()(const kernel_context& /*c*/, std::uint64_t i, const file_view& v) const {
        const nonblocking_action<A> io;
        MPI_Request request = MPI_REQUEST_NULL;
        io.begin(i, v, request);
        work->run();
        io.end(v, request);
    }
};

// t_ovrl's iteration of an S_/P_ flavour: transfer i begun with a request of its own, at its own
// place (the individual or shared pointer advanced by the one before it, or offset(i): IMB's
// disjoint portions, IMB_write.c:474, IMB_read.c:517), from the view's one buffer as IMB's
// s_buffer / r_buffer; the epoch's completion runs the work and waits for them all
// (io::overlapped_completion).
template <io_action A>
struct begun_transfer {
    mpi_plugin::io::overlap_epoch* epoch;
    void operator()(const kernel_context& /*c*/, std::uint64_t i, const file_view& v) const {
        MPI_Request& request = epoch->requests.emplace_back(MPI_REQUEST_NULL);
        nonblocking_action<A>{}.begin(i, v, request);
    }
};

// --- -check --------------------------------------------------------------------------------------

// Every process writes (and a prefilled file holds, in every block, under 4.0) check::fill_bytes
// of the block's owner. After n timed writes each process reads back its blocks of tiles
// 0 .. n-1 (the file pointers were reset for the check) and counts the bytes that differ; after n
// reads, the buffer must hold its block. A kept file (IMB 2021's reads: file_plan::kept) holds
// mpi::block_file_byte of each offset instead, whatever the size: a read must deliver the bytes
// at its block of some tile t < tiles (offset t X + the block's offset), the tile of the last
// read not being known here (IMB compares a read with the content of its sample's portion,
// IMB_chk_diff.c:588-600). With the shared pointer (P_*_shared) the calls of all processes
// run through the file back to back in arrival order, each as long as its own block
// (pattern::io_rank_block), so a read starts wherever the pointer stood: at a block boundary only
// when the blocks are of one length. Its bytes must be consecutive bytes of the file from some
// offset, and the file repeats with period X (every tile holds the same blocks). Written tiles
// must hold no byte that was never written (the check's values are never zero, a preallocated
// file is).
template <io_action A>
struct file_contents {
    static constexpr bool shared_order = A.access == io_access::shared;

    // One tile of the prefilled common file: every process's block, each filled with its bytes.
    [[nodiscard]] static std::vector<std::byte> tile_contents(const kernel_context& c,
                                                              const file_view& v) {
        const auto x = static_cast<std::size_t>(v.portion);
        std::vector<std::byte> tile(x);
        for (int r = 0; r < c.size; ++r) {
            const auto block = pattern::io_rank_block(A, x, r, c.size, v.split);
            check::fill_bytes(std::span(tile).subspan(block.offset, block.bytes), r);
        }
        return tile;
    }

    // The fewest bytes of `data` that differ from mpi::block_file_byte read on from some offset
    // first + k step, k < starts. The offsets tried are those where a run of bytes at its start,
    // middle or end fits (three disjoint runs of n / 4 bytes, 1 to 8), so the count is exact
    // unless each run holds a defect; where none fits, every byte counts. Runs of 8 bytes on a
    // long read, not one byte: a byte alone fits one offset in 255 by chance, and each such
    // offset would cost a comparison of the whole read (through the shared pointer `starts` is
    // every byte of the size's tiles).
    [[nodiscard]] static std::uint64_t defects_at_best_offset(std::span<const std::byte> data,
                                                              std::uint64_t first,
                                                              std::uint64_t step,
                                                              std::uint64_t starts) {
        const std::size_t n = data.size();
        const std::size_t run = std::clamp<std::size_t>(n / 4, 1, 8);
        const auto fits = [&](std::uint64_t at, std::size_t from) {
            for (std::size_t j = from; j < from + run; ++j)
                if (data[j] != mpi::block_file_byte(at + j)) return false;
            return true;
        };
        std::uint64_t best = n;
        for (const std::size_t from : {std::size_t{0}, (n - run) / 2, n - run}) {
            for (std::uint64_t k = 0; k < starts && best > 0; ++k) {
                const std::uint64_t at = first + k * step;
                if (!fits(at, from)) continue;
                std::uint64_t defects = 0;
                for (std::size_t j = 0; j < n && defects < best; ++j)
                    defects += data[j] != mpi::block_file_byte(at + j) ? 1 : 0;
                best = std::min(best, defects);
            }
        }
        return best;
    }

    void prepare(const kernel_context& c, const file_view& v) const {
        const std::span<std::byte> block(v.buffer, static_cast<std::size_t>(v.count));
        if constexpr (A.direction == io_direction::write)
            check::fill_bytes(block, c.rank);
        else
            std::memset(v.buffer, 0, block.size());
    }

    [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t n,
                                       const file_view& v) const {
        const auto count = static_cast<std::size_t>(v.count);
        if (count == 0 || v.fh == MPI_FILE_NULL) return 0;
        if constexpr (A.direction == io_direction::read) {
            const std::span<const std::byte> block(v.buffer, count);
            if (v.content_by_offset) {
                // Through the shared pointer a read starts at any byte of the tiles, else at its
                // block of a tile.
                const auto portion = static_cast<std::uint64_t>(v.portion);
                if constexpr (shared_order)
                    return defects_at_best_offset(block, 0, 1, v.tiles * portion);
                else
                    return defects_at_best_offset(block, static_cast<std::uint64_t>(v.block_offset),
                                                  portion, v.tiles);
            }
            if constexpr (!shared_order) {
                return check::count_byte_defects(block, c.rank);
            } else {
                return check::count_defects_at_any_start(block, tile_contents(c, v));
            }
        } else {
            const std::uint64_t tiles = std::min<std::uint64_t>(n, v.tiles);
            std::vector<std::byte> back(count);
            std::uint64_t defects = 0;
            for (std::uint64_t t = 0; t < tiles; ++t) {
                if constexpr (shared_order) {
                    // Some block of tile t, whichever landed there: the tile as a whole is read
                    // by the process whose block position it would be.
                    v.note(MPI_File_read_at(v.fh, static_cast<MPI_Offset>(t) * v.portion + v.block_offset,
                                     back.data(), v.count, MPI_BYTE, MPI_STATUS_IGNORE));
                    defects += static_cast<std::uint64_t>(
                        std::count(back.begin(), back.end(), std::byte{0}));
                } else {
                    v.note(MPI_File_read_at(v.fh, v.offset(t), back.data(), v.count, MPI_BYTE,
                                     MPI_STATUS_IGNORE));
                    defects += check::count_byte_defects(back, c.rank);
                }
            }
            return defects;
        }
    }
};

// --- definitions -------------------------------------------------------------------------------

// IMB 2021's size of a block's file (IMB_init_file.c:203-225), made sparse with
// MPI_File_set_size (:236): total = max(L, OVERALL_VOL), or L · MSGSPERSAMPLE where
// OVERALL_VOL / L > MSGSPERSAMPLE, L the run's largest length; a file per process (`private_q`
// processes, P_*_priv) holds ceil(total / Q), plus sizeof(int) · MSGSPERSAMPLE where Q does not
// divide L. MSGSPERSAMPLE is IMB-IO's compiled 50 (IMB_settings_io.h:120), not -iter's value.
[[nodiscard]] constexpr std::uint64_t imb2021_block_file_bytes(std::uint64_t largest,
                                                               std::uint64_t overall_volume,
                                                               int private_q = 0) noexcept {
    constexpr std::uint64_t compiled_msgs_per_sample = 50;
    if (largest == 0) return 0;
    std::uint64_t total = std::max(largest, overall_volume);
    if (overall_volume / largest > compiled_msgs_per_sample)
        total = largest * compiled_msgs_per_sample;
    if (private_q > 0) {
        const auto q = static_cast<std::uint64_t>(private_q);
        total = (total + q - 1) / q;
        if (largest % q != 0) total += imb::assign_type_bytes * compiled_msgs_per_sample;
    }
    return total;
}
static_assert(imb2021_block_file_bytes(65536, 40ull << 20) == 3276800);  // 640 > 50
static_assert(imb2021_block_file_bytes(4ull << 20, 40ull << 20) == 40ull << 20);
static_assert(imb2021_block_file_bytes(65536, 40ull << 20, 3) == 1092267 + 200);

// The descriptor of an S_/P_/C_ benchmark from its parts.
[[nodiscard]] constexpr io_action action(io_files files, io_access access, io_direction direction,
                                         bool collective = false) {
    io_action a;
    a.files = files;
    a.access = access;
    a.direction = direction;
    a.collective = collective;
    a.who = files == io_files::one_process ? pattern::participants::single
                                           : pattern::participants::all;
    a.klass = collective                        ? benchmark_class::collective
              : files == io_files::one_process ? benchmark_class::single_transfer
                                                : benchmark_class::parallel_transfer;
    return a;
}

// IMB_get_rank_portion's split, worked by hand (IMB_init.c:1061-1072, unit 4): at Q = 2 a
// 2-byte portion is rank 0's, rank 1 has none; 10 bytes are 3 units, rank 0 takes 2 (8 bytes),
// rank 1 the last, cut to 2 bytes at offset 8; each private file takes rank 0's block (8 of 10
// bytes). With unit 1 and world ranks, 5 bytes are 3 + 2.
namespace split_examples {
inline constexpr io_action common_file =
    action(io_files::common, io_access::individual, io_direction::write);
inline constexpr io_action private_files =
    action(io_files::each_private, io_access::individual, io_direction::write);
inline constexpr pattern::io_split imb2021 = imb::methodology{}.io_portion_split();
static_assert(pattern::io_rank_block(common_file, 2, 0, 2, imb2021).bytes == 2);
static_assert(pattern::io_rank_block(common_file, 2, 1, 2, imb2021).bytes == 0);
static_assert(pattern::io_rank_block(common_file, 10, 0, 2, imb2021).bytes == 8);
static_assert(pattern::io_rank_block(common_file, 10, 1, 2, imb2021).offset == 8);
static_assert(pattern::io_rank_block(common_file, 10, 1, 2, imb2021).bytes == 2);
static_assert(pattern::io_rank_block(private_files, 10, 1, 2, imb2021).bytes == 8);
static_assert(pattern::io_rank_block(private_files, 10, 1, 2, imb2021).offset == 0);
static_assert(pattern::io_rank_block(common_file, 5, 1, 2).offset == 3);
static_assert(pattern::io_rank_block(common_file, 5, 1, 2).bytes == 2);
static_assert(pattern::io_rank_block(private_files, 5, 1, 2).bytes == 2);
}  // namespace split_examples

// A blocking transfer benchmark: writes in both of IMB's modes with the assured completion,
// reads in one block without aggregation.
template <io_action A>
struct transfer_def : mpi::definition_defaults {
    static constexpr io_action descriptor = A;
    static constexpr bool writes = A.direction == io_direction::write;
    static constexpr mpi::definition_traits traits{
        .modes = writes ? mpi::run_modes::both : mpi::run_modes::single,
        .warm_up = false};  // IMB-IO has no warm-up
    using completion = std::conditional_t<writes, mpi::io::assured_completion, mpi::no_completion>;
    // A benchmark with one mode runs in the methodology's (the family asks
    // imb::methodology::io_single_mode_is_aggregate).
    static constexpr bool single_mode_follows_methodology = true;

    static mpi::file_plan file(std::size_t x, const kernel_context& c, const mpi::file_site& site) {
        const bool common = A.files == io_files::common;
        mpi::file_plan p;
        p.private_file = !common;
        p.path = mpi::file_path(site, A.files == io_files::each_private ? c.rank : -1);
        p.tiled_view = common && A.access == io_access::individual;
        p.prefill = !writes;
        p.shared_pointer = A.access == io_access::shared || A.access == io_access::ordered;
        const auto block = pattern::io_rank_block(A, x, c.rank, c.size, site.split);
        p.block_bytes = block.bytes;
        p.block_offset = block.offset;
        p.split = site.split;
        p.portion_bytes = common ? x : p.block_bytes;
        p.tiles = site.tiles;
        p.epochs_from_file_start = site.epochs_from_file_start;
        // IMB 2021: the block's file, made once for the block at IMB's size and kept across
        // its sizes (file_plan::kept). Reads: its content a function of the offset alone, total
        // bytes from offset 0 (IMB_init_file.c:239-261), so a read past them reads nothing, as
        // IMB's do; under -check as many more as this size's tiles need. Writes: sparse, each
        // size writing over what the earlier ones left, an aggregate epoch on the file cut back
        // to the size this size found it at.
        if (site.kept != nullptr) {
            p.kept = site.kept;
            p.block_file_bytes = imb2021_block_file_bytes(
                site.largest_length, site.overall_volume,
                A.files == io_files::each_private ? c.size : 0);
            if (!writes && site.reads_find_block_file) p.content_bytes = p.block_file_bytes;
            if (writes) p.cut_back_each_epoch = site.cut_back_each_epoch;
        }
        return p;
    }
    static elementary_action<A> make_kernel(const kernel_context& /*c*/) { return {}; }
    using verify_check = file_contents<A>;
};

// The nonblocking flavours' table (catalogue A.6.10, as IMB-NBC's A.7.2): the record's typed
// overlap figures.
inline constexpr mpi::table_column overlap_columns[] = {{"t_ovrl_us", "t_ovrl[usec]"},
                                                        {"t_pure_us", "t_pure[usec]"},
                                                        {"t_cpu_us", "t_CPU[usec]"},
                                                        {"overlap_percent", "overlap[%]"}};

// The nonblocking flavour of a transfer benchmark (S_/P_/C_ IWrite/IRead): one mode
// (non-aggregate in the guide, catalogue A.3.3; aggregate in IMB 2021:
// imb::methodology::io_single_mode_is_aggregate), its file, kernel for t_pure, completion and
// -check those of the blocking form; measured by io::measure_overlap (t_pure, t_ovrl, t_CPU,
// overlap[%]) with the methodology's CPU load and t_CPU. An S_/P_ flavour's aggregate sample
// begins its n transfers, runs the work n times and waits for them in one MPI_Waitall before
// the assured completion, as IMB 2021 (IMB_write.c:462-501); in non-aggregate mode that is
// begin; work; MPI_Wait; completion per transfer, the guide's sequence.
template <io_action A>
struct nonblocking_def : transfer_def<A> {
    static constexpr mpi::definition_traits traits{.modes = mpi::run_modes::non_aggregate,
                                                  .warm_up = false,
                                                  .columns = overlap_columns};

    // `cpu_work`: the run's CPU work, made by imb::suite::run only where the methodology
    // calibrates it once per run (IMB 2021: io_calibrates_once_per_run), else nullptr: the
    // run's choice, not tested again here.
    template <class Config>
    static mpi::measurement measure(const mpi::session& s, Config&& config,
                                    const imb::methodology& m,
                                    mpi::imb_cpu_work* cpu_work) {
        return mpi_plugin::io::measure_overlap(
            s, std::forward<Config>(config),
            [](mpi_plugin::io::overlap_epoch* epoch) {
                if constexpr (A.collective)
                    return overlapped_transfer<A, policy::matvec_load>{epoch->work};
                else
                    return begun_transfer<A>{epoch};
            },
            {.target_cpu_s = m.io_cpu_load_s(),
             .run_work = cpu_work,
             .times_each_their_maximum = m.io_times_each_their_maximum()});
    }
};

// Open_Close: every process of the group opens the same file, writes one byte (a negligible
// non-trivial action, so that an unused file is not optimised away) and closes it.
struct open_close_def : mpi::definition_defaults {
    static constexpr io_action descriptor = [] {
        io_action a = action(io_files::common, io_access::explicit_offset, io_direction::write);
        a.klass = benchmark_class::other;
        a.throughput = pattern::throughput_rule::none;
        return a;
    }();
    static constexpr mpi::definition_traits traits{.has_bytes = false, .warm_up = false};
    // IMB 2021 counts it as non-aggregate (imb::methodology::io_open_close_counts_msgs_nonaggr).
    static constexpr bool repeats_msgs_nonaggr_in_imb2021 = true;
    static mpi::file_plan file(std::size_t /*x*/, const kernel_context& /*c*/,
                               const mpi::file_site& site) {
        mpi::file_plan p;
        p.path = mpi::file_path(site);
        p.open_in_setup = false;
        p.block_bytes = 1;
        p.portion_bytes = 1;
        return p;
    }
    struct kernel {
        void operator()(const kernel_context& c, std::uint64_t /*i*/, const file_view& v) const {
            MPI_File fh = MPI_FILE_NULL;
            v.note(MPI_File_open(v.comm, v.path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
            v.note(MPI_File_write_at(fh, c.rank, v.buffer, 1, MPI_BYTE, MPI_STATUS_IGNORE));
            v.note(MPI_File_close(&fh));
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
};

}  // namespace parbench::imb_io
