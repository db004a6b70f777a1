// The RMA window resource (mpi/resource.hpp's steps): a window over the group, an origin buffer
// and a result buffer per process, created collectively outside the timed region in one of MPI's
// three ways, with the access epoch that must hold around the iterations (fence, lock,
// lock_all) opened in begin_access() and closed in end_access(). Kernels address it through a
// window_view: the local slot of iteration i and the target displacement of a section.
//
// Sections: an aggregate timing issues M transfers before one completion; they go to disjoint
// sections of the target window (IMB's "M-fold ... disjoint"), section i mod `sections`. Where
// several origins write into one target (All_*_all, Exchange_*), each origin owns a region of
// `sections` sections in every window under the IMB 4.0 guide, so that no two transfers of a
// timing overlap and -check can tell who wrote what; IMB 2021 shares one region (All_*_all:
// every origin's transfer i at section i, IMB_rma_put.c:176-178, IMB_rma_get.c:183-185) or
// splits each section in `parts` (Exchange_*: X towards the left neighbour at the section's
// start, X towards the right one after it, IMB_rma_put.c:345-352, IMB_rma_get.c:369-377).
// Sections lie `stride` bytes apart (IMB 2021's cache offsets under -off_cache), or parts * X
// where it is 0; the origin's and the result's slots alike.
#pragma once

#include <parbench/core/buffers.hpp>
#include <parbench/mpi/communicator.hpp>
#include <parbench/mpi/resource.hpp>
#include <parbench/mpi/timed_loop.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace parbench::mpi {

// How the window memory comes to be (OSU's -w): MPI_Win_create over memory we allocate,
// MPI_Win_allocate (MPI allocates, possibly in shared or registered memory), or
// MPI_Win_create_dynamic with the memory attached afterwards (targets address absolute
// addresses, exchanged at setup).
enum class window_creation { create, allocate, dynamic };

// The epoch held across all iterations of a measurement (opened outside timing).
//   none      — the completion opens its own epochs (PSCW, a lock per transfer, fence per
//               transfer after the initial one is none: use `fence` for IMB-EXT)
//   fence     — MPI_Win_fence opens an active-target epoch for every process of the group
//   lock      — each initiator holds MPI_Win_lock(shared) on each of its targets
//   lock_all  — each initiator holds MPI_Win_lock_all
enum class window_epoch { none, fence, lock, lock_all };

[[nodiscard]] constexpr std::string_view to_string(window_creation c) noexcept {
    switch (c) {
        case window_creation::create: return "create";
        case window_creation::allocate: return "allocate";
        case window_creation::dynamic: return "dynamic";
    }
    return "create";
}

struct window_plan {
    window_creation creation = window_creation::create;
    window_epoch epoch = window_epoch::none;
    std::size_t bytes = 0;           // one transfer: X (bytes of the section and local slot)
    std::uint64_t sections = 1;      // disjoint sections per origin region (aggregate: M)
    std::size_t stride = 0;          // bytes from one section's start to the next (0: bytes)
    int origin_regions = 1;          // regions per window: 1, or the group size when several
                                     // origins write into one target
    int parts = 1;                   // transfers side by side in a section (IMB 2021's
                                     // Exchange_*: 2), each X bytes
    std::size_t result_bytes = 0;    // result buffer (Get_accumulate, Fetch_and_op, CAS)
    // Where this process's origin, result and window memory live (nullptr: host memory; a
    // device space under OSU's -d). MPI_Win_allocate's memory is MPI's, on the host.
    const memory_space* memory = nullptr;

    [[nodiscard]] std::size_t slot_bytes() const noexcept {
        return stride > 0 ? stride : bytes * static_cast<std::size_t>(std::max(1, parts));
    }
    [[nodiscard]] std::size_t region_bytes() const noexcept {
        return slot_bytes() * static_cast<std::size_t>(sections);
    }
    [[nodiscard]] std::size_t window_bytes() const noexcept {
        return region_bytes() * static_cast<std::size_t>(std::max(1, origin_regions));
    }
};

