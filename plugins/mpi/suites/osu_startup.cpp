// osu, OSU 7.5's start-up programs and congestion tests (the suite's catalogue in parts:
// osu/suite.hpp's startup_programs()):
//
//   init        MPI_Init_thread's wall-clock time per process, timed once by the plugin
//               (init_time.hpp); OSU's line "nprocs: N, min: X ms, max: Y ms, avg: Z ms"
//               (c/mpi/startup/osu_init.c)
//   hello       "This is a test with N processes" (c/mpi/startup/osu_hello.c)
//   bw_fan_in   OSU 7.5's roles by node (osu/options.hpp fan_nodes; omb_fan_init,
//               c/mpi/pt2pt/congestion/utils/osu_bw_fan_util.c): every process of a child
//               node posts -W MPI_Isend to its parent (the process of the parent node with its
//               own place on its node) and waits for them, then receives a one-MPI_CHAR reply;
//               each parent posts -W MPI_Irecv from its child on every other node, waits, then
//               replies to each (c/mpi/pt2pt/congestion/osu_bw_fan_in.c:215-329). MB/s =
//               ppn (nodes - 1) W X / t, t the children's mean time per iteration (:355-371)
//   bw_fan_out  the reverse: each parent posts -W MPI_Isend to its children, waits, then
//               receives each one's reply (osu_bw_fan_out.c:210-323). MB/s = ppn (nodes - 1) W
//               X / t, t the parents' mean time per iteration (:328-340)
// On one node (which OSU 7.5 refuses) every process is a node of its own: process 0 the parent
// of all the others, ppn 1.
//
// init and hello time nothing per size: they are sizeless entries whose run publishes one
// record. The fan tests are definitions for osu/messages.hpp whose measure_size reduces the
// figures of the processes OSU times (fan_in's children, fan_out's parents).
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <parbench/mpi/check.hpp>
#include <parbench/mpi/phases.hpp>
#include <parbench/plugin/catalogue_row.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "init_time.hpp"
#include "osu/messages.hpp"
#include "osu/point_to_point.hpp"
#include "osu/suite.hpp"

namespace parbench::osu::osu_startup_impl {
namespace {

// --- init and hello ----------------------------------------------------------------------------

constexpr const char* init_text[] = {"nprocs: ", ", min: ", " ms, max: ", " ms, avg: ", " ms"};
constexpr const char* init_sources[] = {"nprocs", "init_min_ms", "init_max_ms", "init_avg_ms"};
constexpr const char* hello_text[] = {"This is a test with ", " processes"};
constexpr const char* hello_sources[] = {"nprocs"};

constexpr block_text init_block{.banner = "OSU MPI Init Test",
                                .row_text = init_text,
                                .row_sources = init_sources};
constexpr block_text hello_block{.banner = "OSU MPI Hello World Test",
                                 .row_text = hello_text,
                                 .row_sources = hello_sources};

[[nodiscard]] result_record startup_record(const run_state& st, std::string_view name) {
    result_record r;
    r.suite = "osu";
    r.benchmark = std::string(name);
    r.klass = benchmark_class::other;
    r.block.title = std::string(name);
    r.block.processes = st.world_size;
    r.has_bytes = false;
    r.iterations = 1;
    r.metrics["nprocs"] = st.world_size;
    return r;
}

// OSU's figures are whole milliseconds: each process's time truncated (osu_init.c lines 40-41,
// a long), the minimum, maximum and the sum divided by the processes in integers (lines 50-53).
// The record's times are the same figures unrounded, in microseconds.
void run_init(const run_state& st, std::string_view name) {
    st.host->progress(name, 0, st.world_size);
    const std::optional<std::vector<double>> all = mpi_plugin::all_mpi_init_ms();
    if (!all)
        throw std::runtime_error(std::string(name) +
                                 ": MPI was initialised before the mpi plugin, which therefore "
                                 "did not time MPI_Init_thread");
    // Truncation keeps the order, so the whole minimum and maximum are the exact ones truncated.
    const auto [low, high] = std::minmax_element(all->begin(), all->end());
    long whole_sum = 0;
    double sum = 0.0;
    for (const double ms : *all) {
        whole_sum += static_cast<long>(ms);
        sum += ms;
    }
    if (st.world_rank != 0) return;
    result_record r = startup_record(st, name);
    r.t_min_us = *low * 1e3;
    r.t_max_us = *high * 1e3;
    r.t_avg_us = sum / st.world_size * 1e3;
    r.metrics["init_min_ms"] = static_cast<double>(static_cast<long>(*low));
    r.metrics["init_max_ms"] = static_cast<double>(static_cast<long>(*high));
    r.metrics["init_avg_ms"] = static_cast<double>(whole_sum / st.world_size);
    publish(st, r);
}

void run_hello(const run_state& st, std::string_view name) {
    st.host->progress(name, 0, st.world_size);
    if (st.world_rank != 0) return;
    result_record r = startup_record(st, name);
    publish(st, r);
}

// --- bw_fan_in and bw_fan_out ------------------------------------------------------------------

inline constexpr int reply_chars = 1;  // the reply: one MPI_CHAR (osu_bw_fan_in.c line 243)

// Who does what in a fan test, by rank: OSU 7.5 numbers the nodes and each process's place on
// its node (omb_fan_init, osu_bw_fan_util.c:70-118: its qsort by processor name keeps rank order
// on a node), needs the same number of processes on every node (:85-107), and pairs the parent
// node's p-th process with the p-th process of every child node (:143-159): the child's queue
// holds its parent, the parent's its children in node order.
struct fan_roles {
    int nodes = 1;  // total_nodes
    int ppn = 1;    // processes per node
    std::vector<bool> parent;             // by rank: on the parent node
    std::vector<std::vector<int>> peers;  // by rank: the queue (ranks_queue)

