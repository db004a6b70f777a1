// mpi/block_file_content.hpp: the read file's bytes. fill_block_file (a mix per 8-byte word) must
// give block_file_byte of every offset whatever its start and length, never a zero, and a read
// misplaced by any distance must differ from the bytes in place.
#include <parbench/mpi/block_file_content.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

using parbench::mpi::block_file_byte;
using parbench::mpi::fill_block_file;

TEST_CASE("fill_block_file gives block_file_byte of each offset", "[block_file_content]") {
    for (const std::uint64_t start : {0ull, 1ull, 7ull, 8ull, 13ull, 4093ull, (1ull << 33) + 5}) {
        for (const std::size_t length : {0, 1, 7, 8, 9, 23, 64, 1001}) {
            std::vector<std::byte> out(length, std::byte{0});
            fill_block_file(out, start);
            std::size_t wrong = 0;
            for (std::size_t k = 0; k < length; ++k)
                wrong += out[k] != block_file_byte(start + k) ? 1 : 0;
            INFO("start " << start << ", length " << length);
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("the read file's bytes are never zero and have no short period", "[block_file_content]") {
    constexpr std::size_t n = 1 << 16;
    std::vector<std::byte> file(n + 64);
    fill_block_file(file, 0);
    std::size_t zeros = 0;
    for (const std::byte b : file) zeros += b == std::byte{0} ? 1 : 0;
    CHECK(zeros == 0);
    // A 64-byte read shifted by d (1 to 64) from its place matches it in about 64 / 256 bytes;
    // a period of d would match it in all 64.
    for (std::size_t d = 1; d <= 64; ++d) {
        std::size_t same = 0;
        for (std::size_t k = 0; k < 64; ++k) same += file[1000 + k] == file[1000 + d + k] ? 1 : 0;
        INFO("shift " << d);
        CHECK(same < 16);
    }
}
