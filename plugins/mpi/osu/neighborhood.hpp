// OSU 7.5's neighbourhood collective tests (c/mpi/collective/neighborhood/) as definitions for
// osu/messages.hpp: osu_neighbor_{allgather,allgatherv,alltoall,alltoallv,alltoallw}, measured
// as OSU's blocking collectives are (Avg Latency(us)), and their osu_ineighbor_* forms, measured
// as OSU's nonblocking collectives are (osu/nonblocking.hpp: Overall, Compute, Pure Comm.,
// Overlap, -t). Each size's calls run on a distributed graph communicator made as OSU's
// omb_neighborhood_create (osu_util_mpi.c) and MPI_Dist_graph_create_adjacent make it, from -N:
//
//   cart:D:R (OSU's default cart:1:1)  MPI_Dims_create's D-dimensional shape of the processes,
//       periodic (MPI_Cart_create, no reordering); each process's neighbours are the processes
//       at every displacement in [-R, R]^D but the zero one, in OSU's order (the last dimension's
//       displacement fastest), the same list as sources and as destinations. R must be at most
//       (smallest dimension - 1) / 2, or a neighbour would repeat: OSU stops there, parbench
//       refuses the test.
//   graph:FILE  the edges "SRC,DEST" of FILE: a process's destinations are the DESTs of its
//       edges as SRC, its sources the SRCs of its edges as DEST, in the file's order.
//
// Every call moves X / size(T) elements of -T's datatype T (MPI_CHAR by default) to and from each
// neighbour (the v-variants with those counts and displacements k of them, alltoallw in bytes
// with one T per neighbour); the buffers are OSU's: X bytes to send for allgather(v), n X
// otherwise, n X to receive, on n processes. -c checks each block received against the bytes
// its source sent this process (neighbor_check).
//
// The catalogue's entries are in plugins/mpi/suites/osu_neighbor.cpp; bench/osu_families_overhead
// measures neighbor_allgather through this definition.
#pragma once

#include "osu/collectives.hpp"
#include "osu/messages.hpp"
#include "osu/nonblocking.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace parbench::osu {

enum class neighbor_call : std::uint8_t { allgather, allgatherv, alltoall, alltoallv, alltoallw };

[[nodiscard]] constexpr bool gathers(neighbor_call call) noexcept {
    return call == neighbor_call::allgather || call == neighbor_call::allgatherv;
}

// A process's neighbours: whom it receives from and whom it sends to, in MPI's order.
struct adjacency {
    std::vector<int> sources;
    std::vector<int> destinations;
};

// MPI_Dims_create's shape of `processes` in `dimensions` (a local call).
[[nodiscard]] inline std::vector<int> grid_shape(int processes, int dimensions) {
    std::vector<int> dims(static_cast<std::size_t>(dimensions), 0);
    MPI_Dims_create(processes, dimensions, dims.data());
    return dims;
}

// omb_neighborhood_create's cartesian neighbours: the displacement vector counts through
// [-R, R]^D like an odometer, last dimension fastest; every rank `rank_at` gives for one but
// this process's own is both a source and a destination.
template <class RankAt>
[[nodiscard]] adjacency neighbors_by_displacement(std::size_t dimensions, int radius, int own,
                                                  RankAt rank_at) {
    std::vector<int> displacement(dimensions, -radius);
    adjacency a;
    for (bool done = false; !done;) {
        const int neighbor = rank_at(displacement);
        if (neighbor != own) {
            a.sources.push_back(neighbor);
            a.destinations.push_back(neighbor);
        }
        done = true;
        for (std::size_t k = dimensions; k-- > 0;) {
            if (displacement[k] < radius) {
                ++displacement[k];
                done = false;
                break;
            }
            displacement[k] = -radius;
        }
    }
    return a;
}

