// imb-ext: the Intel MPI Benchmarks' IMB-EXT (MPI-2 one-sided communication, active target).
#include "suites/suite.hpp"

#include "imb/driver.hpp"
#include "imb/suite.hpp"

#include <parbench/suites/imb/ext.hpp>

namespace parbench::mpi_plugin {
namespace imb_ext_impl {
namespace {

using namespace imb_ext;

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;

constexpr imb::benchmark catalogue[] = {
    imb::entry<window_def>("Window", "MPI_Win_create, fence, 1-byte MPI_Put, fence, MPI_Win_free",
                           dflt),
    imb::entry<unidir_put_def>(
        "Unidir_Put", "Rank 0 puts X bytes into rank 1's window; MPI_Win_fence completes", dflt),
    imb::entry<unidir_get_def>(
        "Unidir_Get", "Rank 0 gets X bytes from rank 1's window; MPI_Win_fence completes", dflt),
    imb::entry<bidir_put_def>(
        "Bidir_Put", "Ranks 0 and 1 put into each other's windows at once; fence completes", dflt),
    imb::entry<bidir_get_def>(
        "Bidir_Get", "Ranks 0 and 1 get from each other's windows at once; fence completes", dflt),
    imb::entry<accumulate_def>(
        "Accumulate", "Every process MPI_Accumulates MPI_FLOATs (MPI_SUM) into rank 0; fence",
        dflt),
};

const imb::suite& suite() {
    static const imb::suite s(
        {.name = "imb-ext",
         .description = "Intel MPI Benchmarks IMB-EXT: MPI-2 one-sided communication (fence)",
         .compatible_with = "IMB-EXT",
         .part = report::imb_part::ext,
         .defaults = {.methodology_2021 = true, .modes = true, .ext_lengths = true}},
        catalogue);
    return s;
}

void run(const run_request& request, const plugin::host_channel& host) {
    suite().run(request, host);
}

}  // namespace

}  // namespace imb_ext_impl
const hosted_suite suites::imb_ext = {imb_ext_impl::suite().info(), &imb_ext_impl::run};

}  // namespace parbench::mpi_plugin
