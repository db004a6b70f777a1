// Run-time validation (-check): the values senders put into their messages and the counts of
// received elements that differ from them. Values depend on the sending rank and the element
// index and are never zero, so a receive buffer cleared to zero that was never written shows up
// as defects too. Reduction values are small integers, so float sums are exact in any order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace parbench::mpi::check {

// --- what a check found ----------------------------------------------------------------------

// One element a check found wrong: its position in the buffer checked (in elements of the
// check's type: bytes for a check of bytes), and the value expected and the one found, each as
// the element's type reads it (a byte as a `char`, as OSU 7.5's validation_log prints MPI_CHAR).
struct mismatch {
    std::uint64_t position = 0;
    double expected = 0.0;
    double actual = 0.0;
    friend bool operator==(const mismatch&, const mismatch&) = default;
};

// What a check found: how many elements differ (the Defects figure) and the first of them,
// listed (OSU 7.5's -c log lines; osu_util_mpi.c:2297-2348 lists them all, parbench keeps at
// most `listed_at_most` per check, so a wholly wrong 4 MiB message does not write 4 M lines).
// A check that counts without listing leaves `listed` empty.
struct findings {
    static constexpr std::size_t listed_at_most = 1000;
    std::uint64_t count = 0;
    std::vector<mismatch> listed{};
    bool floating = false;  // the listed values are floating-point (OSU prints them with %f)
    // > 1: the listed positions count elements of this many bytes and the values are their
    // bytes read as an unsigned little-endian number, for the log to read as the run's datatype
    // (find_byte_defects of a typed message)
    std::uint8_t element_size = 1;

    void add(std::uint64_t position, double expected, double actual) {
        ++count;
        if (listed.size() < listed_at_most) listed.push_back({position, expected, actual});
    }
    findings& operator+=(const findings& other) {
        count += other.count;
        floating = floating || other.floating;
        element_size = std::max(element_size, other.element_size);
        for (const mismatch& m : other.listed) {
            if (listed.size() == listed_at_most) break;
            listed.push_back(m);
        }
        return *this;
    }
    friend findings operator+(findings a, const findings& b) {
        a += b;
        return a;
    }
    friend bool operator==(const findings&, const findings&) = default;
};

// A check's verify() returns a plain count or its findings; the runner takes either as findings.
[[nodiscard]] inline findings as_findings(std::uint64_t count) {
    findings found;
    found.count = count;
    return found;
}
[[nodiscard]] inline findings as_findings(findings found) { return found; }

// A byte as OSU prints an MPI_CHAR element (`%d` of a `char`).
[[nodiscard]] constexpr double char_value(std::byte b) noexcept {
    return static_cast<double>(static_cast<char>(b));
}

// Byte `index` of the data rank `rank` sends (MPI_BYTE benchmarks); 1..251.
[[nodiscard]] constexpr std::byte byte_value(int rank, std::uint64_t index) noexcept {
    const auto r = static_cast<std::uint64_t>(rank);
    return static_cast<std::byte>(1 + (r * 37 + index * 11 + (index >> 8)) % 251);
}

// Element `index` of the floats rank `rank` contributes to a reduction.
[[nodiscard]] constexpr float float_value(int rank, std::uint64_t index) noexcept {
    return static_cast<float>(1 + rank % 16) + static_cast<float>(index % 128);
}

// The sum over ranks 0..processes-1 of float_value(rank, index).
[[nodiscard]] constexpr float float_sum(int processes, std::uint64_t index) noexcept {
    double sum = 0.0;
    for (int r = 0; r < processes; ++r) sum += static_cast<double>(float_value(r, index));
    return static_cast<float>(sum);
}

// Fills `data` with rank's bytes for indices first, first+1, ...
inline void fill_bytes(std::span<std::byte> data, int rank, std::uint64_t first = 0) noexcept {
    for (std::size_t j = 0; j < data.size(); ++j) data[j] = byte_value(rank, first + j);
}

inline void fill_floats(std::span<std::byte> data, int rank, std::uint64_t first = 0) noexcept {
    const std::size_t n = data.size() / sizeof(float);
    for (std::size_t j = 0; j < n; ++j) {
        const float v = float_value(rank, first + j);
        std::memcpy(data.data() + j * sizeof(float), &v, sizeof(float));
    }
}

// Mismatching bytes of `data` against rank's bytes from index `first`.
[[nodiscard]] inline std::uint64_t count_byte_defects(std::span<const std::byte> data, int rank,
                                                      std::uint64_t first = 0) noexcept {
    std::uint64_t defects = 0;
    for (std::size_t j = 0; j < data.size(); ++j)
        defects += data[j] != byte_value(rank, first + j) ? 1 : 0;
    return defects;
}

