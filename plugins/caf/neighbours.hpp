// Who synchronises with whom in the caf suite: pairs (i <-> i + n/2), rings of N neighbours in a
// given or random order, and the periodic 3D grid. Pure functions of (rank, image count, ...):
// every image computes the same answer alone, and tests/unit/caf/neighbours_test.cpp checks it.
//
// Ranks are 0-based here; the coarray kernels take images (rank + 1).
//
// EPCC's random pattern permutes a ring and syncs with positions +-1 ... +-N/2; once N/2 reaches
// half the image count those positions wrap onto each other and onto the image itself, and the
// original passed the duplicates and the image itself to `sync images`. Here a neighbour list
// never holds either: N is capped at n - 1, and an odd N (only N = n - 1 with n even) takes the
// opposite position, which keeps the relation symmetric.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <random>
#include <span>
#include <vector>

namespace parbench::caf {

// The partner of `rank` in the multiple ping-pong pairing i <-> i + n/2 (n even).
[[nodiscard]] constexpr int pair_partner(int rank, int images) noexcept {
    const int half = images / 2;
    return rank < half ? rank + half : rank - half;
}

// The ranks 0..images-1 in an order drawn from `seed` (Fisher-Yates on mt19937_64 with plain
// modulo, not std::uniform_int_distribution, whose algorithm differs between standard libraries:
// the same seed gives the same order everywhere).
[[nodiscard]] inline std::vector<int> random_order(int images, std::uint64_t seed) {
    std::vector<int> order(static_cast<std::size_t>(std::max(0, images)));
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 engine(seed);
    for (std::size_t i = order.size(); i > 1; --i) {
        const std::size_t j = static_cast<std::size_t>(engine() % i);
        std::swap(order[i - 1], order[j]);
    }
    return order;
}

// The neighbour counts of the random and ring rows: 2, 4, ..., max_neighbours, each capped at
// images - 1, without repeats (images = 6, max 12: 2, 4, 5).
[[nodiscard]] inline std::vector<int> neighbour_counts(int max_neighbours, int images) {
    std::vector<int> counts;
    for (int n = 2; n <= std::max(2, max_neighbours); n += 2) {
        const int capped = std::min(n, images - 1);
        if (capped > 0 && (counts.empty() || counts.back() != capped)) counts.push_back(capped);
    }
    return counts;
}

// The `count` neighbours of `rank` on the ring `order` (a permutation of all ranks): the ranks at
// positions +-1, ..., +-count/2 from it, and for an odd count the opposite position. Requires
// count <= order.size() - 1, and an even order.size() when count is odd.
[[nodiscard]] inline std::vector<int> ring_neighbours(std::span<const int> order, int rank,
                                                      int count) {
    const int images = static_cast<int>(order.size());
    const int position =
        static_cast<int>(std::find(order.begin(), order.end(), rank) - order.begin());
    const auto at = [&](int offset) {
        return order[static_cast<std::size_t>(((position + offset) % images + images) % images)];
    };
    std::vector<int> neighbours;
    for (int k = 1; k <= count / 2; ++k) {
        neighbours.push_back(at(-k));
        neighbours.push_back(at(k));
    }
    if (count % 2 == 1) neighbours.push_back(at(images / 2));
    return neighbours;
}

// The periodic 3D grid of the halo benchmark. `dims` in Fortran order (x varies fastest):
// rank = x + dims[0] * (y + dims[1] * z), i.e. MPI_Dims_create's answer reversed.
struct grid3 {
    std::array<int, 3> dims{1, 1, 1};

    [[nodiscard]] std::array<int, 3> coordinates(int rank) const noexcept {
        return {rank % dims[0], rank / dims[0] % dims[1], rank / (dims[0] * dims[1])};
    }
    [[nodiscard]] int rank_at(std::array<int, 3> c) const noexcept {
        for (std::size_t d = 0; d < 3; ++d) c[d] = (c[d] % dims[d] + dims[d]) % dims[d];
        return c[0] + dims[0] * (c[1] + dims[1] * c[2]);
    }
    // x-, x+, y-, y+, z-, z+ (the rank itself where a dimension is 1).
    [[nodiscard]] std::array<int, 6> neighbours(int rank) const noexcept {
        std::array<int, 6> n{};
        const std::array<int, 3> c = coordinates(rank);
        for (std::size_t d = 0; d < 3; ++d) {
            std::array<int, 3> down = c, up = c;
            --down[d];
            ++up[d];
            n[2 * d] = rank_at(down);
            n[2 * d + 1] = rank_at(up);
        }
        return n;
    }
};

// `ranks` without repeats and without `self`, in first-seen order: what `sync images` may take.
[[nodiscard]] inline std::vector<int> distinct_others(std::span<const int> ranks, int self) {
    std::vector<int> out;
    for (const int r : ranks)
        if (r != self && std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
    return out;
}

// 0-based ranks to 1-based images.
[[nodiscard]] inline std::vector<int> as_images(std::span<const int> ranks) {
    std::vector<int> images(ranks.begin(), ranks.end());
    for (int& i : images) ++i;
    return images;
}

}  // namespace parbench::caf