    // `node_of_rank`: osu/options.hpp fan_nodes(); taken as one node per process where it does
    // not cover the `size` processes. Empty peers where the nodes' processes differ in number.
    static fan_roles of(std::vector<int> node_of_rank, int size) {
        if (node_of_rank.size() != static_cast<std::size_t>(size)) {
            node_of_rank.resize(static_cast<std::size_t>(size));
            for (int r = 0; r < size; ++r) node_of_rank[static_cast<std::size_t>(r)] = r;
        }
        fan_roles out;
        out.nodes = 1 + *std::max_element(node_of_rank.begin(), node_of_rank.end());
        std::vector<std::vector<int>> members(static_cast<std::size_t>(out.nodes));
        for (int r = 0; r < size; ++r)
            members[static_cast<std::size_t>(node_of_rank[static_cast<std::size_t>(r)])]
                .push_back(r);
        out.ppn = static_cast<int>(members.front().size());
        out.parent.assign(static_cast<std::size_t>(size), false);
        out.peers.resize(static_cast<std::size_t>(size));
        if (std::any_of(members.begin(), members.end(),
                        [&](const std::vector<int>& m) { return m.size() != members[0].size(); }))
            return out;
        for (int p = 0; p < out.ppn; ++p) {
            const int parent = members[0][static_cast<std::size_t>(p)];
            out.parent[static_cast<std::size_t>(parent)] = true;
            for (std::size_t k = 1; k < members.size(); ++k) {
                const int child = members[k][static_cast<std::size_t>(p)];
                out.peers[static_cast<std::size_t>(parent)].push_back(child);
                out.peers[static_cast<std::size_t>(child)].push_back(parent);
            }
        }
        return out;
    }
    // Whether every node has ppn processes (peers are empty otherwise).
    [[nodiscard]] bool same_per_node() const noexcept {
        return std::any_of(peers.begin(), peers.end(), [](const auto& q) { return !q.empty(); });
    }
};

// One window per iteration between each parent and its children, in OSU's order: a parent
// posts, for each of the W slots, one request per child in node order; a child W to its
// parent. With -b multiple message w of the window is in slot w of the buffers, on every
// process (osu_bw_fan_in.c:229-240, 289-310: s_buf[j], r_buf[j]; a fan_in parent receives
// every child's slot-w message into its slot w).
template <bool FanIn>
struct fan_kernel {
    int window = 64;
    bool multiple = false;      // -b multiple (or a managed SRC or DST)
    message_elements elements;  // -T's (osu_bw_fan_in.c:145-163: size / type size of them)
    bool parent = true;
    std::vector<int> peers;     // fan_roles::peers of this process
    std::vector<MPI_Request> requests;
    std::array<char, reply_chars> reply{};

