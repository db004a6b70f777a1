// OSU 7.5's -l: where a collective passes MPI_IN_PLACE, per IMB-MPI1 definition the osu suite
// reuses (osu/collectives.hpp adds OSU's own alltoallw and reduce_scatter_block), and the buffer
// view a kernel calls with it.
#pragma once

#include <parbench/suites/imb/mpi1.hpp>

#include <mpi.h>

#include <cstdint>

namespace parbench::osu {

// Where -l puts MPI_IN_PLACE (OSU 7.5's omb_enable_mpi_in_place): as every process's send buffer
// (osu_allreduce.c:143-145, osu_allgather.c:94, osu_alltoall.c:148, osu_alltoallv.c:178,
// osu_alltoallw.c:196, osu_reduce_scatter.c:169, osu_reduce_scatter_block.c:163), as the root's
// send buffer (osu_gather.c:159-170, osu_gatherv.c:181, osu_reduce.c:166-176: the others send
// as usual), or as the root's receive buffer (osu_scatter.c:170-175, osu_scatterv.c:189-193).
// none: the test takes no -l (osu_bcast, osu_barrier: no 'l' in their option strings).
enum class in_place_use { none, send, send_at_root, receive_at_root };

template <class Imb>
inline constexpr in_place_use in_place_of = in_place_use::none;
template <bool V>
inline constexpr in_place_use in_place_of<imb_mpi1::allgather_def<V>> = in_place_use::send;
template <bool V>
inline constexpr in_place_use in_place_of<imb_mpi1::alltoall_def<V>> = in_place_use::send;
template <>
inline constexpr in_place_use in_place_of<imb_mpi1::allreduce_def> = in_place_use::send;
template <>
inline constexpr in_place_use in_place_of<imb_mpi1::reduce_scatter_def> = in_place_use::send;
template <bool V>
inline constexpr in_place_use in_place_of<imb_mpi1::gather_def<V>> = in_place_use::send_at_root;
template <>
inline constexpr in_place_use in_place_of<imb_mpi1::reduce_def> = in_place_use::send_at_root;
template <bool V>
inline constexpr in_place_use in_place_of<imb_mpi1::scatter_def<V>> =
    in_place_use::receive_at_root;

// Which of this process's buffers -l makes MPI_IN_PLACE: `use` at the root or elsewhere.
struct in_place_sides {
    bool send = false;
    bool receive = false;
};
[[nodiscard]] constexpr in_place_sides in_place_sides_of(in_place_use use, bool at_root) noexcept {
    return {.send = use == in_place_use::send || (use == in_place_use::send_at_root && at_root),
            .receive = use == in_place_use::receive_at_root && at_root};
}

// The buffers a kernel passes with -l: MPI_IN_PLACE where `use` puts it on this process.
template <class Buffers>
struct in_place_buffers {
    const Buffers& b;
    bool send_in_place = false;
    bool receive_in_place = false;
    [[nodiscard]] void* send(std::uint64_t i) const {
        return send_in_place ? MPI_IN_PLACE : static_cast<void*>(b.send(i));
    }
    [[nodiscard]] void* recv(std::uint64_t i) const {
        return receive_in_place ? MPI_IN_PLACE : static_cast<void*>(b.recv(i));
    }
};

}  // namespace parbench::osu