// count_byte_defects with each mismatching byte listed (`position_base`: the position of
// data[0] in the buffer the caller checks). With `element` 2 to 4 (a message of -T MPI_INT
// or MPI_FLOAT; a double holds such an element exactly) an element with a wrong byte counts
// once and is listed at its position in elements, its bytes as findings::element_size says; a
// last partial element as bytes.
[[nodiscard]] inline findings find_byte_defects(std::span<const std::byte> data, int rank,
                                                std::uint64_t first = 0,
                                                std::uint64_t position_base = 0,
                                                std::size_t element = 1) {
    findings found;
    const std::size_t whole = element > 1 && element <= 4 ? data.size() / element * element : 0;
    if (whole > 0) found.element_size = static_cast<std::uint8_t>(element);
    for (std::size_t at = 0; at < whole; at += element) {
        std::uint64_t expected = 0;
        std::uint64_t actual = 0;
        for (std::size_t b = element; b-- > 0;) {
            const std::byte want = byte_value(rank, first + at + b);
            expected = expected << 8 | std::to_integer<std::uint64_t>(want);
            actual = actual << 8 | std::to_integer<std::uint64_t>(data[at + b]);
        }
        if (expected != actual)
            found.add(position_base / element + at / element, static_cast<double>(expected),
                      static_cast<double>(actual));
    }
    for (std::size_t j = whole; j < data.size(); ++j) {
        const std::byte expected = byte_value(rank, first + j);
        if (data[j] != expected)
            found.add(position_base + j, char_value(expected), char_value(data[j]));
    }
    return found;
}

// The fewest bytes of `data` that differ from `period`'s bytes read on from some start p
// (period[p], period[p + 1], ... wrapping round): for a read whose offset in a periodic file is
// unknown. The starts tried are those where the first, middle or last byte of `data` fits, so
// the count is exact unless all three are defects; where no start fits, every byte counts.
// Cost: O(period.size()) plus one comparison run per fitting start, cut off at the best so far.
[[nodiscard]] inline std::uint64_t count_defects_at_any_start(std::span<const std::byte> data,
                                                              std::span<const std::byte> period) {
    const std::size_t n = data.size();
    const std::size_t length = period.size();
    if (n == 0) return 0;
    if (length == 0) return n;
    std::uint64_t best = n;
    const auto defects_from = [&](std::size_t start) {
        std::uint64_t defects = 0;
        for (std::size_t j = 0, q = start; j < n && defects < best; ++j) {
            defects += data[j] != period[q] ? 1 : 0;
            q = q + 1 == length ? 0 : q + 1;
        }
        return defects;
    };
    for (const std::size_t probe : {std::size_t{0}, n / 2, n - 1}) {
        const std::size_t shift = probe % length;
        for (std::size_t q = 0; q < length && best > 0; ++q) {
            if (period[q] != data[probe]) continue;
            best = std::min(best, defects_from((q + length - shift) % length));
        }
    }
    return best;
}

// Mismatching floats of `data` against the sum over `processes` ranks from index `first`.
[[nodiscard]] inline std::uint64_t count_sum_defects(std::span<const std::byte> data,
                                                     int processes,
                                                     std::uint64_t first = 0) noexcept {
    std::uint64_t defects = 0;
    const std::size_t n = data.size() / sizeof(float);
    for (std::size_t j = 0; j < n; ++j) {
        float v = 0.0f;
        std::memcpy(&v, data.data() + j * sizeof(float), sizeof(float));
        defects += v != float_sum(processes, first + j) ? 1 : 0;
    }
    return defects;
}

// --- typed messages ----------------------------------------------------------------------------

// The element types of IMB 2021's datatype options, by their MPI names.
enum class element_kind { mpi_byte, mpi_char, mpi_int, mpi_float, mpi_double };

[[nodiscard]] constexpr std::size_t element_bytes(element_kind kind) noexcept {
    switch (kind) {
        case element_kind::mpi_byte: return 1;
        case element_kind::mpi_char: return sizeof(char);
        case element_kind::mpi_int: return sizeof(int);
        case element_kind::mpi_float: return sizeof(float);
        case element_kind::mpi_double: return sizeof(double);
    }
    return 1;
}

// What the send buffer's gaps hold: never part of a message.
inline constexpr std::byte gap_marker{0xa5};

// Where a message's data lie in its buffer.
struct element_layout {
    element_kind kind = element_kind::mpi_byte;
    std::size_t size = 1;    // bytes of one element
    std::size_t stride = 1;  // bytes from one element to the next (size: contiguous)

    [[nodiscard]] static constexpr element_layout of(element_kind kind,
                                                     std::size_t spread = 1) noexcept {
        const std::size_t bytes = element_bytes(kind);
        return {kind, bytes, bytes * spread};
    }
    // Buffer bytes that hold `data_bytes` message bytes.
    [[nodiscard]] constexpr std::size_t buffer_bytes(std::size_t data_bytes) const noexcept {
        return data_bytes / size * stride + data_bytes % size;
    }
    // The part of `buffer` that holds message bytes [first, first + length).
    template <class Byte>
    [[nodiscard]] std::span<Byte> part(std::span<Byte> buffer, std::size_t first,
                                       std::size_t length) const noexcept {
        return buffer.subspan(buffer_bytes(first), buffer_bytes(length));
    }
    [[nodiscard]] constexpr bool is_data(std::size_t offset) const noexcept {
        return offset % stride < size;
    }
    // The message byte number of buffer byte `offset` (a data byte).
    [[nodiscard]] constexpr std::uint64_t data_index(std::size_t offset) const noexcept {
        return offset / stride * size + offset % stride;
    }
};

