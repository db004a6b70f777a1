// The file resource (mpi/resource.hpp's steps) of the MPI-IO benchmarks: a file opened
// collectively outside the timed region, with its view and its content (preallocated for
// writes, written for reads), closed and deleted when the measurement ends (IMB 2021's file of a
// block, kept_file, when its block ends: made once and kept across the sizes). Kernels address it
// through a file_view: the handle, the process's buffer and the offset of iteration i.
//
// Tiles: the file is `tiles` portions of X bytes (IMB's I/O portion); in each, every process of a
// common file owns one disjoint contiguous block (X/Q bytes, mpi/../pattern/io_action.hpp).
// Iteration i addresses tile i mod tiles (explicit offsets), or the next tile (file pointers),
// so the M transfers of an aggregate timing go to disjoint file sections. A file has room for
// the warm-up and the largest timed count. File pointers run on from the warm-up, except where
// -check needs to know where the timed iterations wrote (prepare_check) and where the plan
// starts every timed epoch, and the second probe run, at the file's beginning (begin_epoch: IMB
// 2021 under its dynamic policy, whose calibration runs and timed sample each start at offset 0
// of a file just opened or rewound).
//
// Storage: check_storage() compares what the files of one size need on their file system with
// what it has free, so the runner can skip the size with a warning instead of failing on ENOSPC.
#pragma once

#include <parbench/core/buffers.hpp>
#include <parbench/mpi/block_file_content.hpp>
#include <parbench/mpi/check.hpp>
#include <parbench/mpi/communicator.hpp>
#include <parbench/mpi/file_errors.hpp>
#include <parbench/mpi/resource.hpp>
#include <parbench/mpi/timed_loop.hpp>
#include <parbench/pattern/io_action.hpp>

#include <fmt/format.h>
#include <mpi.h>
#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace parbench::mpi {

// IMB 2021's file of a block, made once per block (process count and mode: IMB_init_file at
// original_benchmark.h:163-175; a read benchmark's with its content, a write benchmark's sparse)
// and kept across the block's sizes, each opening it (IMB_init_transfer.c:183) and closing it
// (:273-274): what the block's sizes have made of it so far. One per pass in imb::family, whose
// close() removes it (remove_kept_file) when the block ends.
struct kept_file {
    std::string path;                 // where it is, once made; empty: not made yet (the
                                      // block's next size makes it)
    std::uint64_t content_bytes = 0;  // reads: the bytes of block_file_byte it holds from 0
    std::uint64_t size_bytes = 0;     // writes: its size when the size now measured began
                                      // (what the block's earlier sizes left it at)
    bool remover = false;             // this process removes it (the file's first process)

    [[nodiscard]] bool made() const noexcept { return !path.empty(); }
};

// After the block: its kept file removed by the file's first process (every process of the file
// closed it at its last size's teardown, which ends in a barrier of the file's processes).
inline void remove_kept_file(kept_file& f) noexcept {
    if (f.remover && !f.path.empty()) {
        std::error_code ignored;
        std::filesystem::remove(f.path, ignored);
    }
    f = {};
}

// After a count: the kept files of its blocks removed, each path once. A write benchmark's two
// modes are two blocks on one path, the second's file made where its first size removed the
// first's as a stale one (IMB_init_file.c:195): one file left, unlinked once.
inline void remove_kept_files(std::span<kept_file> files) noexcept {
    for (auto f = files.begin(); f != files.end(); ++f) {
        const bool reused = std::any_of(std::next(f), files.end(), [&](const kept_file& later) {
            return later.made() && later.path == f->path;
        });
        if (reused)
            *f = {};
        else
            remove_kept_file(*f);
    }
}

// Where the files of one measurement go and how many tiles they hold.
struct file_site {
    std::string directory;              // the run's own directory
    std::string base_name = "IMB_out";  // IMB's FILENAME
    int group = -1;                     // multiple mode: the "_g<group>" suffix
    std::uint64_t tiles = 1;
    bool epochs_from_file_start = false;  // file_plan::epochs_from_file_start for every file
    bool cut_back_each_epoch = false;   // file_plan::cut_back_each_epoch (aggregate writes)
    // What a definition sizes the block's file by (file_plan::block_file_bytes): the run's
    // largest length and the volume rule's OVERALL_VOL, in bytes.
    std::uint64_t largest_length = 0;
    std::uint64_t overall_volume = 0;
    // How a portion is split among the processes (pattern::io_rank_block).
    pattern::io_split split{};
    // Reads under IMB 2021 (file_plan::content_bytes): the file holds what IMB's block file
    // holds, so that reads past its end read nothing, as IMB's do. false: every tile prefilled
    // (the 4.0 rule, and -check, which needs data wherever it reads).
    bool reads_find_block_file = false;
    // IMB 2021 (file_plan::kept): the pass's file, made at its first size and kept across its
    // sizes, for reads and writes alike; nullptr: a fresh file per size. Not owned.
    kept_file* kept = nullptr;
};

