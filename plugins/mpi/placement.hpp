// Where the processes of a run are: each one's node, host name, the CPUs it may run on and their
// NUMA nodes, and per run the nodes and processes per node. A node is what MPI says shares memory
// (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED), never a host name: on a cluster the two agree, and
// where they do not (hydra's `-launcher fork -hosts n1,n2` gives two MPI nodes on one host, as
// the tests use) MPI's view is the one that decides whether a message crosses a node. Every
// plugin counts processes per node through this (the BLAS plugin through the communication
// service's processes_on_node).
#pragma once

#include <parbench/mpi/node.hpp>

#include <hwloc.h>
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

namespace parbench::mpi_plugin {

struct process_placement {
    int node = 0;      // 0..nodes-1, in the order of each node's lowest world rank
    std::string host;  // MPI_Get_processor_name
    std::string cpus;  // the CPUs of its binding, as a list: "0-3,8"; "" if unknown
    std::string numa;  // the NUMA nodes those CPUs belong to: "0"; "" if unknown
};

struct run_placement {
    std::vector<process_placement> processes;  // by world rank
    int nodes = 1;
    std::vector<int> processes_per_node;  // by node index

    [[nodiscard]] int node_of(int world_rank) const {
        return processes.at(static_cast<std::size_t>(world_rank)).node;
    }
    // How many nodes the world ranks `ranks` span: 1 means every message between them stays in
    // a node.
    [[nodiscard]] int nodes_spanned(std::span<const int> ranks) const {
        std::vector<int> seen;
        for (const int r : ranks) seen.push_back(node_of(r));
        std::sort(seen.begin(), seen.end());
        return static_cast<int>(std::unique(seen.begin(), seen.end()) - seen.begin());
    }
};

// This process's binding as hwloc reads it: its CPU list and their NUMA nodes.
struct binding {
    std::string cpus;
    std::string numa;
};

[[nodiscard]] inline binding read_binding() {
    binding out;
    hwloc_topology_t topology = nullptr;
    if (hwloc_topology_init(&topology) != 0) return out;
    if (hwloc_topology_load(topology) == 0) {
        hwloc_bitmap_t cpus = hwloc_bitmap_alloc();
        hwloc_bitmap_t numa = hwloc_bitmap_alloc();
        if (hwloc_get_cpubind(topology, cpus, HWLOC_CPUBIND_PROCESS) == 0) {
            char* text = nullptr;
            if (hwloc_bitmap_list_asprintf(&text, cpus) >= 0) out.cpus = text;
            std::free(text);
            hwloc_cpuset_to_nodeset(topology, cpus, numa);
            text = nullptr;
            if (hwloc_bitmap_list_asprintf(&text, numa) >= 0) out.numa = text;
            std::free(text);
        }
        hwloc_bitmap_free(numa);
        hwloc_bitmap_free(cpus);
    }
    hwloc_topology_destroy(topology);
    return out;
}

// Every process's placement, on every process. Collective over `comm` (the world, for ranks
// that rows name).
[[nodiscard]] inline run_placement gather_placement(MPI_Comm comm) {
    const mpi::node_index where = mpi::index_of_node(comm);
    const binding bound = read_binding();
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int length = 0;
    MPI_Get_processor_name(name, &length);

    // Fixed-size records: node index, then three NUL-terminated texts, each cut to its field.
    constexpr std::size_t text_bytes = 128;
    struct record {
        int node;
        char host[text_bytes];
        char cpus[text_bytes];
        char numa[text_bytes];
    };
    record mine{};
    mine.node = where.node;
    const auto put = [](char* field, const std::string& text) { text.copy(field, text_bytes - 1); };
    put(mine.host, std::string(name, static_cast<std::size_t>(std::max(length, 0))));
    put(mine.cpus, bound.cpus);
    put(mine.numa, bound.numa);
    int size = 1;
    MPI_Comm_size(comm, &size);
    std::vector<record> all(static_cast<std::size_t>(size));
    MPI_Allgather(&mine, sizeof(record), MPI_BYTE, all.data(), sizeof(record), MPI_BYTE, comm);

    run_placement out;
    out.nodes = where.nodes;
    out.processes_per_node.assign(static_cast<std::size_t>(where.nodes), 0);
    for (const record& r : all) {
        out.processes.push_back({r.node, r.host, r.cpus, r.numa});
        ++out.processes_per_node.at(static_cast<std::size_t>(r.node));
    }
    return out;
}

// {"nodes", "processes_per_node": [...], "processes": [{"rank", "node", "host", "cpus",
// "numa"}...]}: the JSON context's "placement".
[[nodiscard]] inline nlohmann::json to_json(const run_placement& p) {
    nlohmann::json processes = nlohmann::json::array();
    for (std::size_t r = 0; r < p.processes.size(); ++r) {
        const process_placement& q = p.processes[r];
        processes.push_back(
            {{"rank", r}, {"node", q.node}, {"host", q.host}, {"cpus", q.cpus}, {"numa", q.numa}});
    }
    return {{"nodes", p.nodes},
            {"processes_per_node", p.processes_per_node},
            {"processes", std::move(processes)}};
}

}  // namespace parbench::mpi_plugin
