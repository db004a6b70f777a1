// Message buffers: page-aligned storage, IMB's -off_cache rotation (each message of a size starts
// at least two cache lines after the end of the previous one, within a region of
// 2 * max(cache, X), wrapping to the start when full) and the -mem cap.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/sizes.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>

#include <sys/mman.h>

namespace parbench {

inline constexpr std::size_t buffer_alignment = 4096;

// Under AddressSanitizer host buffers come from the heap instead (aligned_buffer below), so that
// its red zones catch a definition that reads or writes past its buffer layout.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool buffers_from_heap = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool buffers_from_heap = true;
#else
inline constexpr bool buffers_from_heap = false;
#endif
#else
inline constexpr bool buffers_from_heap = false;
#endif

// Where a buffer's bytes live: page-aligned host memory unless a backend supplies another space
// (CUDA device memory for a CUDA-aware MPI, plugins/mpi/cuda_buffers.hpp) as its functions.
// Buffers are only ever allocated, zeroed, freed and copied to or from the host through a space:
// what reads or writes their bytes on the host (-check) works on host copies where the space
// has copies (mpi/resource.hpp, mpi/rma_window.hpp).
struct memory_space {
    std::string_view name = "host";
    void* (*allocate)(std::size_t bytes) = nullptr;  // the space's own alignment
    void (*release)(void* p) = nullptr;
    void (*zero)(void* p, std::size_t bytes) = nullptr;
    // Copies `bytes` from host memory into the space, and out of it into host memory, complete
    // on return (cudaMemcpy host to device, device to host); nullptr: the space is memory the
    // host may touch.
    void (*copy_in)(void* in_space, const void* host, std::size_t bytes) = nullptr;
    void (*copy_out)(void* host, const void* in_space, std::size_t bytes) = nullptr;
};

// Whether the host must go through `space`'s copies to read or write its bytes.
[[nodiscard]] constexpr bool needs_copies(const memory_space* space) noexcept {
    return space != nullptr && space->copy_in != nullptr && space->copy_out != nullptr;
}

// Owning, zero-initialised byte buffer, page-aligned in host memory (or in a memory_space).
// Never null: a zero-byte request still yields a valid pointer, because MPI implementations may
// dereference buffers of count 0.
//
// Host buffers are mapped pages of their own (mmap), not the C heap (but under AddressSanitizer:
// buffers_from_heap): a benchmark frees its buffers when it ends and the pages go back to the
// system (the default imb-mpi1 run peaks at IMB-MPI1's memory), without changing how the
// process's malloc serves everybody else. The earlier way, glibc's mmap threshold fixed at
// 128 KiB (mallopt), also sent every temporary buffer the MPI library allocates inside a call to
// fresh pages: MPICH's 1 MiB MPI_Allreduce page-faulted its scratch buffer on every call and took
// 2.3 x IMB 2021's time.
class aligned_buffer {
    struct deleter {
        // User-provided constructors, no member initialiser: with one, GCC 12 does not take this
        // nested type as default-constructible inside the enclosing class (unique_ptr needs it).
        deleter() noexcept : space(nullptr), mapped_bytes(0) {}
        deleter(const memory_space* s, std::size_t bytes) noexcept
            : space(s), mapped_bytes(bytes) {}
        const memory_space* space;
        std::size_t mapped_bytes;  // host pages: the mapping's length
        void operator()(std::byte* p) const noexcept {
            if (space != nullptr && space->release != nullptr)
                space->release(p);
            else if (buffers_from_heap)
                std::free(p);
            else
                ::munmap(p, mapped_bytes);
        }
    };

public:
    aligned_buffer() = default;
    // An empty buffer that remembers its space, so that a pool grows in the same place.
    [[nodiscard]] static aligned_buffer empty_in(const memory_space* space) noexcept {
        aligned_buffer b;
        b.data_ = std::unique_ptr<std::byte, deleter>(nullptr, deleter{space, 0});
        b.space_ = space;
        return b;
    }
    // A moved-from buffer is empty (null, size 0), not a size without storage.
    aligned_buffer(aligned_buffer&& other) noexcept
        : data_(std::move(other.data_)),
          size_(std::exchange(other.size_, 0)),
          space_(other.space_) {}
    aligned_buffer& operator=(aligned_buffer&& other) noexcept {
        data_ = std::move(other.data_);
        size_ = std::exchange(other.size_, 0);
        space_ = other.space_;
        return *this;
    }
    explicit aligned_buffer(std::size_t bytes, const memory_space* space = nullptr)
        : data_(nullptr, deleter{space, 0}), size_(bytes), space_(space) {
        const std::size_t rounded =
            (std::max<std::size_t>(bytes, 1) + buffer_alignment - 1) / buffer_alignment *
            buffer_alignment;
        if (space != nullptr && space->allocate != nullptr) {
            void* p = space->allocate(rounded);
            if (p == nullptr) throw std::bad_alloc();
            space->zero(p, rounded);
            data_.reset(static_cast<std::byte*>(p));
            return;
        }
        void* p = buffers_from_heap
                      ? std::aligned_alloc(buffer_alignment, rounded)
                      : ::mmap(nullptr, rounded, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == nullptr || p == MAP_FAILED) throw std::bad_alloc();
        // Mapped pages read as zero; writing them takes the page faults here, not in a timed loop.
        std::memset(p, 0, rounded);
        data_ = std::unique_ptr<std::byte, deleter>(static_cast<std::byte*>(p),
                                                    deleter{space, rounded});
    }
    [[nodiscard]] std::byte* data() noexcept { return data_.get(); }
    [[nodiscard]] const std::byte* data() const noexcept { return data_.get(); }
    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    // nullptr: host memory.
    [[nodiscard]] const memory_space* space() const noexcept { return space_; }

private:
    std::unique_ptr<std::byte, deleter> data_;
    std::size_t size_ = 0;
    const memory_space* space_ = nullptr;
};

// `pool` made at least `bytes` long and its storage returned: grown, in its memory space, when
// shorter or empty (the old block freed first, so that the peak is the new size; its contents
// are not kept, and new storage reads zero), never shrunk, so that a sequence of sizes reuses one
// allocation as IMB's buffers do (the session's pools, mpi/session.hpp).
inline std::byte* grow_pool(aligned_buffer& pool, std::size_t bytes) {
    if (pool.size() < bytes || pool.data() == nullptr) {
        const memory_space* space = pool.space();
        pool = aligned_buffer{};
        pool = aligned_buffer(bytes, space);
    }
    return pool.data();
}

// -off_cache cache_size[,cache_line_size] | -1. Sizes in MB (2^20 bytes) as IMB.
struct off_cache {
    bool enabled = false;
    double cache_mib = 0.0;
    std::size_t line_bytes = 64;