struct file_plan {
    std::string path;             // this process's file
    bool private_file = false;    // opened on MPI_COMM_SELF (one process, P_priv)
    bool open_in_setup = true;    // false: the kernel opens and closes it (Open_Close)
    bool tiled_view = false;      // a common file through the individual pointer: a view that
                                  // shows each process only its blocks
    bool prefill = false;         // reads: the blocks hold their data before timing
    bool shared_pointer = false;  // -check resets the shared pointer (collective)
    std::size_t portion_bytes = 0;  // one tile: X on a common file, the block on a private one
    std::size_t block_bytes = 0;    // this process's part of a tile
    std::size_t block_offset = 0;   // where it starts in the tile
    pattern::io_split split{};      // the tile's split among the processes
    std::uint64_t tiles = 1;
    // Every timed epoch of an aggregate completion, and the timed iterations of a non-aggregate
    // one, start with the file pointers at the first tile (begin_epoch), so that its writes land
    // where the previous epoch's (the warm-up's) did instead of running on towards and past the
    // end of the file's room.
    bool epochs_from_file_start = false;
    // IMB's size of the block's file (kept): what MPI_File_set_size makes it at the block's
    // first size, sparse, never preallocated (IMB_init_file.c:203-236).
    std::uint64_t block_file_bytes = 0;
    // Writes on a kept file (IMB 2021): with cut_back_each_epoch (aggregate writes, with
    // epochs_from_file_start) each timed epoch after the first starts on the file the first
    // found (begin_epoch: its data cut where the first epoch's began, its size as then), so that
    // each epoch finds the file IMB 2021's one timed sample finds: what the block's earlier
    // sizes and the probe left.
    bool cut_back_each_epoch = false;
    // Reads (prefill) under IMB 2021: the file holds exactly this many bytes, its tiles from
    // offset 0 prefilled as far as they reach and the file cut there (MPI_File_set_size), as
    // IMB 2021 writes its block's file once, `total` bytes from offset 0 (IMB_init_file.c:
    // 236-261); a read past it returns fewer bytes or none. 0: every tile prefilled.
    std::uint64_t content_bytes = 0;
    // IMB 2021: the block's file, made at the block's first size (the stale one removed,
    // MPI_File_set_size to block_file_bytes, IMB's total: IMB_init_file.c:195, 228-236) and kept
    // across its sizes; teardown closes it without removing it. Reads (prefill): its content is
    // block_file_byte of the offset, written once from offset 0 by the file's first process (as
    // IMB's File_rank 0, IMB_init_file.c:239-261) as far as kept_bytes() reaches, the bytes a
    // later size needs beyond what it holds added then. Writes: nothing written; each size
    // writes over what the earlier ones left (IMB_init_transfer.c:183, 273-274). nullptr: a
    // fresh file per size (the 4.0 rule): preallocated for writes, for reads each process's
    // blocks holding check::fill_bytes of its rank.
    kept_file* kept = nullptr;

    // The bytes the kept file must hold at this size: IMB's total (content_bytes, cut there),
    // or under -check (content_bytes 0) every tile of this size, and IMB's total at least.
    [[nodiscard]] std::uint64_t kept_bytes() const noexcept {
        if (content_bytes > 0) return content_bytes;
        return std::max<std::uint64_t>(block_file_bytes,
                                       static_cast<std::uint64_t>(portion_bytes) * tiles);
    }

    // A kept file written to (IMB 2021's writes).
    [[nodiscard]] bool kept_for_writes() const noexcept { return kept != nullptr && !prefill; }

    // The size a kept file written to had when this size began (-check empties it to that
    // size): IMB's size at the block's first size, then what the earlier sizes left.
    [[nodiscard]] std::uint64_t carried_size() const noexcept {
        return kept_for_writes() ? std::max(kept->size_bytes, block_file_bytes) : 0;
    }