    template <class Buffers>
    void operator()(const mpi::kernel_context& c, std::uint64_t i, const Buffers& b) {
        const int n = elements.count(c.bytes);
        const MPI_Datatype type = elements.type;
        const auto slot = [&](int w) {
            return multiple ? static_cast<std::size_t>(w) * c.bytes : std::size_t{0};
        };
        // the side that sends: fan_in's children, fan_out's parents
        const bool sends = parent != FanIn;
        int posted = 0;
        for (int w = 0; w < window; ++w)
            for (const int peer : peers) {
                MPI_Request* r = &requests[static_cast<std::size_t>(posted++)];
                if (sends)
                    MPI_Isend(b.send(i) + slot(w), n, type, peer, tag_message, c.comm, r);
                else
                    MPI_Irecv(b.recv(i) + slot(w), n, type, peer, tag_message, c.comm, r);
            }
        MPI_Waitall(posted, requests.data(), MPI_STATUSES_IGNORE);
        for (const int peer : peers) {
            if (sends)
                MPI_Recv(reply.data(), reply_chars, MPI_CHAR, peer, tag_reply, c.comm,
                         MPI_STATUS_IGNORE);
            else
                MPI_Send(reply.data(), reply_chars, MPI_CHAR, peer, tag_reply, c.comm);
        }
    }
};

// -c: every process sends bytes that name it; a receiver with one peer (fan_out's children,
// fan_in's parents on two nodes) expects its bytes. A fan_in parent of several children
// receives all their messages into one buffer (OSU's single buffer), so whose bytes it holds
// last is not known and it checks nothing.
struct fan_check {
    int source = -1;  // the peer whose bytes this process receives; -1: none, or not known
    std::size_t typed_by = 1;  // bytes of one element of -T's datatype (listed as such)
    void fill_send(const mpi::kernel_context& c, std::span<std::byte> slot) const noexcept {
        mpi::check::fill_bytes(slot, c.rank);
    }
    [[nodiscard]] mpi::check::findings verify(const mpi::kernel_context& /*c*/,
                                              std::uint64_t /*last*/,
                                              std::span<const std::byte> recv) const {
        if (source < 0) return {};
        return mpi::check::find_byte_defects(recv, source, 0, 0, typed_by);
    }
};

template <bool FanIn>
struct fan_def : point_to_point_def, takes_message_datatype {
    static constexpr bool windowed = true;  // -W requests in flight (osu/suite.hpp)
    static constexpr const char* osu_letters = letters::cong_bw;
    // the driver's --check (OSU's fan tests take no -c): a receiver of one peer's messages checks
    // them; the kernel sets its peer and datatype (fan_check)
    using verify_check = fan_check;
    // -d: the senders' buffers where SRC says, the receivers' where DST says (osu/options.hpp
    // device_placement: OSU 7.5 places them by node, the parent node's and the others')
    static constexpr device_placement device_buffers =
        FanIn ? device_placement::fan_in : device_placement::fan_out;
    static constexpr bool all_processes = true;
    static constexpr policy::iterations::fixed_count counts = bandwidth_counts;  // CONG_BW
    // OSU 7.5 prints osu_bw's banner ("OSU MPI%s Bandwidth Test", line 1 of both files; -CUDA
    // under -d as print_preamble names it, :138).
    static constexpr block_text text{.banner = "OSU MPI Bandwidth Test",
                                     .figures = {{bandwidth_figure}}};
    // -b (OMBOP__PT2PT__CONG_BW, osu_util_options.h:74-75): W slots of X bytes each side
    static constexpr bool takes_buffers = true;
    // -p, -R and -V under -d (OMBOP__ACCEL__PT2PT__CONG_BW, :75), which OSU never reads here
    static constexpr bool takes_pairs_options_with_accelerator = true;
    static mpi::buffer_layout layout(std::size_t x, int np, const options& o) {
        if (!o.multiple_buffers) return layout(x, np);
        const std::size_t slots = x * static_cast<std::size_t>(o.window_size);
        return {slots, slots};
    }
    using point_to_point_def::layout;
    static constexpr pattern::exchange descriptor(const options& o) {
        return {.klass = benchmark_class::multiple_transfer,
                .who = pattern::participants::origin_targets,
                .nmsg = static_cast<int>(o.window_size),
                .pairs = pattern::origin_to_all,
                .throughput = pattern::throughput_rule::none};  // measure_size's MB/s
    }
    // OSU 7.5 exits where the nodes' processes differ in number: "Please run this benchmark
    // with same ppn for all nodes" (osu_bw_fan_util.c:90-93, 104-107).
    static std::string refusal(int world_size) {
        const std::vector<int> nodes = fan_nodes();
        if (fan_roles::of(nodes, world_size).same_per_node() || world_size < 2) return {};
        std::vector<int> counts;
        for (const int n : nodes) {
            if (static_cast<std::size_t>(n) >= counts.size())
                counts.resize(static_cast<std::size_t>(n) + 1, 0);
            ++counts[static_cast<std::size_t>(n)];
        }
        std::string per_node;
        for (const int k : counts) per_node += (per_node.empty() ? "" : ", ") + std::to_string(k);
        return std::string(FanIn ? "bw_fan_in" : "bw_fan_out") +
               " needs the same number of processes on every node, as OSU 7.5's (the run's " +
               std::to_string(counts.size()) + " nodes have " + per_node + ")";
    }
    static fan_kernel<FanIn> make_kernel(const mpi::kernel_context& c, const options& o,
                                         const fan_roles& roles) {
        fan_kernel<FanIn> k;
        k.window = static_cast<int>(o.window_size);
        k.multiple = o.multiple_buffers;
        k.elements = message_elements::of(o, c.bytes);
        k.parent = roles.parent[static_cast<std::size_t>(c.rank)];
        k.peers = roles.peers[static_cast<std::size_t>(c.rank)];
        k.requests.resize(k.peers.size() * static_cast<std::size_t>(o.window_size),
                          MPI_REQUEST_NULL);
        return k;
    }

