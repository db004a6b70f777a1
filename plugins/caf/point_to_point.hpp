// The point-to-point half of the caf suite: EPCC's put/get patterns, the data they move, who
// plays which part in each ping-pong mode, and the known answer that -check compares against.
#pragma once

#include "caf_kernels.h"
#include "neighbours.hpp"
#include "options.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace parbench::caf {

enum class direction { put, get };
// Where the moved elements lie: one contiguous run, or blocks whose starts are `stride` blocks
// apart (in x, or as columns of the two-dimensional `blocks` array for strided put/subput).
enum class placement { contiguous, strided, strided_columns };

struct transfer_pattern {
    std::string_view name;
    std::string_view description;
    direction dir;
    placement where;
    parbench_caf_transfer kernel;
};

inline constexpr transfer_pattern transfer_patterns[] = {
    {"put", "x(1:ndata)[image] = x(1:ndata)", direction::put, placement::contiguous,
     parbench_caf_put},
    {"subput", "put through a subroutine with disp and count", direction::put,
     placement::contiguous, parbench_caf_subput},
    {"simple_subput", "put through a subroutine: target(:)[image] = source(:)", direction::put,
     placement::contiguous, parbench_caf_simple_subput},
    {"all_put", "x(:)[image] = x(:) with x of exactly ndata elements", direction::put,
     placement::contiguous, parbench_caf_all_put},
    {"many_put", "count puts of blksize elements", direction::put, placement::contiguous,
     parbench_caf_many_put},
    {"sub_manyput", "many put inside one subroutine", direction::put, placement::contiguous,
     parbench_caf_sub_manyput},
    {"many_subput", "count calls of the subput subroutine", direction::put, placement::contiguous,
     parbench_caf_many_subput},
    {"strided_put", "one strided section: x(:, 1:nextent:stride)[image]", direction::put,
     placement::strided_columns, parbench_caf_strided_put},
    {"strided_subput", "strided section through a subroutine", direction::put,
     placement::strided_columns, parbench_caf_strided_subput},
    {"strided_many_put", "count puts of blksize elements, stride blocks apart", direction::put,
     placement::strided, parbench_caf_strided_many_put},
    {"get", "x(1:ndata) = x(1:ndata)[image]", direction::get, placement::contiguous,
     parbench_caf_get},
    {"subget", "get through a subroutine with disp and count", direction::get,
     placement::contiguous, parbench_caf_subget},
    {"simple_subget", "get through a subroutine: target(:) = source(:)[image]", direction::get,
     placement::contiguous, parbench_caf_simple_subget},
    {"all_get", "x(:) = x(:)[image] with x of exactly ndata elements", direction::get,
     placement::contiguous, parbench_caf_all_get},
    {"many_get", "count gets of blksize elements", direction::get, placement::contiguous,
     parbench_caf_many_get},
    {"sub_manyget", "many get inside one subroutine", direction::get, placement::contiguous,
     parbench_caf_sub_manyget},
    {"many_subget", "count calls of the subget subroutine", direction::get, placement::contiguous,
     parbench_caf_many_subget},
    {"strided_get", "one strided section: x(:, 1:nextent:stride) = ...[image]", direction::get,
     placement::strided_columns, parbench_caf_strided_get},
    {"strided_subget", "strided section through a subroutine", direction::get,
     placement::strided_columns, parbench_caf_strided_subget},
    {"strided_many_get", "count gets of blksize elements, stride blocks apart", direction::get,
     placement::strided, parbench_caf_strided_many_get},
};

// EPCC's count, blksize and stride, and what follows from them.
struct data_geometry {
    std::int64_t count = 1;
    std::int64_t blksize = 1;
    std::int64_t stride = 1;  // in blocks; 1 for contiguous placements
    // Elements moved: count * blksize.
    [[nodiscard]] std::int64_t ndata() const noexcept { return count * blksize; }
    // From the first to the last element moved.
    [[nodiscard]] std::int64_t nextent() const noexcept {
        return ((count - 1) * stride + 1) * blksize;
    }
    [[nodiscard]] std::uint64_t bytes() const noexcept {
        return static_cast<std::uint64_t>(ndata()) * sizeof(double);
    }
    [[nodiscard]] bool moves(std::int64_t element) const noexcept {
        return element < nextent() && (element / blksize) % stride == 0;
    }
};

[[nodiscard]] inline data_geometry geometry_of(placement where, int count, const options& o) {
    return {count, o.blksize, where == placement::contiguous ? 1 : o.stride};
}

// The part one image plays in a ping-pong. In step one the data of the `initiator` travels to
// the `responder` (a put by the initiator, a get by the responder); in step two it travels
// back. Idle images only join the global synchronisation.
struct ping_pong_role {
    enum kind_t { idle, initiator, responder } kind = idle;
    int partner = -1;  // rank; -1 when idle
};

// EPCC's modes: single (first and last image), multiple (i <-> i + n/2), crossing (as multiple,
// with every other pair's direction reversed). The caller has checked the image count.
[[nodiscard]] inline ping_pong_role role_of(ping_pong_mode mode, int rank, int images) noexcept {
    if (mode == ping_pong_mode::single) {
        if (rank == 0) return {ping_pong_role::initiator, images - 1};
        if (rank == images - 1) return {ping_pong_role::responder, 0};
        return {};
    }
    const int half = images / 2;
    const bool first_half = rank < half;
    const bool reversed = mode == ping_pong_mode::crossing && (rank % half) % 2 == 1;
    return {first_half != reversed ? ping_pong_role::initiator : ping_pong_role::responder,
            pair_partner(rank, images)};
}

// Why a mode cannot run on `images` images ("" when it can).
[[nodiscard]] inline std::string refusal(ping_pong_mode mode, int images) {
    if (images < 2)
        return std::string(to_string(mode)) + " ping-pong needs at least 2 images; the run has " +
               std::to_string(images);
    if (mode != ping_pong_mode::single && images % 2 != 0)
        return std::string(to_string(mode)) +
               " ping-pong pairs image i with i + n/2 and needs an even number of images; the "
               "run has " + std::to_string(images);
    return {};
}

// The -check known answer: before timing, every image fills its whole array with values that
// name the image and the element; after the last ping-pong the elements moved hold the
// initiator's values on both images of a pair (the responder sent back what it received), and
// everything else is unchanged. Computed here from the geometry alone, never by the kernels.
[[nodiscard]] constexpr double known_value(int rank, std::int64_t element) noexcept {
    return static_cast<double>(rank + 1) * 4294967296.0 + static_cast<double>(element);
}

inline void fill_known(std::span<double> data, int rank) noexcept {
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = known_value(rank, static_cast<std::int64_t>(i));
}

[[nodiscard]] inline std::uint64_t count_defects(std::span<const double> data, int rank,
                                                 const ping_pong_role& role,
                                                 const data_geometry& geometry) noexcept {
    const int source = role.kind == ping_pong_role::responder ? role.partner : rank;
    std::uint64_t defects = 0;
    for (std::size_t i = 0; i < data.size(); ++i) {
        const auto element = static_cast<std::int64_t>(i);
        const double expected =
            known_value(geometry.moves(element) ? source : rank, element);
        if (data[i] != expected) ++defects;
    }
    return defects;
}

}  // namespace parbench::caf