    // This process's share of the disk the file needs (a kept file: what it still lacks, all of
    // it the share of the file's first process, `first_process`).
    [[nodiscard]] std::uint64_t disk_bytes(bool first_process = true) const noexcept {
        if (!open_in_setup) return 1;
        if (kept != nullptr && prefill) {
            const std::uint64_t held = kept->content_bytes;
            return (private_file || first_process) && kept_bytes() > held ? kept_bytes() - held
                                                                         : 0;
        }
        if (content_bytes > 0 && portion_bytes > 0)  // its blocks of the tiles the file holds
            return static_cast<std::uint64_t>(block_bytes) *
                   ((content_bytes + portion_bytes - 1) / portion_bytes);
        return static_cast<std::uint64_t>(block_bytes) * tiles;
    }
};

// The file name of a site: base, "_g<group>" in multiple mode, "_<rank>" for a file per process.
[[nodiscard]] inline std::string file_path(const file_site& site, int private_rank = -1) {
    const std::string group = site.group >= 0 ? fmt::format("_g{}", site.group) : "";
    const std::string rank = private_rank >= 0 ? fmt::format("_{}", private_rank) : "";
    return (std::filesystem::path(site.directory) / fmt::format("{}{}{}", site.base_name, group, rank))
        .string();
}

// What a kernel sees of the file.
struct file_view {
    MPI_File fh = MPI_FILE_NULL;
    MPI_Comm comm = MPI_COMM_NULL;  // the file's communicator (IMB's file_comm)
    std::byte* buffer = nullptr;    // the process's block: written from, read into
    int count = 0;                  // block bytes, as an MPI count
    MPI_Offset portion = 0;
    MPI_Offset block_offset = 0;
    std::uint64_t tiles = 1;
    bool tiled = false;             // the view shows only this process's blocks
    const char* path = "";
    int* error = nullptr;           // the first failed call's code (file_errors.hpp)
    pattern::io_split split{};      // the tile's split among the processes
    bool content_by_offset = false;  // the file holds block_file_byte of each offset (kept)

    // Keeps a failed call's code for the report after the measurement.
    void note(int code) const noexcept {
        if (code != MPI_SUCCESS) [[unlikely]]
            *error = code;
    }

    // The offset, in the view, of iteration i's block: tile i mod tiles.
    [[nodiscard]] MPI_Offset offset(std::uint64_t i) const noexcept {
        const auto tile = static_cast<MPI_Offset>(i % tiles);
        return tiled ? tile * count : tile * portion + block_offset;
    }
};

// Bytes an unprivileged process may still write under `directory` (0 when it cannot tell).
[[nodiscard]] inline double free_bytes_under(const std::string& directory) {
    struct statvfs fs {};
    if (::statvfs(directory.c_str(), &fs) != 0) return 0.0;
    return static_cast<double>(fs.f_bavail) * static_cast<double>(fs.f_frsize);
}

// A file check fills and clears the buffer and counts defects after n timed iterations.
template <class Check>
concept file_check = requires(const Check& c, const kernel_context& k, const file_view& v,
                              std::uint64_t n) {
    c.prepare(k, v);
    { c.verify(k, n, v) } -> std::convertible_to<std::uint64_t>;
};

class file_resource {
public:
    // `pool`: host storage kept across sizes (the session's send pool, which the file benchmarks
    // use for nothing else), grown when too short and never shrunk, as IMB-IO allocates its
    // buffers once and grows them; nullptr, or a pool in another memory space: storage of its
    // own, mapped and unmapped at each size (a 4 MiB write buffer's page faults then cost each
    // size about a millisecond more than IMB-IO's).
    file_resource(file_plan plan, const kernel_context& context, aligned_buffer* pool = nullptr)
        : plan_(std::move(plan)), context_(context), pool_(pool) {}
    file_resource(const file_resource&) = delete;
    file_resource& operator=(const file_resource&) = delete;
    file_resource(file_resource&& other) noexcept
        : plan_(std::move(other.plan_)),
          context_(other.context_),
          pool_(other.pool_),
          buffer_(std::move(other.buffer_)),
          data_(std::exchange(other.data_, nullptr)),
          fh_(std::exchange(other.fh_, MPI_FILE_NULL)),
          comm_(other.comm_),
          set_up_(std::exchange(other.set_up_, false)),
          error_(other.error_) {}
    file_resource& operator=(file_resource&&) = delete;
    ~file_resource() { teardown(); }