// What a kernel sees of the window resource.
struct window_view {
    MPI_Win win = MPI_WIN_NULL;
    std::byte* window = nullptr;  // this process's exposed memory
    std::byte* origin = nullptr;  // local buffer: put sources, get destinations, one slot per section
    std::byte* result = nullptr;  // fetched results
    std::size_t bytes = 0;
    std::uint64_t sections = 1;
    int origin_regions = 1;
    const MPI_Aint* bases = nullptr;  // per target: the address of its memory (dynamic windows),
                                      // otherwise all zero
    std::size_t stride = 0;           // window_plan::stride (0: parts * bytes)
    int parts = 1;                    // window_plan::parts

    [[nodiscard]] std::uint64_t section(std::uint64_t i) const noexcept { return i % sections; }
    // Bytes from one section (and local or result slot) to the next.
    [[nodiscard]] std::size_t slot_bytes() const noexcept {
        return stride > 0 ? stride : bytes * static_cast<std::size_t>(std::max(1, parts));
    }
    // Byte offset of iteration i's slot in the origin and result buffers (and in a region).
    [[nodiscard]] std::size_t slot_offset(std::uint64_t i) const noexcept {
        return static_cast<std::size_t>(section(i)) * slot_bytes();
    }
    // Byte offset of part `part` inside a section (0 where a section has one part).
    [[nodiscard]] std::size_t part_offset(int part) const noexcept {
        return parts > 1 ? static_cast<std::size_t>(part) * bytes : 0;
    }
    // The local slot of iteration i (its part `part`).
    [[nodiscard]] std::byte* local(std::uint64_t i, int part = 0) const noexcept {
        return origin + slot_offset(i) + part_offset(part);
    }
    // Byte offset into a window of the region `origin_rank` writes, iteration i's section and
    // its part `part`.
    [[nodiscard]] std::size_t offset(std::uint64_t i, int origin_rank = 0,
                                     int part = 0) const noexcept {
        const std::uint64_t region = origin_regions > 1 ? static_cast<std::uint64_t>(origin_rank) : 0;
        return static_cast<std::size_t>(region * sections) * slot_bytes() + slot_offset(i) +
               part_offset(part);
    }
    // The target displacement (disp_unit 1) of iteration i's section in `target`'s window.
    [[nodiscard]] MPI_Aint displacement(int target, std::uint64_t i, int origin_rank = 0,
                                        int part = 0) const noexcept {
        return bases[target] + static_cast<MPI_Aint>(offset(i, origin_rank, part));
    }
};

// A window check fills sources and clears destinations through the view, and counts the defects
// of the last timing in the view (see rma definitions).
template <class Check>
concept window_check = requires(const Check& c, const kernel_context& k, const window_view& v,
                                std::uint64_t n) {
    c.prepare(k, v);
    { check::as_findings(c.verify(k, n, v)) } -> std::same_as<check::findings>;
};

class rma_window {
public:
    rma_window(window_plan plan, const kernel_context& context)
        : plan_(plan), context_(context) {}
    rma_window(const rma_window&) = delete;
    rma_window& operator=(const rma_window&) = delete;
    rma_window(rma_window&& other) noexcept
        : plan_(other.plan_),
          context_(other.context_),
          win_(std::exchange(other.win_, MPI_WIN_NULL)),
          window_memory_(std::move(other.window_memory_)),
          origin_(std::move(other.origin_)),
          result_(std::move(other.result_)),
          window_base_(std::exchange(other.window_base_, nullptr)),
          bases_(std::move(other.bases_)),
          open_(std::exchange(other.open_, false)) {}
    rma_window& operator=(rma_window&&) = delete;
    ~rma_window() { teardown(); }

    [[nodiscard]] std::size_t footprint() const noexcept {
        return plan_.window_bytes() + plan_.region_bytes() + plan_.result_bytes;
    }

    // Local: the origin and result buffers and, except for MPI_Win_allocate, the window memory.
    void allocate() {
        origin_ = aligned_buffer(std::max<std::size_t>(plan_.region_bytes(), 1), plan_.memory);
        result_ = aligned_buffer(std::max<std::size_t>(plan_.result_bytes, 1), plan_.memory);
        if (plan_.creation != window_creation::allocate)
            window_memory_ =
                aligned_buffer(std::max<std::size_t>(plan_.window_bytes(), 1), plan_.memory);
    }