// The cartesian neighbours through MPI's periodic grid (MPI_Cart_create, MPI_Cart_rank).
[[nodiscard]] inline adjacency cartesian_neighbors(MPI_Comm comm, const neighborhood& t) {
    int processes = 1;
    int rank = 0;
    MPI_Comm_size(comm, &processes);
    MPI_Comm_rank(comm, &rank);
    std::vector<int> dims = grid_shape(processes, t.dimensions);
    const std::vector<int> periods(dims.size(), 1);
    MPI_Comm cart = MPI_COMM_NULL;
    MPI_Cart_create(comm, t.dimensions, dims.data(), periods.data(), 0, &cart);
    std::vector<int> coords(dims.size(), 0);
    MPI_Cart_coords(cart, rank, t.dimensions, coords.data());
    std::vector<int> at(dims.size(), 0);
    adjacency a = neighbors_by_displacement(
        dims.size(), t.radius, rank, [&](const std::vector<int>& displacement) {
            for (std::size_t k = 0; k < dims.size(); ++k) at[k] = coords[k] + displacement[k];
            int neighbor = MPI_PROC_NULL;
            MPI_Cart_rank(cart, at.data(), &neighbor);
            return neighbor;
        });
    MPI_Comm_free(&cart);
    return a;
}

[[nodiscard]] inline adjacency graph_neighbors_of(int rank, const neighborhood& t) {
    adjacency a;
    for (const auto& [src, dest] : t.edges) {
        if (src == rank) a.destinations.push_back(dest);
        if (dest == rank) a.sources.push_back(src);
    }
    return a;
}

[[nodiscard]] inline adjacency graph_neighbors(MPI_Comm comm, const neighborhood& t) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    return graph_neighbors_of(rank, t);
}

// cartesian_neighbors without a communicator (for -c's check, which runs on one process): the
// grid's ranks are row-major, the last coordinate fastest, as MPI_Cart_create numbers them
// without reordering (MPI 4.0, section 8.5.1); a coordinate out of the grid wraps (periodic).
[[nodiscard]] inline adjacency local_cartesian_neighbors(int rank, int processes,
                                                         const neighborhood& t) {
    const std::vector<int> dims = grid_shape(processes, t.dimensions);
    std::vector<int> coords(dims.size(), 0);
    for (std::size_t k = dims.size(), rest = static_cast<std::size_t>(rank); k-- > 0;) {
        coords[k] = static_cast<int>(rest % static_cast<std::size_t>(dims[k]));
        rest /= static_cast<std::size_t>(dims[k]);
    }
    return neighbors_by_displacement(
        dims.size(), t.radius, rank, [&](const std::vector<int>& displacement) {
            int neighbor = 0;
            for (std::size_t k = 0; k < dims.size(); ++k)
                neighbor = neighbor * dims[k] +
                           ((coords[k] + displacement[k]) % dims[k] + dims[k]) % dims[k];
            return neighbor;
        });
}

// -c (OSU 7.5's set_buffer_nhbr_validation and omb_validate_neighborhood_col,
// osu_util_mpi.c:1844-1944 and :1946-2082): each process's block for a neighbour holds the
// check's bytes of the sender (mpi/check.hpp byte_value) from message byte 0 for the allgathers
// (one block for every destination), from D B for the block to destination D otherwise (B: the
// bytes of a block, X / size(T) elements); the l-th block received must hold the l-th source's,
// from 0 or from this process's rank times B. The neighbours are the process's own under -N
// (local_cartesian_neighbors, graph_neighbors_of), in MPI's order.
struct neighbor_check : imb_mpi1::bytes_from_peer {
    neighbor_call which = neighbor_call::allgather;
    neighborhood topology;