    [[nodiscard]] std::size_t footprint() const noexcept { return plan_.block_bytes; }

    // Collective over the active processes: the whole need against the free space of the
    // directory, as the first active process sees it.
    [[nodiscard]] storage_need check_storage(const communicator& active) const {
        storage_need s;
        s.directory = std::filesystem::path(plan_.path).parent_path().string();
        double mine = static_cast<double>(plan_.disk_bytes(context_.rank == 0));
        MPI_Allreduce(&mine, &s.need_bytes, 1, MPI_DOUBLE, MPI_SUM, active.get());
        if (active.rank() == 0) s.free_bytes = free_bytes_under(s.directory);
        MPI_Bcast(&s.free_bytes, 1, MPI_DOUBLE, 0, active.get());
        return s;
    }

    void allocate() {
        const std::size_t bytes = std::max<std::size_t>(plan_.block_bytes, 1);
        if (pool_ != nullptr && pool_->space() == nullptr) {
            data_ = grow_pool(*pool_, bytes);
        } else {
            buffer_ = aligned_buffer(bytes);
            data_ = buffer_.data();
        }
        check::fill_bytes({data_, plan_.block_bytes}, context_.rank);
    }

    // Collective over the file's communicator: IMB's preparation (a stale file removed by an
    // open with MPI_MODE_DELETE_ON_CLOSE and a close, then CREATE|RDWR, the view at
    // displacement 0 "native" or the tiled view), then the content.
    void setup(const communicator& /*group*/) {
        comm_ = plan_.private_file ? MPI_COMM_SELF : context_.comm;
        set_up_ = true;
        epochs_begun_ = 0;
        first_epoch_size_ = 0;
        emptied_ = false;
        if (!plan_.open_in_setup) return;
        // A kept file is made at the block's first size only; later sizes open it as it is.
        const bool fresh = plan_.kept == nullptr || !plan_.kept->made();
        MPI_File stale = MPI_FILE_NULL;
        if (fresh && MPI_File_open(comm_, plan_.path.c_str(),
                                   MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                                   MPI_INFO_NULL, &stale) == MPI_SUCCESS)
            MPI_File_close(&stale);
        const int opened = MPI_File_open(comm_, plan_.path.c_str(),
                                         MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh_);
        if (opened != MPI_SUCCESS) {
            // Kernels then fail at once on MPI_FILE_NULL (no collective waits for this file).
            error_ = opened;
            fh_ = MPI_FILE_NULL;
            return;
        }
        if (plan_.kept != nullptr) {
            complete_kept_file(fresh);
            set_view();
            return;
        }
        set_view();
        const file_view v = view();
        if (plan_.prefill) {
            prefill();
        } else {
            v.note(MPI_File_preallocate(fh_, static_cast<MPI_Offset>(plan_.portion_bytes) *
                                                 static_cast<MPI_Offset>(plan_.tiles)));
        }
    }

    // Nothing holds around the iterations: file pointers simply run on (see the file comment).
    void begin_access() const noexcept {}
    void end_access() const noexcept {}

