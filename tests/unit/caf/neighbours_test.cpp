// plugins/caf/neighbours.hpp: the sync images lists of the random, ring, pairwise and 3D grid
// patterns. Each list must be symmetric (q syncs with p whenever p syncs with q, or the images
// wait for ever), hold no duplicates and never the image itself (EPCC's random pattern produced
// both once N/2 reached half the image count).
#include "caf/neighbours.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

// A namespace of the file's own: the test program is a unity build (tests/unit/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace caf_neighbours_test {

using namespace parbench::caf;

namespace {

// The neighbour list of every rank of the ring in `order`.
std::vector<std::vector<int>> lists_of(const std::vector<int>& order, int count) {
    std::vector<std::vector<int>> lists;
    for (int r = 0; r < static_cast<int>(order.size()); ++r)
        lists.push_back(ring_neighbours(order, r, count));
    return lists;
}

// What is wrong with the lists of one pattern, "" when nothing is: each rank's list holds `count`
// ranks of the run, no duplicates and never the rank itself, and q's list holds p whenever p's
// holds q. One assertion per pattern, and a table of who lists whom instead of a search per
// element: the test walks about a hundred thousand elements (2-33 images), which took a second
// under the sanitizers element by element.
std::string problem_of(const std::vector<std::vector<int>>& lists, int count) {
    const int images = static_cast<int>(lists.size());
    const auto where = [&](int p) {
        return "images " + std::to_string(images) + ", count " + std::to_string(count) +
               ", rank " + std::to_string(p) + ": ";
    };
    std::vector<char> lists_whom(static_cast<std::size_t>(images * images), 0);  // [p * n + q]
    const auto cell = [&](int p, int q) -> char& {
        return lists_whom[static_cast<std::size_t>(p * images + q)];
    };
    for (int p = 0; p < images; ++p) {
        const auto& mine = lists[static_cast<std::size_t>(p)];
        if (static_cast<int>(mine.size()) != count)
            return where(p) + std::to_string(mine.size()) + " neighbours";
        for (const int q : mine) {
            if (q < 0 || q >= images)
                return where(p) + "rank " + std::to_string(q) + " out of range";
            if (q == p) return where(p) + "itself";
            if (cell(p, q) != 0) return where(p) + "rank " + std::to_string(q) + " twice";
            cell(p, q) = 1;
        }
    }
    for (int p = 0; p < images; ++p)
        for (const int q : lists[static_cast<std::size_t>(p)])
            if (cell(q, p) == 0)
                return where(p) + "rank " + std::to_string(q) + " does not sync back";
    return {};
}

}  // namespace

TEST_CASE("neighbour counts are 2, 4, ... capped at images - 1 without repeats", "[caf]") {
    CHECK(neighbour_counts(12, 1).empty());
    CHECK(neighbour_counts(12, 2) == std::vector<int>{1});
    CHECK(neighbour_counts(12, 4) == std::vector<int>{2, 3});
    CHECK(neighbour_counts(12, 6) == std::vector<int>{2, 4, 5});
    CHECK(neighbour_counts(12, 64) == std::vector<int>{2, 4, 6, 8, 10, 12});
    CHECK(neighbour_counts(5, 64) == std::vector<int>{2, 4});
}

TEST_CASE("random and ring neighbour lists are symmetric, without duplicates or self", "[caf]") {
    for (int images = 2; images <= 33; ++images) {
        for (const int count : neighbour_counts(40, images)) {
            std::vector<int> identity(static_cast<std::size_t>(images));
            for (int r = 0; r < images; ++r) identity[static_cast<std::size_t>(r)] = r;
            REQUIRE(problem_of(lists_of(identity, count), count) == "");
            for (const std::uint64_t seed : {0ull, 1ull, 12345ull})
                REQUIRE(problem_of(lists_of(random_order(images, seed), count), count) == "");
        }
    }
}

TEST_CASE("the random order is a permutation fixed by the seed", "[caf]") {
    const auto a = random_order(20, 7);
    CHECK(a == random_order(20, 7));
    CHECK(a != random_order(20, 8));
    auto sorted = a;
    std::sort(sorted.begin(), sorted.end());
    for (int r = 0; r < 20; ++r) CHECK(sorted[static_cast<std::size_t>(r)] == r);
}

TEST_CASE("the ring with 2 neighbours is rank - 1 and rank + 1, periodic", "[caf]") {
    std::vector<int> identity{0, 1, 2, 3, 4};
    CHECK(ring_neighbours(identity, 0, 2) == std::vector<int>{4, 1});
    CHECK(ring_neighbours(identity, 3, 4) == std::vector<int>{2, 4, 1, 0});
}

TEST_CASE("pairwise partners are i and i + n/2", "[caf]") {
    CHECK(pair_partner(0, 4) == 2);
    CHECK(pair_partner(3, 4) == 1);
    CHECK(pair_partner(1, 2) == 0);
}

TEST_CASE("3D grid neighbours are periodic and mutual; distinct_others drops self and repeats",
          "[caf]") {
    const grid3 grid{{2, 3, 1}};
    for (int r = 0; r < 6; ++r) {
        const auto n = grid.neighbours(r);
        for (std::size_t d = 0; d < 3; ++d) {
            // My up neighbour's down neighbour is me.
            CHECK(grid.neighbours(n[2 * d + 1])[2 * d] == r);
            CHECK(grid.neighbours(n[2 * d])[2 * d + 1] == r);
        }
        CHECK(n[4] == r);  // dimension of extent 1: the image itself
        const auto distinct = distinct_others(n, r);
        CHECK(std::find(distinct.begin(), distinct.end(), r) == distinct.end());
        CHECK(std::set<int>(distinct.begin(), distinct.end()).size() == distinct.size());
    }
    // 2 x 3 x 1: the x neighbour appears twice (up and down), each y neighbour once.
    CHECK(distinct_others(grid.neighbours(0), 0).size() == 3);
}

}  // namespace caf_neighbours_test
