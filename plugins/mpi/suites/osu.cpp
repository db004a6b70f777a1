// osu: the OSU micro-benchmarks (MVAPICH's osu_* executables, names without "osu_"). The
// one-sided tests so far; the point-to-point and collective tests join this catalogue.
#include "suites/suite.hpp"

#include "osu/one_sided.hpp"
#include "osu/suite.hpp"
#include "testing/fault_kernels.hpp"

#include <algorithm>
#include <array>

namespace parbench::osu {
namespace {

// The -s sets OSU 7 offers: every passive- and active-target method for the latency and
// unidirectional bandwidth tests, only active target for the bidirectional one.
constexpr std::array<sync, 2> active_target = {sync::pscw, sync::fence};

template <rma_op Op, measures M, sync Default = sync::flush, bool Bidirectional = false>
struct one_sided_def {
    static constexpr rma_op op = Op;
    static constexpr measures kind = M;
    static constexpr bool bidirectional = Bidirectional;
    static constexpr sync default_sync = Default;
    static constexpr std::span<const sync> syncs =
        Bidirectional ? std::span<const sync>(active_target) : std::span<const sync>(all_syncs);
    static constexpr bool accepts(sync s) {
        return std::find(syncs.begin(), syncs.end(), s) != syncs.end();
    }
};

struct put_latency : one_sided_def<rma_op::put, measures::latency> {
    static constexpr const char* banner = "OSU MPI_Put Latency Test";
    static constexpr const char* datatype = "MPI_CHAR";
};
struct get_latency : one_sided_def<rma_op::get, measures::latency> {
    static constexpr const char* banner = "OSU MPI_Get latency Test";
    static constexpr const char* datatype = "MPI_CHAR";
};
struct put_bw : one_sided_def<rma_op::put, measures::bandwidth> {
    static constexpr const char* banner = "OSU MPI_Put Bandwidth Test";
    static constexpr const char* datatype = "MPI_CHAR";
};
struct get_bw : one_sided_def<rma_op::get, measures::bandwidth> {
    static constexpr const char* banner = "OSU MPI_Get Bandwidth Test";
    static constexpr const char* datatype = "MPI_CHAR";
};
struct put_bibw : one_sided_def<rma_op::put, measures::bandwidth, sync::pscw, true> {
    static constexpr const char* banner = "OSU MPI_Put Bi-directional Bandwidth Test";
    static constexpr const char* datatype = "MPI_CHAR";
};
struct acc_latency : one_sided_def<rma_op::accumulate, measures::latency> {
    static constexpr const char* banner = "OSU MPI_Accumulate latency Test";
    static constexpr const char* datatype = "MPI_UNSIGNED_CHAR";
};
struct get_acc_latency : one_sided_def<rma_op::get_accumulate, measures::latency> {
    static constexpr const char* banner = "OSU MPI_Get_accumulate latency Test";
    static constexpr const char* datatype = "MPI_UNSIGNED_CHAR";
};
struct fop_latency : one_sided_def<rma_op::fetch_and_op, measures::latency> {
    static constexpr const char* banner = "OSU MPI_Fetch_and_op latency Test";
    static constexpr const char* datatype = "MPI_LONG_LONG";
};
struct cas_latency : one_sided_def<rma_op::compare_and_swap, measures::latency> {
    static constexpr const char* banner = "OSU MPI_Compare_and_swap latency Test";
    static constexpr const char* datatype = "MPI_LONG_LONG";
};

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;

const benchmark catalogue[] = {
    one_sided_entry<put_latency>(
        {"put_latency", "MPI_Put latency, completed per transfer (-s)", "single_transfer", dflt}),
    one_sided_entry<get_latency>(
        {"get_latency", "MPI_Get latency, completed per transfer (-s)", "single_transfer", dflt}),
    one_sided_entry<put_bw>(
        {"put_bw", "MPI_Put bandwidth: a window of -W puts, then the completion (-s)",
         "single_transfer", dflt}),
    one_sided_entry<get_bw>(
        {"get_bw", "MPI_Get bandwidth: a window of -W gets, then the completion (-s)",
         "single_transfer", dflt}),
    one_sided_entry<put_bibw>(
        {"put_bibw", "MPI_Put bidirectional bandwidth: both sides put -W, pscw or fence",
         "single_transfer", dflt}),
    one_sided_entry<acc_latency>(
        {"acc_latency", "MPI_Accumulate (MPI_SUM) latency", "single_transfer", dflt}),
    one_sided_entry<get_acc_latency>(
        {"get_acc_latency", "MPI_Get_accumulate (MPI_SUM) latency", "single_transfer", dflt}),
    one_sided_entry<fop_latency>(
        {"fop_latency", "MPI_Fetch_and_op (MPI_SUM, one integer) latency", "single_transfer",
         dflt}),
    one_sided_entry<cas_latency>(
        {"cas_latency", "MPI_Compare_and_swap (one integer) latency", "single_transfer", dflt}),
};

const suite& osu_suite() {
    static const suite s("osu", "OSU micro-benchmarks (one-sided tests)", catalogue,
                         mpi_plugin::testing::osu_faults());
    return s;
}

void run(const run_request& request, const plugin::host_channel& host) {
    osu_suite().run(request, host);
}

}  // namespace
}  // namespace parbench::osu

namespace parbench::mpi_plugin {
const hosted_suite suites::osu = {osu::osu_suite().info(), &osu::run};
}  // namespace parbench::mpi_plugin
