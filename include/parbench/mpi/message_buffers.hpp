// The message buffers a kernel sees: a send and a receive region, addressed per iteration. With
// -off_cache each iteration's message sits in the next slot of a rotating region (core/buffers.hpp);
// without it every iteration uses the start. The two addressings are two types, chosen once
// outside the timed loop, so the plain case costs nothing inside it.
#pragma once

#include <parbench/core/buffers.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

namespace parbench::mpi {

// Every iteration uses the same message.
struct fixed_slots {
    std::byte* base = nullptr;
    std::size_t bytes = 0;
    [[nodiscard]] std::byte* at(std::uint64_t /*iteration*/) const noexcept { return base; }
    [[nodiscard]] std::uint64_t count() const noexcept { return 1; }
    [[nodiscard]] std::size_t stride() const noexcept { return 0; }
};

// Iteration i uses slot i mod count, `stride` bytes apart (IMB -off_cache).
struct rotating_slots {
    std::byte* base = nullptr;
    std::size_t bytes = 0;
    std::size_t stride_bytes = 0;
    std::uint64_t slot_count = 1;
    [[nodiscard]] std::byte* at(std::uint64_t iteration) const noexcept {
        return base + (iteration % slot_count) * stride_bytes;
    }
    [[nodiscard]] std::uint64_t count() const noexcept { return slot_count; }
    [[nodiscard]] std::size_t stride() const noexcept { return stride_bytes; }
};

// How many bytes one iteration's send and receive messages occupy on this rank.
struct buffer_layout {
    std::size_t send_bytes = 0;
    std::size_t recv_bytes = 0;
};

template <class Slots>
struct message_buffers {
    Slots send_slots;
    Slots recv_slots;
    [[nodiscard]] std::byte* send(std::uint64_t i) const noexcept { return send_slots.at(i); }
    [[nodiscard]] std::byte* recv(std::uint64_t i) const noexcept { return recv_slots.at(i); }
    [[nodiscard]] std::size_t send_bytes() const noexcept { return send_slots.bytes; }
    [[nodiscard]] std::size_t recv_bytes() const noexcept { return recv_slots.bytes; }
};

// Slots given outright: `count` positions `stride` bytes apart (IMB 2021's -off_cache offsets,
// imb::imb2021_cache_offsets), in a region of max(X, count * stride) bytes as IMB 2021 allocates
// it (s_alloc, r_alloc: src_cpp/helpers/helper_IMB_functions.h:523-526), or more where the
// last slot's message reaches further (a stride taken from a shorter length than the slot's).
struct slot_spacing {
    std::uint64_t count = 1;
    std::size_t stride = 0;
};

// Owns the storage of one region and describes its slots.
class message_region {
public:
    message_region() = default;
    message_region(std::size_t message_bytes, slot_spacing slots)
        : bytes_(message_bytes),
          stride_(slots.stride),
          count_(slots.stride > 0 ? std::max<std::uint64_t>(slots.count, 1) : 1),
          region_bytes_(std::max(static_cast<std::size_t>(count_) * stride_,
                                 static_cast<std::size_t>(count_ - 1) * stride_ + message_bytes)) {}
    message_region(std::size_t message_bytes, const off_cache& cache)
        : rotation_(message_bytes, cache), bytes_(message_bytes) {
        region_bytes_ = std::max(rotation_.region_bytes(), bytes_);
        if (cache.enabled) {
            // Learn the rotation's stride from its own offsets; its slots are the k * stride with
            // k * stride + message <= region (it wraps back to 0 after them). Counted, not walked:
            // a huge -off_cache has millions of slots.
            message_rotation probe = rotation_;
            (void)probe.next_offset();
            const std::size_t second = probe.next_offset();
            stride_ = second;
            count_ = 1;
            if (second != 0 && rotation_.region_bytes() >= bytes_)
                count_ = (rotation_.region_bytes() - bytes_) / second + 1;
        }
    }
    // Bytes this region needs (before allocation).
    [[nodiscard]] std::size_t footprint() const noexcept { return region_bytes_; }
    // Uses `pool` as storage, growing it when it is too small (never shrinking it), so that a
    // sequence of sizes reuses one allocation as IMB does; a new region is zero only when the
    // pool had to grow, and lives in the pool's memory space.
    void attach(aligned_buffer& pool) { base_ = grow_pool(pool, footprint()); }
    void allocate() { attach(storage_); }
    [[nodiscard]] bool rotating() const noexcept { return count_ > 1; }
    [[nodiscard]] std::uint64_t slot_count() const noexcept { return count_; }
    [[nodiscard]] std::byte* data() noexcept { return base_; }
    [[nodiscard]] std::size_t message_bytes() const noexcept { return bytes_; }
    [[nodiscard]] std::span<std::byte> slot(std::uint64_t k) noexcept {
        return {base_ + (k % count_) * stride_, bytes_};
    }
    [[nodiscard]] fixed_slots fixed() noexcept { return {base_, bytes_}; }
    [[nodiscard]] rotating_slots rotating_view() noexcept {
        return {base_, bytes_, stride_, count_};
    }

private:
    message_rotation rotation_;
    std::size_t bytes_ = 0;
    std::size_t stride_ = 0;
    std::uint64_t count_ = 1;
    std::size_t region_bytes_ = 0;
    aligned_buffer storage_;  // own storage when allocate() is used instead of a pool
    std::byte* base_ = nullptr;
};

}  // namespace parbench::mpi