    [[nodiscard]] adjacency neighbors(const mpi::kernel_context& c) const {
        return topology.graph ? graph_neighbors_of(c.rank, topology)
                              : local_cartesian_neighbors(c.rank, c.size, topology);
    }
    // The bytes one neighbour's block carries: X / size(T) whole elements.
    [[nodiscard]] std::size_t block(const mpi::kernel_context& c) const noexcept {
        return c.bytes / layout.size * layout.size;
    }
    void fill_send(const mpi::kernel_context& c, std::span<std::byte> slot) const {
        if (gathers(which)) return mpi::check::fill_bytes(layout, slot, c.rank);
        const std::size_t b = block(c);
        const std::vector<int> to = neighbors(c).destinations;
        for (std::size_t k = 0; k < to.size(); ++k)
            mpi::check::fill_bytes(layout, layout.part(slot, k * b, b), c.rank,
                                   static_cast<std::uint64_t>(to[k]) * b);
    }
    [[nodiscard]] mpi::check::findings verify(const mpi::kernel_context& c,
                                              std::uint64_t /*last*/,
                                              std::span<const std::byte> recv) const {
        const std::size_t b = block(c);
        const std::uint64_t first = gathers(which) ? 0 : static_cast<std::uint64_t>(c.rank) * b;
        const std::vector<int> from = neighbors(c).sources;
        mpi::check::findings found;
        for (std::size_t l = 0; l < from.size(); ++l)
            found += defects(recv, l * b, b, from[l], first);
        return found;
    }
};

// The distributed graph communicator of one size's calls, freed with its last user.
class graph_comm {
public:
    graph_comm(MPI_Comm comm, const adjacency& a) {
        const std::vector<int> in_weights(a.sources.size(), 1);
        const std::vector<int> out_weights(a.destinations.size(), 1);
        MPI_Dist_graph_create_adjacent(
            comm, static_cast<int>(a.sources.size()), a.sources.data(),
            a.sources.empty() ? MPI_WEIGHTS_EMPTY : in_weights.data(),
            static_cast<int>(a.destinations.size()), a.destinations.data(),
            a.destinations.empty() ? MPI_WEIGHTS_EMPTY : out_weights.data(), MPI_INFO_NULL, 0,
            &comm_);
    }
    graph_comm(const graph_comm&) = delete;
    graph_comm& operator=(const graph_comm&) = delete;
    ~graph_comm() {
        if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
    }
    [[nodiscard]] MPI_Comm get() const noexcept { return comm_; }

private:
    MPI_Comm comm_ = MPI_COMM_NULL;
};

// One neighbourhood collective of X bytes on the -N topology of the context's processes, made
// once per size: blocking (call) or nonblocking (begin), as OSU calls it.
struct neighbor_start {
    neighbor_call which = neighbor_call::allgather;
    std::shared_ptr<const graph_comm> graph;
    MPI_Datatype type = MPI_CHAR;  // -T's
    int count = 0;            // X / size(type) elements
    // count per process (OSU fills n entries; the call reads its degree's)
    std::vector<int> counts;
    std::vector<int> displs;  // k count
    std::vector<MPI_Aint> byte_displs;  // alltoallw: k count size(type) bytes
    std::vector<MPI_Datatype> types;    // alltoallw: the type per process
    // -D: one element of the derived type of the X / size(T) elements per neighbour (OSU 7.5's
    // NHBR option strings have D:, osu_neighbor_alltoallw.c:171-175), kept for the kernel's life
    std::shared_ptr<const derived_message_type> derived;

    neighbor_start(neighbor_call call, const mpi::kernel_context& c, const options& o)
        : which(call),
          type(mpi_datatype(o.table_datatype, false)),
          count(static_cast<int>(c.bytes / element_bytes(o.table_datatype))) {
        const adjacency a = o.topology.graph ? graph_neighbors(c.comm, o.topology)
                                             : cartesian_neighbors(c.comm, o.topology);
        graph = std::make_shared<const graph_comm>(c.comm, a);
        const auto n = static_cast<std::size_t>(c.size);
        const auto element = static_cast<MPI_Aint>(element_bytes(o.table_datatype));
        // alltoallw's blocks stay X bytes apart under -D (OSU's k size(T) would overlap them)
        const MPI_Aint block_bytes = static_cast<MPI_Aint>(count) * element;
        if (o.ddt.given()) {
            derived = std::make_shared<const derived_message_type>(o.ddt, type, count);
            type = derived->get();
            count = 1;
        }
        counts.assign(n, count);
        types.assign(n, type);
        for (std::size_t k = 0; k < n; ++k) {
            displs.push_back(static_cast<int>(k) * count);
            byte_displs.push_back(static_cast<MPI_Aint>(k) * block_bytes);
        }
    }

