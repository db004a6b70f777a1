// How the processes of a run share the node they run on: how many there are, and how many CPUs
// their affinity masks cover together. Used for per-node memory caps and to warn when a node
// runs more processes than it has CPUs (MPI libraries busy-poll, so such runs time the
// scheduler, not the network). And which node each process is on: a node is what MPI says
// shares memory (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED), never a host name (hydra's
// `-launcher fork -hosts n1,n2` gives two MPI nodes on one host, as the tests use); every plugin
// numbers nodes through index_of_node, so rows and the run's placement record agree.
#pragma once

#include <mpi.h>
#include <sched.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <utility>
#include <vector>

namespace parbench::mpi {

struct node_share {
    int processes = 1;  // processes of the communicator on this node
    int cpus = 0;       // CPUs in the union of their affinity masks; 0 if unknown
    [[nodiscard]] bool oversubscribed() const noexcept { return cpus > 0 && processes > cpus; }
};

// Collective over `comm`.
[[nodiscard]] inline node_share share_of_node(MPI_Comm comm) {
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    node_share share;
    MPI_Comm_size(node, &share.processes);

    constexpr std::size_t bits = 8 * sizeof(unsigned long);
    std::array<unsigned long, CPU_SETSIZE / bits> mask{};
    cpu_set_t set;
    CPU_ZERO(&set);
    const bool known = sched_getaffinity(0, sizeof set, &set) == 0;
    for (std::size_t cpu = 0; known && cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &set)) mask[cpu / bits] |= 1UL << (cpu % bits);
    int all_known = known ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, mask.data(), static_cast<int>(mask.size()), MPI_UNSIGNED_LONG,
                  MPI_BOR, node);
    MPI_Allreduce(MPI_IN_PLACE, &all_known, 1, MPI_INT, MPI_MIN, node);
    MPI_Comm_free(&node);
    if (all_known != 0)
        for (const unsigned long word : mask) share.cpus += std::popcount(word);
    return share;
}

// The node that constrains a run most: the most processes per CPU (ties: the lowest rank's).
// Collective over `comm`; every process gets the same answer, so decisions taken from it (a
// memory cap, a warning) agree everywhere.
// `mine`: this process's share_of_node(comm), where the caller has it already.
[[nodiscard]] inline node_share busiest_node(MPI_Comm comm, const node_share& mine) {
    struct {
        double load;
        int rank;
    } local{static_cast<double>(mine.processes) / std::max(1, mine.cpus), 0}, busiest{};
    MPI_Comm_rank(comm, &local.rank);
    MPI_Allreduce(&local, &busiest, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
    int figures[2] = {mine.processes, mine.cpus};
    MPI_Bcast(figures, 2, MPI_INT, busiest.rank, comm);
    return {figures[0], figures[1]};
}

[[nodiscard]] inline node_share busiest_node(MPI_Comm comm) {
    return busiest_node(comm, share_of_node(comm));
}

// The index of this process's node in `comm` (0..nodes-1, in the order of each node's lowest
// rank) and how many processes share it. Collective over `comm`.
struct node_index {
    int node = 0;
    int nodes = 1;
    int processes_on_node = 1;
};

[[nodiscard]] inline node_index index_of_node(MPI_Comm comm) {
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    node_index out;
    MPI_Comm_size(node, &out.processes_on_node);
    // The node's leader is its lowest rank (the key above keeps rank order within the node).
    int leader = rank;
    MPI_Bcast(&leader, 1, MPI_INT, 0, node);
    MPI_Comm_free(&node);
    std::vector<int> leaders(static_cast<std::size_t>(size));
    MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, comm);
    std::sort(leaders.begin(), leaders.end());
    leaders.erase(std::unique(leaders.begin(), leaders.end()), leaders.end());
    out.nodes = static_cast<int>(leaders.size());
    out.node = static_cast<int>(std::lower_bound(leaders.begin(), leaders.end(), leader) -
                                leaders.begin());
    return out;
}

// The node of every rank of `comm` (index_of_node's numbering), on every process. Collective.
[[nodiscard]] inline std::vector<int> nodes_of_ranks(MPI_Comm comm) {
    const node_index mine = index_of_node(comm);
    int size = 1;
    MPI_Comm_size(comm, &size);
    std::vector<int> nodes(static_cast<std::size_t>(size));
    MPI_Allgather(&mine.node, 1, MPI_INT, nodes.data(), 1, MPI_INT, comm);
    return nodes;
}

// The node of every world rank, for the rows of this process's runs, and how this process's node
// is shared (share_of_node): the MPI plugin sets them once per run from the placement it gathers
// at start, parbench::mpi::main from nodes_of_ranks and share_of_node (so no measurement pays a
// collective for them). Every session reads the nodes to name those of its groups
// (group_layout::group_nodes), and the share to choose how its agreements wait
// (session::wait_agreement). Empty and unknown until set (a program that never sets them): rows
// then name no nodes, and agreements wait as blocking calls do.
class world_nodes {
public:
    static void set(std::vector<int> node_of_rank, node_share my_node = {}) {
        storage() = std::move(node_of_rank);
        my_share() = my_node;
    }
    [[nodiscard]] static const std::vector<int>& get() noexcept { return storage(); }
    [[nodiscard]] static node_share my_node() noexcept { return my_share(); }

private:
    static std::vector<int>& storage() noexcept {
        static std::vector<int> nodes;
        return nodes;
    }
    static node_share& my_share() noexcept {
        static node_share share;
        return share;
    }
};

}  // namespace parbench::mpi