    // IMB_mem_info.h's defaults are not in the seed; -1 uses a conservative upper bound for
    // current server CPUs' last-level cache per socket.
    static constexpr double default_cache_mib = 64.0;
    static constexpr std::size_t default_line_bytes = 64;

    // The largest cache size accepted (1 PiB): its byte count and every region built from it
    // stay far inside std::size_t.
    static constexpr double max_cache_mib = 1073741824.0;

    [[nodiscard]] std::size_t cache_bytes() const noexcept {
        return static_cast<std::size_t>(std::clamp(cache_mib, 0.0, max_cache_mib) * 1048576.0);
    }
};

[[nodiscard]] inline off_cache parse_off_cache(std::string_view text) {
    const std::string shown(text);
    const auto fail = [&] {
        return input_error("-off_cache " + shown +
                           ": expected -1, CACHE_MB or CACHE_MB,LINE_BYTES (e.g. 2.5 or 16,128)");
    };
    text = parbench::trim(text);
    if (text == "-1") return {true, off_cache::default_cache_mib, off_cache::default_line_bytes};
    const auto comma = text.find(',');
    const std::string size_text(parbench::trim(text.substr(0, comma)));
    char* end = nullptr;
    const double mib = size_text.empty() ? 0.0 : std::strtod(size_text.c_str(), &end);
    if (size_text.empty() || end != size_text.c_str() + size_text.size() || !(mib > 0.0))
        throw fail();
    if (!std::isfinite(mib) || mib > off_cache::max_cache_mib || mib * 1048576.0 < 1.0)
        throw input_error("-off_cache " + shown + ": cache size out of range (at most " +
                          std::to_string(static_cast<long long>(off_cache::max_cache_mib)) +
                          " MB, at least one byte)");
    off_cache result{true, mib, off_cache::default_line_bytes};
    if (comma != std::string_view::npos) {
        if (!parbench::parse_unsigned(text.substr(comma + 1), result.line_bytes) ||
            result.line_bytes == 0) {
            if (parbench::integer_problem(text.substr(comma + 1), "") != "" ||
                result.line_bytes > (std::size_t{1} << 30))
                throw input_error("-off_cache " + shown + ": cache line size out of range");
            throw fail();
        }
        if (result.line_bytes > (std::size_t{1} << 30))  // a stride must not overflow
            throw input_error("-off_cache " + shown + ": cache line size out of range");
    }
    return result;
}

// Hands out the start of each successive message of `message_bytes` inside one region. Without
// off_cache every message reuses the start (the data may come from cache, as IMB by default).
class message_rotation {
public:
    message_rotation() = default;
    message_rotation(std::size_t message_bytes, const off_cache& cache)
        : message_bytes_(message_bytes) {
        if (cache.enabled) {
            const std::size_t line = cache.line_bytes;
            stride_ = (message_bytes + 2 * line + line - 1) / line * line;
            region_bytes_ = 2 * std::max(cache.cache_bytes(), message_bytes) + stride_;
        } else {
            region_bytes_ = message_bytes;
        }
    }
    // Bytes a buffer must hold for this rotation.
    [[nodiscard]] std::size_t region_bytes() const noexcept { return region_bytes_; }
    // Offset of the next message; wraps when the next message would not fit.
    [[nodiscard]] std::size_t next_offset() noexcept {
        if (stride_ == 0) return 0;
        if (offset_ + message_bytes_ > region_bytes_) offset_ = 0;
        const std::size_t current = offset_;
        offset_ += stride_;
        return current;
    }
    void reset() noexcept { offset_ = 0; }

private:
    std::size_t message_bytes_ = 0;
    std::size_t stride_ = 0;  // 0: no rotation
    std::size_t region_bytes_ = 0;
    std::size_t offset_ = 0;
};

// -mem GB: the per-process cap on message buffers. IMB's MAX_MEM_USAGE is not in the seed;
// parbench's default is 80 % of physical memory divided by the processes on the node, decided by
// the caller. parse_mem_gib validates the option.
[[nodiscard]] inline double parse_mem_gib(std::string_view text) {
    const std::string copy(parbench::trim(text));
    char* end = nullptr;
    const double value = copy.empty() ? 0.0 : std::strtod(copy.c_str(), &end);
    if (!copy.empty() && end == copy.c_str() + copy.size() && value > 0.0 &&
        (!std::isfinite(value) || value > 1e9))
        throw input_error("-mem " + std::string(text) + ": out of range (at most 1e9 GB)");
    if (copy.empty() || end != copy.c_str() + copy.size() || !(value > 0.0) ||
        !std::isfinite(value))
        throw input_error("-mem " + std::string(text) +
                          ": expected a positive number of GB per process, e.g. 2 or 0.5");
    return value;
}

}  // namespace parbench
