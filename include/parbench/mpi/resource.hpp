// Resources: what one measurement sets up per size, collectively and outside the timed region,
// and tears down after it. The runner (mpi/phases.hpp) drives every resource through the same
// steps and never learns what it holds:
//
//   footprint()                 bytes per process, before anything is allocated (-mem)
//   allocate()                  local; failure throws bad_alloc (the runner agrees on the
//                               outcome before anyone enters a collective)
//   setup(group)                collective over the group (window creation)
//   prepare_check(check, ctx)   -check: fill what is sent, clear what is received; collective,
//                               outside any access epoch
//   begin_access() / end_access()
//                               what must hold around iterations, outside timing: an RMA epoch
//                               opened in setup (fence, lock, lock_all); nothing for messages
//   visit(f)                    f(view): the per-iteration addressing kernels see — one type per
//                               addressing, chosen once outside the timed loop
//   count_defects(check, ctx, n)
//                               -check after the n timed iterations: a count, or the check's
//                               findings (check.hpp) where it lists what it found
//   teardown()                  collective; idempotent; also run by the owner's destructor
//   check_storage(active)       optional, collective over the active processes: what the
//                               resource needs on a file system against what it has free
//                               (files; the runner skips a size that does not fit)
//   begin_epoch(where)          optional, collective, outside timing: before a run of
//                               iterations whose place the resource sets (a file's pointers
//                               back to its start: mpi/file_resource.hpp); `where` an
//                               epoch_start
//
// Message buffers (here), RMA windows (mpi/rma_window.hpp) and files (mpi/file_resource.hpp)
// follow these steps; device buffers follow the same.
#pragma once

#include <parbench/core/buffers.hpp>
#include <parbench/mpi/check.hpp>
#include <parbench/mpi/communicator.hpp>
#include <parbench/mpi/definition.hpp>
#include <parbench/mpi/message_buffers.hpp>
#include <parbench/mpi/timed_loop.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace parbench::mpi {

// What the runner is about to start (begin_epoch): IMB 2021's second probe run (the first's
// pointers rewound, as helper_IMB_functions.h:613-618 rewinds between its calibration runs), or
// a timed run or epoch, the last or one that another timed epoch follows.
enum class epoch_start { probe_again, last, more_follow };

// What a resource needs on a file system (check_storage), and what the file system has free.
struct storage_need {
    std::string directory;
    double need_bytes = 0.0;
    double free_bytes = 0.0;
    [[nodiscard]] bool fits() const noexcept { return need_bytes <= free_bytes; }
};

// What every resource offers the runner (the check-dependent steps are templates on the check
// and are exercised where a definition names its check).
template <class R>
concept resource = requires(R& r, const R& cr, const communicator& group) {
    { cr.footprint() } -> std::convertible_to<std::size_t>;
    r.allocate();
    r.setup(group);
    r.begin_access();
    r.end_access();
    r.teardown();
};

// A message-passing check fills every send slot and counts the defects in the receive slot of
// the last timed iteration (the receive region is cleared to zero before timing), or lists
// them (check::findings).
template <class Check>
concept message_check = requires(const Check& c, const kernel_context& k, std::span<std::byte> s,
                                 std::span<const std::byte> r, std::uint64_t i) {
    c.fill_send(k, s);
    { check::as_findings(c.verify(k, i, r)) } -> std::same_as<check::findings>;
};

// The send and receive regions of message-passing kernels, stored in pools the session keeps
// across sizes (IMB allocates once and grows). With -off_cache each iteration uses the next slot.
class message_resource {
public:
    message_resource(buffer_layout layout, const off_cache& cache, aligned_buffer& send_pool,
                     aligned_buffer& recv_pool)
        : send_(layout.send_bytes, cache),
          recv_(layout.recv_bytes, cache),
          send_pool_(&send_pool),
          recv_pool_(&recv_pool) {}
    // With the slots of each region given (IMB 2021's -off_cache offsets).
    message_resource(buffer_layout layout, slot_spacing send_slots, slot_spacing recv_slots,
                     aligned_buffer& send_pool, aligned_buffer& recv_pool)
        : send_(layout.send_bytes, send_slots),
          recv_(layout.recv_bytes, recv_slots),
          send_pool_(&send_pool),
          recv_pool_(&recv_pool) {}

    [[nodiscard]] std::size_t footprint() const noexcept {
        return send_.footprint() + recv_.footprint();
    }
    void allocate() {
        send_.attach(*send_pool_);
        recv_.attach(*recv_pool_);
    }
    void setup(const communicator& /*group*/) const noexcept {}
    void begin_access() const noexcept {}
    void end_access() const noexcept {}
    void teardown() const noexcept {}  // the pools outlive the measurement

    // In device memory (a space with copies: OSU's -d) each slot is filled on the host and
    // copied in, as OSU 7.5's set_buffer_validation copies its host pattern in with cudaMemcpy.
    template <class Check>
    void prepare_check(const Check& check, const kernel_context& context) {
        if constexpr (checks_data<Check>) {
            const memory_space* send_space = send_pool_->space();
            const memory_space* recv_space = recv_pool_->space();
            std::vector<std::byte> staging(needs_copies(send_space) ? send_.message_bytes() : 0);
            for (std::uint64_t k = 0; k < send_.slot_count(); ++k) {
                if (!needs_copies(send_space)) {
                    check.fill_send(context, send_.slot(k));
                    continue;
                }
                const std::span<std::byte> slot = send_.slot(k);
                check.fill_send(context, staging);
                send_space->copy_in(slot.data(), staging.data(), slot.size());
            }
            if (needs_copies(recv_space))
                recv_space->zero(recv_.data(), recv_.footprint());
            else
                std::memset(recv_.data(), 0, recv_.footprint());
        }
    }
    // `n` iterations were timed: the check looks at the last one's receive slot (in device
    // memory, at a host copy of it, as OSU 7.5's validate_data copies it out).
    template <class Check>
    [[nodiscard]] check::findings count_defects(const Check& check, const kernel_context& context,
                                                std::uint64_t n) {
        if constexpr (checks_data<Check>) {
            const std::uint64_t last = n > 0 ? n - 1 : 0;
            const std::span<std::byte> slot = recv_.slot(last);
            const memory_space* recv_space = recv_pool_->space();
            if (!needs_copies(recv_space))
                return check::as_findings(check.verify(context, last, slot));
            std::vector<std::byte> staging(slot.size());
            recv_space->copy_out(staging.data(), slot.data(), slot.size());
            return check::as_findings(
                check.verify(context, last, std::span<const std::byte>(staging)));
        }
        return {};
    }

    template <class F>
    void visit(F&& f) {
        if (send_.rotating() || recv_.rotating())
            f(message_buffers<rotating_slots>{send_.rotating_view(), recv_.rotating_view()});
        else
            f(message_buffers<fixed_slots>{send_.fixed(), recv_.fixed()});
    }

private:
    message_region send_;
    message_region recv_;
    aligned_buffer* send_pool_;
    aligned_buffer* recv_pool_;
};

static_assert(resource<message_resource>);

}  // namespace parbench::mpi
