// Run-time validation (-check): the values senders put into their messages and the counts of
// received elements that differ from them. Values depend on the sending rank and the element
// index and are never zero, so a receive buffer cleared to zero that was never written shows up
// as defects too. Reduction values are small integers, so float sums are exact in any order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace parbench::mpi::check {

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

}  // namespace parbench::mpi::check