    // Collective over the group (context.comm): creates the window.
    void setup(const communicator& /*group*/) {
        const std::size_t window_bytes = plan_.window_bytes();
        const auto size = static_cast<MPI_Aint>(window_bytes);
        MPI_Comm comm = context_.comm;
        switch (plan_.creation) {
            case window_creation::create:
                window_base_ = window_memory_.data();
                MPI_Win_create(window_base_, size, 1, MPI_INFO_NULL, comm, &win_);
                break;
            case window_creation::allocate: {
                // MPICH 4.0 (Debian bookworm, ch4) loses puts into allocated windows whose size
                // is not a multiple of 16 bytes (seen with osu put_latency -check at 1..8, 17,
                // 20, 24 and 33 bytes); a window rounded up to a cache line is always right.
                const auto rounded = static_cast<MPI_Aint>((window_bytes + 63) / 64 * 64);
                void* base = nullptr;
                MPI_Win_allocate(rounded, 1, MPI_INFO_NULL, comm, &base, &win_);
                window_base_ = static_cast<std::byte*>(base);
                if (window_base_ != nullptr && window_bytes > 0)
                    std::fill_n(window_base_, window_bytes, std::byte{0});
                break;
            }
            case window_creation::dynamic:
                window_base_ = window_memory_.data();
                MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &win_);
                MPI_Win_attach(win_, window_base_, static_cast<MPI_Aint>(std::max<std::size_t>(window_bytes, 1)));
                break;
        }
        bases_.assign(static_cast<std::size_t>(context_.size), 0);
        if (plan_.creation == window_creation::dynamic) {
            MPI_Aint mine = 0;
            MPI_Get_address(window_base_, &mine);
            MPI_Allgather(&mine, 1, MPI_AINT, bases_.data(), 1, MPI_AINT, comm);
        }
    }

    void begin_access() {
        if (open_ || win_ == MPI_WIN_NULL) return;
        switch (plan_.epoch) {
            case window_epoch::none: break;
            case window_epoch::fence: MPI_Win_fence(MPI_MODE_NOPRECEDE, win_); break;
            case window_epoch::lock:
                for (int step = 0; step < context_.target_count(); ++step)
                    MPI_Win_lock(MPI_LOCK_SHARED, context_.target(step), 0, win_);
                break;
            case window_epoch::lock_all:
                if (context_.initiator) MPI_Win_lock_all(0, win_);
                break;
        }
        open_ = true;
    }

    void end_access() {
        if (!open_ || win_ == MPI_WIN_NULL) return;
        switch (plan_.epoch) {
            case window_epoch::none: break;
            case window_epoch::fence: MPI_Win_fence(MPI_MODE_NOSUCCEED, win_); break;
            case window_epoch::lock:
                for (int step = 0; step < context_.target_count(); ++step)
                    MPI_Win_unlock(context_.target(step), win_);
                break;
            case window_epoch::lock_all:
                if (context_.initiator) MPI_Win_unlock_all(win_);
                break;
        }
        open_ = false;
    }

    // Outside any epoch: the local copy of the window is updated under an exclusive lock on
    // this process (right in both memory models), then every process waits for every other,
    // so that no origin touches a window before its owner has prepared it.
    // In device memory (plan.memory with copies: OSU's -d) the check fills host copies of the
    // window, origin and result, copied in afterwards (host_mirror).
    template <class Check>
    void prepare_check(const Check& check, const kernel_context& context) {
        if constexpr (checks_data<Check>) {
            end_access();
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, context.rank, 0, win_);
            if (needs_copies(plan_.memory)) {
                host_mirror mirror(*this);
                check.prepare(context, mirror.view);
                mirror.copy_back(*this);
            } else {
                check.prepare(context, view());
            }
            MPI_Win_unlock(context.rank, win_);
            MPI_Barrier(context.comm);
        }
    }

    // After the timed epochs are closed: every process waits until all transfers into its
    // window are complete everywhere, then reads it under a local lock (in device memory, host
    // copies of it).
    template <class Check>
    [[nodiscard]] check::findings count_defects(const Check& check, const kernel_context& context,
                                                std::uint64_t n) {
        if constexpr (checks_data<Check>) {
            end_access();
            MPI_Barrier(context.comm);
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, context.rank, 0, win_);
            check::findings found;
            if (needs_copies(plan_.memory)) {
                const host_mirror mirror(*this);
                found = check::as_findings(check.verify(context, n, mirror.view));
            } else {
                found = check::as_findings(check.verify(context, n, view()));
            }
            MPI_Win_unlock(context.rank, win_);
            return found;
        }
        return {};
    }

    template <class F>
    void visit(F&& f) {
        f(view());
    }

    // Collective: closes an open epoch and frees the window. Safe to call twice.
    void teardown() noexcept {
        int finalised = 0;
        MPI_Finalized(&finalised);
        if (win_ == MPI_WIN_NULL || finalised != 0) return;
        end_access();
        if (plan_.creation == window_creation::dynamic) MPI_Win_detach(win_, window_base_);
        MPI_Win_free(&win_);
        win_ = MPI_WIN_NULL;
    }

    [[nodiscard]] window_view view() noexcept {
        return {win_,           window_base_,   origin_.data(),        result_.data(),
                plan_.bytes,    plan_.sections, plan_.origin_regions, bases_.data(),
                plan_.stride,   plan_.parts};
    }
    [[nodiscard]] const window_plan& plan() const noexcept { return plan_; }