    // Collective over the file's communicator where the pointer is shared; outside timing,
    // before each timed epoch of an aggregate completion, before the timed iterations otherwise,
    // and before IMB 2021's second probe run (`where`, epoch_start): with
    // plan.epochs_from_file_start the individual (and shared) pointer back to the first tile,
    // as IMB 2021 times a sample from offset 0 (the file opened for the size,
    // IMB_init_transfer.c:183, and rewound after each calibration run,
    // helper_IMB_functions.h:613-618, 643-648). Explicit offsets start at tile 0 anyway.
    // IMB 2021 times one sample per size on the file as the block's earlier sizes and the probe
    // left it (made once per block, IMB_init_file.c:124-265, original_benchmark.h:163-175; kept
    // across the sizes, IMB_init_transfer.c:183, 273-274), and cuts nothing: nor does the first
    // epoch here. With plan.cut_back_each_epoch, epochs after the first (parbench's repeats)
    // each start on the file the first found: its data cut at where the first epoch's began,
    // then the file made as large as it was (first_epoch_data_end_, first_epoch_size_, asked
    // before the first epoch only where another follows: collective, MPI_File_set_size), so
    // that a repeat's writes fall into the same holes instead of onto the pages the epochs
    // before it allocated. A file that prepare_check has just emptied (-check) is what the
    // first epoch found already: nothing is cut or asked.
    void begin_epoch(epoch_start where) {
        if (!plan_.epochs_from_file_start || fh_ == MPI_FILE_NULL) return;
        const file_view v = view();
        if (where != epoch_start::probe_again && plan_.kept_for_writes() &&
            plan_.cut_back_each_epoch && !emptied_) {
            if (epochs_begun_ == 0 && where == epoch_start::more_follow) {
                v.note(MPI_File_get_size(fh_, &first_epoch_size_));
                first_epoch_data_end_ = agreed_data_end(first_epoch_size_);
            } else if (epochs_begun_ > 0 && first_epoch_size_ > 0) {
                if (first_epoch_data_end_ < first_epoch_size_)
                    v.note(MPI_File_set_size(fh_, first_epoch_data_end_));
                v.note(MPI_File_set_size(fh_, first_epoch_size_));
            }
        }
        if (where != epoch_start::probe_again) ++epochs_begun_;
        emptied_ = false;
        v.note(MPI_File_seek(fh_, 0, MPI_SEEK_SET));
        if (plan_.shared_pointer) v.note(MPI_File_seek_shared(fh_, 0, MPI_SEEK_SET));
    }

    // -check: the check prepares the buffer; the file pointers go back to the first tile so that
    // the timed iterations address tiles 0 .. n-1. A kept file written to is emptied first (cut
    // to 0 and made as large as before, collective), so that a write that never lands leaves a
    // hole the check sees, not what the block's earlier sizes or the probe wrote there; the
    // runner calls this before every timed epoch under -check, and the epoch's begin_epoch then
    // finds the file as the first epoch found it (emptied_).
    template <class Check>
    void prepare_check(const Check& check, const kernel_context& context) {
        if constexpr (checks_data<Check>) {
            check.prepare(context, view());
            if (fh_ != MPI_FILE_NULL) {
                if (plan_.kept_for_writes()) {
                    const file_view v = view();
                    v.note(MPI_File_set_size(fh_, 0));
                    v.note(MPI_File_set_size(fh_, static_cast<MPI_Offset>(plan_.carried_size())));
                    emptied_ = true;
                }
                MPI_File_seek(fh_, 0, MPI_SEEK_SET);
                if (plan_.shared_pointer) MPI_File_seek_shared(fh_, 0, MPI_SEEK_SET);
            }
        }
    }

    // After the timed iterations: what was written made visible to every process (IMB's
    // assured completion), then the check reads back.
    template <class Check>
    [[nodiscard]] std::uint64_t count_defects(const Check& check, const kernel_context& context,
                                              std::uint64_t n) {
        if constexpr (checks_data<Check>) {
            if (fh_ != MPI_FILE_NULL) sync_barrier_sync();
            return check.verify(context, n, view());
        }
        return 0;
    }

    template <class F>
    void visit(F&& f) {
        f(view());
    }

    // Collective over the file's communicator: the file closed and opened again with the same
    // view and content (IMB-IO's nonblocking benchmarks between their blocking and nonblocking
    // runs, catalogue A.6.10). File pointers start again at the first tile.
    void reopen() {
        if (!set_up_ || !plan_.open_in_setup || fh_ == MPI_FILE_NULL) return;
        const int closed = MPI_File_close(&fh_);
        if (error_ == MPI_SUCCESS) error_ = closed;
        const int opened = MPI_File_open(comm_, plan_.path.c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR,
                                         MPI_INFO_NULL, &fh_);
        if (opened != MPI_SUCCESS) {
            if (error_ == MPI_SUCCESS) error_ = opened;
            fh_ = MPI_FILE_NULL;
            return;
        }
        set_view();
    }

    // Collective over the file's communicator: close, then delete (the first process of a
    // common file, after every process has closed it). Safe to call twice.
    void teardown() noexcept {
        int finalised = 0;
        MPI_Finalized(&finalised);
        if (!set_up_ || finalised != 0) return;
        set_up_ = false;
        if (fh_ != MPI_FILE_NULL) {
            const int closed = MPI_File_close(&fh_);
            if (error_ == MPI_SUCCESS) error_ = closed;
        }
        fh_ = MPI_FILE_NULL;
        file_errors::record_code(error_);
        error_ = MPI_SUCCESS;
        int rank = 0;
        if (!plan_.private_file) {
            MPI_Barrier(comm_);
            MPI_Comm_rank(comm_, &rank);
        }
        if (plan_.kept != nullptr) return;  // the block's: remove_kept_file when it ends
        if (rank == 0) {
            std::error_code ignored;
            std::filesystem::remove(plan_.path, ignored);
        }
    }

