// The content of the file IMB 2021's read benchmarks find (mpi::kept_file, made once for its
// block): byte `offset` a function of the position in the file alone, so that one file holds
// what every size of the block reads and -check knows what a read at any offset must deliver,
// as IMB 2021's read file holds a value of its position (IMB_init_file_content,
// src_c/IMB_init_file.c:65-83, IMB_ass_buf's BUF_VALUE(0, i) of the 4-byte unit i,
// IMB_mem_manager.c:304-311). Never zero (a read of nothing leaves zeros), and without a short
// period (a read misplaced by any distance shows): the bytes of a 64-bit mix of the offset's
// 8-byte word, so that a file's worth is made at memory speed (one mix per word; a mix per byte
// cost more than IMB-IO's whole default read run's difference in wall time).
// No MPI here: the unit tests hold fill_block_file to block_file_byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace parbench::mpi {

// The 64-bit mix (splitmix64's finaliser) of an 8-byte word's index.
[[nodiscard]] constexpr std::uint64_t block_file_word(std::uint64_t word) noexcept {
    std::uint64_t z = word * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Byte b of a word's mix as the file holds it: never zero (0 reads as 1).
[[nodiscard]] constexpr std::byte block_file_byte_of(std::uint64_t mix, unsigned b) noexcept {
    const auto v = static_cast<std::uint8_t>(mix >> (8 * b));
    return static_cast<std::byte>(v == 0 ? 1 : v);
}

[[nodiscard]] constexpr std::byte block_file_byte(std::uint64_t offset) noexcept {
    return block_file_byte_of(block_file_word(offset >> 3), static_cast<unsigned>(offset & 7));
}

// `out` filled with the file's bytes from `offset` on: block_file_byte(offset + k), a mix per
// whole word.
constexpr void fill_block_file(std::span<std::byte> out, std::uint64_t offset) noexcept {
    std::size_t k = 0;
    for (; k < out.size() && ((offset + k) & 7) != 0; ++k) out[k] = block_file_byte(offset + k);
    for (; k + 8 <= out.size(); k += 8) {
        const std::uint64_t mix = block_file_word((offset + k) >> 3);
        for (unsigned b = 0; b < 8; ++b) out[k + b] = block_file_byte_of(mix, b);
    }
    for (; k < out.size(); ++k) out[k] = block_file_byte(offset + k);
}

}  // namespace parbench::mpi