// rank's bytes for message bytes first, first+1, ... laid out by `layout`; gaps marked.
inline void fill_bytes(const element_layout& layout, std::span<std::byte> data, int rank,
                       std::uint64_t first = 0) noexcept {
    for (std::size_t j = 0; j < data.size(); ++j)
        data[j] = layout.is_data(j) ? byte_value(rank, first + layout.data_index(j)) : gap_marker;
}

// Data bytes that differ from rank's bytes from message byte `first`, and gap bytes written;
// the data bytes listed at their message byte plus `position_base` (the gap bytes counted).
[[nodiscard]] inline findings find_byte_defects(const element_layout& layout,
                                                std::span<const std::byte> data, int rank,
                                                std::uint64_t first = 0,
                                                std::uint64_t position_base = 0) {
    findings found;
    for (std::size_t j = 0; j < data.size(); ++j) {
        if (!layout.is_data(j)) {
            found.count += data[j] != std::byte{0} ? 1 : 0;
            continue;
        }
        const std::byte expected = byte_value(rank, first + layout.data_index(j));
        if (data[j] != expected)
            found.add(position_base + layout.data_index(j), char_value(expected),
                      char_value(data[j]));
    }
    return found;
}

[[nodiscard]] inline std::uint64_t count_byte_defects(const element_layout& layout,
                                                      std::span<const std::byte> data, int rank,
                                                      std::uint64_t first = 0) {
    return find_byte_defects(layout, data, rank, first).count;
}

// Element `index` of what rank `rank` contributes to a typed reduction: float_value's small
// integers, converted to T (for char they wrap modulo 256, as its MPI_SUM does).
template <class T>
[[nodiscard]] constexpr T reduction_value(int rank, std::uint64_t index) noexcept {
    return static_cast<T>(1 + rank % 16 + static_cast<int>(index % 128));
}

// The MPI_SUM over ranks 0..processes-1, accumulated in T as MPI does.
template <class T>
[[nodiscard]] constexpr T reduction_sum(int processes, std::uint64_t index) noexcept {
    T sum = reduction_value<T>(0, index);
    for (int r = 1; r < processes; ++r) sum = static_cast<T>(sum + reduction_value<T>(r, index));
    return sum;
}

namespace detail {

template <class F>
decltype(auto) with_element_type(element_kind kind, F&& f) {
    switch (kind) {
        case element_kind::mpi_char: return f(char{});
        case element_kind::mpi_int: return f(int{});
        case element_kind::mpi_double: return f(double{});
        case element_kind::mpi_byte:
        case element_kind::mpi_float: break;
    }
    return f(float{});
}

}  // namespace detail

// rank's reduction operands (elements first, first+1, ...) laid out by `layout`; gaps marked.
inline void fill_reduction(const element_layout& layout, std::span<std::byte> data, int rank,
                           std::uint64_t first = 0) noexcept {
    detail::with_element_type(layout.kind, [&]<class T>(T) {
        std::fill(data.begin(), data.end(), gap_marker);
        for (std::size_t at = 0, k = 0; at + sizeof(T) <= data.size(); at += layout.stride, ++k) {
            const T v = reduction_value<T>(rank, first + k);
            std::memcpy(data.data() + at, &v, sizeof(T));
        }
    });
}

// Elements that differ from the sum over `processes` ranks from element `first`, and gap bytes
// written; the elements listed at their position in `data` (the gap bytes counted).
[[nodiscard]] inline findings find_reduction_defects(const element_layout& layout,
                                                     std::span<const std::byte> data,
                                                     int processes, std::uint64_t first = 0) {
    return detail::with_element_type(layout.kind, [&]<class T>(T) {
        findings found;
        found.floating = std::is_floating_point_v<T>;
        std::size_t at = 0;
        for (std::uint64_t k = 0; at + sizeof(T) <= data.size(); at += layout.stride, ++k) {
            T v{};
            std::memcpy(&v, data.data() + at, sizeof(T));
            const T expected = reduction_sum<T>(processes, first + k);
            if (v != expected)
                found.add(k, static_cast<double>(expected), static_cast<double>(v));
            for (std::size_t g = sizeof(T); g < layout.stride && at + g < data.size(); ++g)
                found.count += data[at + g] != std::byte{0} ? 1 : 0;
        }
        return found;
    });
}

[[nodiscard]] inline std::uint64_t count_reduction_defects(const element_layout& layout,
                                                           std::span<const std::byte> data,
                                                           int processes,
                                                           std::uint64_t first = 0) {
    return find_reduction_defects(layout, data, processes, first).count;
}

}  // namespace parbench::mpi::check