    [[nodiscard]] file_view view() noexcept {
        return {fh_,
                comm_,
                data_,
                count(),
                static_cast<MPI_Offset>(plan_.portion_bytes),
                static_cast<MPI_Offset>(plan_.block_offset),
                std::max<std::uint64_t>(1, plan_.tiles),
                plan_.tiled_view && plan_.block_bytes > 0,
                plan_.path.c_str(),
                &error_,
                plan_.split,
                plan_.kept != nullptr && plan_.prefill};
    }
    [[nodiscard]] const file_plan& plan() const noexcept { return plan_; }

private:
    [[nodiscard]] int count() const noexcept { return static_cast<int>(plan_.block_bytes); }
    void set_view() {
        if (plan_.tiled_view && plan_.block_bytes > 0)
            set_block_view(plan_.portion_bytes);
        else
            MPI_File_set_view(fh_, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    }
    // This process's blocks only: the block, then a hole to the same block of the next tile
    // (`tile_bytes` apart). Collective over the file's communicator; needs a block.
    void set_block_view(std::size_t tile_bytes) {
        MPI_Datatype block = MPI_DATATYPE_NULL;
        MPI_Datatype tile = MPI_DATATYPE_NULL;
        MPI_Type_contiguous(count(), MPI_BYTE, &block);
        MPI_Type_create_resized(block, 0, static_cast<MPI_Aint>(tile_bytes), &tile);
        MPI_Type_commit(&tile);
        MPI_File_set_view(fh_, static_cast<MPI_Offset>(plan_.block_offset), MPI_BYTE, tile,
                          "native", MPI_INFO_NULL);
        MPI_Type_free(&tile);
        MPI_Type_free(&block);
    }

    // Reads: this process's block of each tile the file holds (every tile, or the tiles up to
    // plan.content_bytes), written independently through a view of its blocks in chunks of
    // about prefill_chunk_bytes, made visible to all; the file then cut at content_bytes.
    // Collective over the file's communicator (the views, the cut and the completion).
    static constexpr std::size_t prefill_chunk_bytes = std::size_t{1} << 20;
    void prefill() {
        const file_view v = view();
        std::uint64_t tiles = plan_.tiles;
        if (plan_.content_bytes > 0)
            tiles = plan_.portion_bytes == 0
                        ? 0
                        : (plan_.content_bytes + plan_.portion_bytes - 1) / plan_.portion_bytes;
        const auto block = static_cast<std::size_t>(count());
        if (block > 0 && tiles > 0) {
            set_block_view(plan_.portion_bytes);  // tile t's block at view offset t * block
            const std::uint64_t per_call =
                std::clamp<std::uint64_t>(prefill_chunk_bytes / block, 1, tiles);
            std::vector<std::byte> chunk(static_cast<std::size_t>(per_call) * block);
            for (std::uint64_t k = 0; k < per_call; ++k)
                std::memcpy(chunk.data() + k * block, data_, block);
            for (std::uint64_t t = 0; t < tiles; t += per_call) {
                const std::uint64_t these = std::min(per_call, tiles - t);
                v.note(MPI_File_write_at(fh_, static_cast<MPI_Offset>(t * block), chunk.data(),
                                         static_cast<int>(these * block), MPI_BYTE,
                                         MPI_STATUS_IGNORE));
            }
        } else {
            MPI_File_set_view(fh_, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
        }
        set_view();
        if (plan_.content_bytes > 0)
            v.note(MPI_File_set_size(fh_, static_cast<MPI_Offset>(plan_.content_bytes)));
        sync_barrier_sync();
    }

    // A kept file, through the view a fresh open gives (bytes from offset 0): at the block's
    // first size (`fresh`) made at IMB's size (MPI_File_set_size, sparse, IMB_init_file.c:236).
    // Writes: nothing more; the size it has now noted (carried_size()). Reads: then the content
    // this size needs beyond what the file holds, block_file_byte of each offset, written by the
    // file's first process in pieces of prefill_chunk_bytes (IMB's rank 0 writes its file in
    // 1 MiB pieces, :241-258) and made visible to all; a size that needs nothing more writes
    // nothing. Collective over the file's communicator.
    void complete_kept_file(bool fresh) {
        const file_view v = view();
        kept_file& kept = *plan_.kept;
        if (fresh) v.note(MPI_File_set_size(fh_, static_cast<MPI_Offset>(plan_.block_file_bytes)));
        int rank = 0;
        MPI_Comm_rank(comm_, &rank);
        kept.path = plan_.path;
        kept.remover = rank == 0;
        if (plan_.kept_for_writes()) {
            MPI_Offset size = 0;
            v.note(MPI_File_get_size(fh_, &size));
            kept.size_bytes = static_cast<std::uint64_t>(size);
            return;
        }
        const std::uint64_t held = kept.content_bytes;
        const std::uint64_t want = std::max(held, plan_.kept_bytes());
        if (want > held) {
            if (rank == 0) {
                std::vector<std::byte> chunk(static_cast<std::size_t>(
                    std::min<std::uint64_t>(prefill_chunk_bytes, want - held)));
                for (std::uint64_t at = held; at < want; at += chunk.size()) {
                    const auto these = static_cast<std::size_t>(
                        std::min<std::uint64_t>(chunk.size(), want - at));
                    fill_block_file(std::span(chunk).first(these), at);
                    v.note(MPI_File_write_at(fh_, static_cast<MPI_Offset>(at), chunk.data(),
                                             static_cast<int>(these), MPI_BYTE,
                                             MPI_STATUS_IGNORE));
                }
            }
            sync_barrier_sync();
        }
        kept.content_bytes = want;
    }

    // Where the data of the file ends below `size`, agreed over the file's communicator: the end
    // of its last data region as the file system reports it to the file's first process (lseek
    // SEEK_DATA / SEEK_HOLE on the path, in whole blocks: what a write there finds allocated);
    // `size` where it cannot tell (no such seek, or a path only the MPI library resolves), so
    // that nothing is cut.
    [[nodiscard]] MPI_Offset agreed_data_end(MPI_Offset size) const {
        long long end = size;
        int rank = 0;
        MPI_Comm_rank(comm_, &rank);
        if (rank == 0) {
            const int fd = ::open(plan_.path.c_str(), O_RDONLY);
            if (fd >= 0) {
                off_t data_end = 0;
                for (off_t at = 0; at < size;) {
                    const off_t data = ::lseek(fd, at, SEEK_DATA);
                    if (data < 0 && errno != ENXIO) data_end = size;  // cannot tell
                    if (data < 0 || data >= size) break;
                    const off_t hole = ::lseek(fd, data, SEEK_HOLE);
                    if (hole < 0) {
                        data_end = size;
                        break;
                    }
                    data_end = hole;
                    at = hole;
                }
                ::close(fd);
                end = std::min<long long>(data_end, size);
            }
        }
        MPI_Bcast(&end, 1, MPI_LONG_LONG, 0, comm_);
        return static_cast<MPI_Offset>(end);
    }

    // IMB's assured completion, outside timing.
    void sync_barrier_sync() {
        const file_view v = view();
        v.note(MPI_File_sync(fh_));
        MPI_Barrier(comm_);
        v.note(MPI_File_sync(fh_));
    }

    file_plan plan_;
    kernel_context context_;
    aligned_buffer* pool_ = nullptr;  // see the constructor
    aligned_buffer buffer_;           // own storage, where there is no host pool
    std::byte* data_ = nullptr;       // the write/read block: the pool's or buffer_'s
    MPI_File fh_ = MPI_FILE_NULL;
    MPI_Comm comm_ = MPI_COMM_NULL;
    bool set_up_ = false;
    std::uint64_t epochs_begun_ = 0;         // timed runs begun (begin_epoch)
    // Where a kept file's data ended as the first epoch began, and its size then (0: not
    // asked, no epoch follows the first).
    MPI_Offset first_epoch_data_end_ = 0;
    MPI_Offset first_epoch_size_ = 0;
    bool emptied_ = false;  // prepare_check emptied the kept file; no write since
    int error_ = MPI_SUCCESS;  // the first failed MPI-IO call's code, reported at teardown
};

static_assert(resource<file_resource>);

}  // namespace parbench::mpi