    // The runner's phases with the reduction over the processes OSU times: fan_in's children
    // (their mean time, osu_bw_fan_in.c lines 355-361: the sum over every process, the
    // parents' zero, divided by ppn (nodes - 1)), fan_out's parents (osu_bw_fan_out.c lines
    // 328-330: the sum over the parents' communicator divided by ppn); -c's defects over every
    // process.
    [[nodiscard]] static mpi::measurement measure_size(const mpi::session& s, const options& o,
                                                       const mpi::record_labels& labels,
                                                       std::uint64_t x, const message_plan& plan) {
        const pattern::exchange p = descriptor(o);
        const auto bytes = static_cast<std::size_t>(x);
        const int np = s.layout().processes;
        const mpi::kernel_context context = s.context(bytes, pattern::pairing_of(p));
        const fan_roles roles = fan_roles::of(fan_nodes(), context.size);
        mpi::measurement out;
        {
            auto ready = mpi::prepare(
                s, mpi::message_resource(layout(bytes, np, o), {}, s.send_pool(), s.recv_pool()),
                plan.mem_limit_bytes);
            if (ready.state() == mpi::preparation::over_memory_limit)
                out.skipped_need_bytes = ready.need_bytes();
            if (ready.state() == mpi::preparation::allocation_failed) out.allocation_failed = true;
            if (ready.ready()) {
                auto kernel = make_kernel(context, o, roles);
                mpi::no_completion completion;
                // window by window, as bw (osu/point_to_point.hpp): the clock read before each
                // window and after its replies, the windows' times summed, nothing between two
                // windows (osu_bw_fan_in.c:217-256, osu_bw_fan_out.c:212-266); the processes OSU
                // leaves untimed (fan_in's parents, fan_out's children) are timed too and left
                // out of the figure below. -batched: parbench's batched loop.
                collective_plan timing = per_call_plan(o, plan, 0);
                // a receiver of one peer's messages checks them (fan_check)
                fan_check check{.typed_by = element_bytes(o.table_datatype)};
                if (kernel.peers.size() == 1 && kernel.parent == FanIn)
                    check.source = kernel.peers.front();
                const mpi::rank_timing mine = mpi::time_iterations(
                    s, p, ready, context, kernel, completion, timing, x, check);
                const mpi::gathered figures = mpi::gather(s, mine, plan.batching.max_batches);
                if (figures.root) {
                    std::vector<const mpi::rank_timing*> timed;
                    std::uint64_t defects = 0;
                    for (std::size_t r = 0; r < figures.ranks.size(); ++r) {
                        defects += figures.ranks[r].defects;
                        if (roles.parent[r] != FanIn) timed.push_back(&figures.ranks[r]);
                    }
                    result_record rec =
                        mpi::reduce_ranks(p, labels, s.layout(), x, plan.check, timed, -1);
                    if (plan.check) rec.defects = defects;
                    const double moved = static_cast<double>(roles.ppn) *
                                         static_cast<double>(roles.nodes - 1) *
                                         static_cast<double>(o.window_size) *
                                         static_cast<double>(payload_bytes(o, x));
                    message_rates_of(rec).bandwidth_mb_s =
                        rec.t_avg_us > 0.0 ? moved / rec.t_avg_us : 0.0;
                    // -z: MB/s of the single windows of one process, fan_out's process 0
                    // (osu_bw_fan_out.c:277-281, 345-347), fan_in's first process of the second
                    // node, the first child of process 0, whose series process 0 receives
                    // (osu_bw_fan_in.c:267-271, 333-343: node_id 2, local_rank 0)
                    const std::vector<int>& children = roles.peers.front();
                    const std::size_t osu_timed =
                        !FanIn             ? 0
                        : children.empty() ? figures.ranks.size()
                                           : static_cast<std::size_t>(children.front());
                    if (!o.percentiles.empty() && osu_timed < figures.ranks.size())
                        add_tail_figures(
                            std::span(&rec, 1),
                            tail_bandwidths_mb_s(figures.ranks[osu_timed].batch_s, moved), o,
                            tail_figure::bandwidth);
                    out.records.push_back(std::move(rec));
                }
            }
        }  // the buffers go back to the pool before the idle processes are released
        s.world().quiet_barrier();
        return out;
    }
};

constexpr benchmark catalogue[] = {
    {.info = plugin::catalogue_row("init", "MPI_Init_thread's time per process: min, max, avg",
                                   benchmark_class::other, 0),
     .text = init_block,
     .run = &run_init,
     .all_processes = true,
     .sized = false,
     .min_processes = 1,
     .osu_letters = letters::init},
    {.info = plugin::catalogue_row("hello", "\"This is a test with N processes\" after MPI init",
                                   benchmark_class::other, 0),
     .text = hello_block,
     .run = &run_hello,
     .all_processes = true,
     .sized = false,
     .min_processes = 1,
     .ignores_options = true},
    message_entry<fan_def<true>>(
        "bw_fan_in",
        "-W MPI_Isend from each child node's process to its parent node's, then its reply: MB/s",
        0),
    message_entry<fan_def<false>>(
        "bw_fan_out",
        "-W MPI_Isend from each parent node's process to its children, then their replies: MB/s",
        0),
};

}  // namespace
}  // namespace parbench::osu::osu_startup_impl

namespace parbench::osu {
std::span<const benchmark> startup_programs() { return osu_startup_impl::catalogue; }
}  // namespace parbench::osu