    void call(std::byte* send, std::byte* recv) const {
        const MPI_Comm g = graph->get();
        switch (which) {
            case neighbor_call::allgather:
                MPI_Neighbor_allgather(send, count, type, recv, count, type, g);
                break;
            case neighbor_call::allgatherv:
                MPI_Neighbor_allgatherv(send, count, type, recv, counts.data(), displs.data(),
                                        type, g);
                break;
            case neighbor_call::alltoall:
                MPI_Neighbor_alltoall(send, count, type, recv, count, type, g);
                break;
            case neighbor_call::alltoallv:
                MPI_Neighbor_alltoallv(send, counts.data(), displs.data(), type, recv,
                                       counts.data(), displs.data(), type, g);
                break;
            case neighbor_call::alltoallw:
                MPI_Neighbor_alltoallw(send, counts.data(), byte_displs.data(), types.data(), recv,
                                       counts.data(), byte_displs.data(), types.data(), g);
                break;
        }
    }

    [[nodiscard]] MPI_Request begin(const mpi::kernel_context& /*c*/, std::byte* send,
                                    std::byte* recv) const {
        const MPI_Comm g = graph->get();
        MPI_Request r = MPI_REQUEST_NULL;
        switch (which) {
            case neighbor_call::allgather:
                MPI_Ineighbor_allgather(send, count, type, recv, count, type, g, &r);
                break;
            case neighbor_call::allgatherv:
                MPI_Ineighbor_allgatherv(send, count, type, recv, counts.data(), displs.data(),
                                         type, g, &r);
                break;
            case neighbor_call::alltoall:
                MPI_Ineighbor_alltoall(send, count, type, recv, count, type, g, &r);
                break;
            case neighbor_call::alltoallv:
                MPI_Ineighbor_alltoallv(send, counts.data(), displs.data(), type, recv,
                                        counts.data(), displs.data(), type, g, &r);
                break;
            case neighbor_call::alltoallw:
                MPI_Ineighbor_alltoallw(send, counts.data(), byte_displs.data(), types.data(), recv,
                                        counts.data(), byte_displs.data(), types.data(), g, &r);
                break;
        }
        return r;
    }

    // The start of mpi/overlap.hpp's kernels: OSU's buffers never rotate.
    template <class View>
    [[nodiscard]] MPI_Request operator()(const mpi::kernel_context& c, std::uint64_t /*i*/,
                                         const View& b) const {
        return begin(c, b.send(0), b.recv(0));
    }
};

// Why -N's topology cannot be made on `processes` processes (empty: it can).
[[nodiscard]] inline std::string topology_refusal(const options& o, int processes) {
    const neighborhood& t = o.topology;
    if (!t.graph) {
        const std::vector<int> dims = grid_shape(processes, t.dimensions);
        const int smallest = *std::min_element(dims.begin(), dims.end());
        if (t.radius <= (smallest - 1) / 2) return {};
        std::string shape;
        for (const int d : dims) shape += (shape.empty() ? "" : "x") + std::to_string(d);
        return "the neighbourhood tests (neighbor_*, ineighbor_*): -N cart:" +
               std::to_string(t.dimensions) + ":" + std::to_string(t.radius) + " on " +
               std::to_string(processes) + " processes (grid " + shape +
               "): the radius must be at most (" + std::to_string(smallest) +
               " - 1) / 2 = " + std::to_string((smallest - 1) / 2) +
               ", as OSU 7.5 requires; use more processes or a smaller radius";
    }
    std::vector<int> in(static_cast<std::size_t>(processes), 0);
    std::vector<int> out(static_cast<std::size_t>(processes), 0);
    for (const auto& [src, dest] : t.edges) {
        if (src >= processes || dest >= processes)
            return "the neighbourhood tests (neighbor_*, ineighbor_*): -N graph:" + t.file +
                   ": edge " + std::to_string(src) + "," + std::to_string(dest) +
                   " names a process the run of " + std::to_string(processes) + " does not have";
        // OSU's buffers hold n blocks: a process with more neighbours would overrun them
        if (++out[static_cast<std::size_t>(src)] > processes ||
            ++in[static_cast<std::size_t>(dest)] > processes)
            return "the neighbourhood tests (neighbor_*, ineighbor_*): -N graph:" + t.file +
                   ": process " +
                   std::to_string(out[static_cast<std::size_t>(src)] > processes ? src : dest) +
                   " has more than " + std::to_string(processes) +
                   " edges one way, more blocks than OSU's buffers hold";
    }
    return {};
}