private:
    // Host copies of the origin, result and window memory in plan.memory (MPI_Win_allocate's
    // window is MPI's, on the host, and used as it is), and a view of them.
    struct host_mirror {
        std::vector<std::byte> origin;
        std::vector<std::byte> result;
        std::vector<std::byte> window;
        window_view view;
        explicit host_mirror(rma_window& w)
            : origin(w.origin_.size()), result(w.result_.size()), view(w.view()) {
            const memory_space& space = *w.plan_.memory;
            space.copy_out(origin.data(), w.origin_.data(), origin.size());
            space.copy_out(result.data(), w.result_.data(), result.size());
            view.origin = origin.data();
            view.result = result.data();
            if (w.plan_.creation != window_creation::allocate) {
                window.resize(w.window_memory_.size());
                space.copy_out(window.data(), w.window_memory_.data(), window.size());
                view.window = window.data();
            }
        }
        void copy_back(rma_window& w) const {
            const memory_space& space = *w.plan_.memory;
            space.copy_in(w.origin_.data(), origin.data(), origin.size());
            space.copy_in(w.result_.data(), result.data(), result.size());
            if (!window.empty())
                space.copy_in(w.window_memory_.data(), window.data(), window.size());
        }
    };

    window_plan plan_;
    kernel_context context_;
    MPI_Win win_ = MPI_WIN_NULL;
    aligned_buffer window_memory_;  // create and dynamic: our memory; allocate: MPI's
    aligned_buffer origin_;
    aligned_buffer result_;
    std::byte* window_base_ = nullptr;
    std::vector<MPI_Aint> bases_;
    bool open_ = false;
};

static_assert(resource<rma_window>);

// The MPI group of `ranks` (ranks of c.comm), for the generalised active-target epochs (PSCW).
// MPI_GROUP_NULL where there is nobody to name, and on a process outside the active set: it has
// no communicator (MPI_COMM_NULL), and every RMA part is built on every process of the world,
// active or not, so that all make the same sequence of collective calls.
[[nodiscard]] inline MPI_Group group_of(const kernel_context& c, std::span<const int> ranks) {
    MPI_Group group = MPI_GROUP_NULL;
    if (c.comm == MPI_COMM_NULL || ranks.empty()) return group;
    MPI_Group all = MPI_GROUP_NULL;
    MPI_Comm_group(c.comm, &all);
    MPI_Group_incl(all, static_cast<int>(ranks.size()), ranks.data(), &group);
    MPI_Group_free(&all);
    return group;
}

}  // namespace parbench::mpi
