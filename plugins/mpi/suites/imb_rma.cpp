// imb-rma: the Intel MPI Benchmarks' IMB-RMA (MPI-3 one-sided communication, passive target).
#include "suites/suite.hpp"

#include "imb/driver.hpp"
#include "imb/suite.hpp"
#include "testing/fault_kernels.hpp"

#include <parbench/suites/imb/rma.hpp>

namespace parbench::mpi_plugin {
namespace imb_rma_impl {
namespace {

using namespace imb_rma;

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;

constexpr imb::benchmark catalogue[] = {
    imb::entry<unidir_put_def>("Unidir_put", "MPI_Put + MPI_Win_flush, rank 0 to rank 1", dflt),
    imb::entry<unidir_get_def>("Unidir_get", "MPI_Get + MPI_Win_flush, rank 0 from rank 1", dflt),
    imb::entry<bidir_put_def>("Bidir_put", "MPI_Put + MPI_Win_flush, ranks 0 and 1 into each other",
                              dflt),
    imb::entry<bidir_get_def>("Bidir_get", "MPI_Get + MPI_Win_flush, ranks 0 and 1 from each other",
                              dflt),
    imb::entry<one_put_all_def>("One_put_all",
                                "Rank 0 puts to every other process; MPI_Win_flush_all", dflt),
    imb::entry<one_get_all_def>("One_get_all",
                                "Rank 0 gets from every other process; MPI_Win_flush_all", dflt),
    imb::entry<all_put_all_def>(
        "All_put_all", "Every process puts to every other, rotated order; MPI_Win_flush_all", dflt),
    imb::entry<all_get_all_def>(
        "All_get_all", "Every process gets from every other, rotated order; MPI_Win_flush_all",
        dflt),
    imb::entry<put_local_def>("Put_local", "MPI_Put + MPI_Win_flush_local, rank 0 to rank 1", dflt),
    imb::entry<put_all_local_def>(
        "Put_all_local", "Rank 0 puts to every other process; MPI_Win_flush_local_all", dflt),
    imb::entry<exchange_put_def>(
        "Exchange_put", "Every process puts to both chain neighbours; MPI_Win_flush each", dflt),
    imb::entry<exchange_get_def>(
        "Exchange_get", "Every process gets from both chain neighbours; MPI_Win_flush each", dflt),
    imb::entry<accumulate_def>("Accumulate",
                               "MPI_Accumulate of MPI_FLOAT (MPI_SUM) + MPI_Win_flush", dflt),
    imb::entry<get_accumulate_def>(
        "Get_accumulate", "MPI_Get_accumulate of MPI_FLOAT (MPI_SUM) + MPI_Win_flush", dflt),
    imb::entry<fetch_and_op_def>(
        "Fetch_and_op", "MPI_Fetch_and_op of one MPI_FLOAT (MPI_SUM) + MPI_Win_flush", dflt),
    imb::entry<compare_and_swap_def>("Compare_and_swap",
                                     "MPI_Compare_and_swap of one MPI_INT + MPI_Win_flush", dflt),
    imb::entry<truly_passive_put_def>(
        "Truly_passive_put", "Unidir_put with the target in MPI (t_pure) and computing (t_ovrl)",
        dflt),
    imb::entry<get_local_def>("Get_local", "MPI_Get + MPI_Win_flush_local, rank 0 from rank 1", 0),
    imb::entry<get_all_local_def>(
        "Get_all_local", "Rank 0 gets from every other process; MPI_Win_flush_local_all", 0),
};

const imb::suite& suite() {
    static const imb::suite s(
        {.name = "imb-rma",
         .description = "Intel MPI Benchmarks IMB-RMA: MPI-3 one-sided communication (passive)",
         .compatible_with = "IMB-RMA",
         .part = report::imb_part::rma,
         .defaults = {.methodology_2021 = true, .modes = true, .rma_mode_order = true}},
        catalogue, testing::imb_rma_faults());
    return s;
}

void run(const run_request& request, const plugin::host_channel& host) {
    suite().run(request, host);
}

}  // namespace

}  // namespace imb_rma_impl
const hosted_suite suites::imb_rma = {imb_rma_impl::suite().info(), &imb_rma_impl::run};

}  // namespace parbench::mpi_plugin