// osu_neighbor_*: X bytes of -T's elements to and from every neighbour, Avg Latency(us) as OSU's
// blocking collectives.
template <neighbor_call Call, const char* Banner>
struct neighbor_def : mpi::definition_defaults {
    static constexpr bool all_processes = true;
    // -d: as the collectives (osu_neighbor_allgather.c:87-98: allocate_memory_coll with
    // options.accel), the nonblocking forms too
    static constexpr device_placement device_buffers = device_placement::every;
    // -T (OSU 7.5's OMBOP__COLLECTIVE__NHBR_GATHER and __NBC_NHBR_GATHER have T:,
    // osu_util_options.h:85-89, :127-132): X / size(T) elements of T per neighbour, the v- and
    // w-displacements in elements and bytes of them (osu_neighbor_alltoallw.c:161-185). Without
    // -T the records name no datatype, as before -T reached them.
    static constexpr bool takes_datatype = true;
    static constexpr bool names_default_datatype = false;
    static constexpr bool takes_ddt = true;  // -D (neighbor_start)
    static constexpr const char* osu_letters = letters::nhbr;  // -N
    static constexpr policy::iterations::fixed_count counts = collective_counts;
    static constexpr std::uint64_t max_bytes = default_collective_max_bytes;
    // OSU 7.5 times each call with an MPI_Barrier after it (osu_neighbor_allgather.c 164-169).
    static constexpr int barriers_after_call = 1;
    static constexpr block_text text{
        .banner = Banner,
        .figures = {{{.heading = "Avg Latency(us)", .source = "t_avg_us"}}},
        .latency = true};

    static constexpr pattern::collective descriptor(const options& /*o*/) { return {}; }
    // -c: the blocks of each neighbour (neighbor_check); -T's elements (-D takes no -c)
    using verify_check = neighbor_check;
    static verify_check make_check(const options& o) {
        return {imb_mpi1::bytes_from_peer{operands_of(o.table_datatype, 0)}, Call, o.topology};
    }
    static mpi::buffer_layout layout(std::size_t x, int np) {
        const std::size_t all = x * static_cast<std::size_t>(np);
        return {gathers(Call) ? x : all, all};
    }
    struct kernel {
        neighbor_start start;
        template <class Buffers>
        void operator()(const mpi::kernel_context& /*c*/, std::uint64_t /*i*/,
                        const Buffers& b) const {
            start.call(b.send(0), b.recv(0));
        }
    };
    static kernel make_kernel(const mpi::kernel_context& c, const options& o) {
        return {neighbor_start(Call, c, o)};
    }
    static std::string refusal_with(const options& o, int processes) {
        return topology_refusal(o, processes);
    }
};

// osu_ineighbor_*: the same call as MPI_Ineighbor_*, measured as OSU's nonblocking collectives.
template <neighbor_call Call, const char* Banner>
struct ineighbor_def : neighbor_def<Call, Banner> {
    static constexpr const char* osu_letters = letters::nbc_nhbr;  // -N and -t
    static constexpr block_text text{
        .banner = Banner,
        .figures = {{{.heading = "Overall(us)", .source = "t_avg_us", .name = "overall_us"}}},
        .nonblocking = true};

    [[nodiscard]] static mpi::measurement measure_size(const mpi::session& s, const options& o,
                                                       const mpi::record_labels& labels,
                                                       std::uint64_t x, const message_plan& plan) {
        return measure_nbc<neighbor_def<Call, Banner>>(
            s, o, labels, x, plan,
            [&o](const mpi::kernel_context& c) { return neighbor_start(Call, c, o); });
    }
};

}  // namespace parbench::osu
