// imb-io: the Intel MPI Benchmarks' IMB-IO (MPI-IO; catalogue A.3.3), blocking flavours.
#include "suites/suite.hpp"

#include "imb/driver.hpp"
#include "imb/suite.hpp"
#include "suites/imb_io_kernels.hpp"
#include "testing/fault_kernels.hpp"

namespace parbench::mpi_plugin {
namespace {

using namespace imb_io;
using imb::run_benchmark;
using enum pattern::io_files;
using enum pattern::io_access;
using enum pattern::io_direction;

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;
constexpr const char* single = "single_transfer";
constexpr const char* parallel = "parallel_transfer";
constexpr const char* collective = "collective";

template <io_files F, io_access A, io_direction D, bool C = false>
using def = transfer_def<action(F, A, D, C)>;

constexpr imb::benchmark catalogue[] = {
    {{"Open_Close", "MPI_File_open of one common file, a 1-byte write, MPI_File_close", "other",
      dflt},
     &run_benchmark<open_close_def>},
    {{"S_Write_indv", "One process: MPI_File_write of X bytes to a private file", single, dflt},
     &run_benchmark<def<one_process, individual, write>>},
    {{"S_Read_indv", "One process: MPI_File_read of X bytes from a private file", single, dflt},
     &run_benchmark<def<one_process, individual, read>>},
    {{"S_Write_expl", "One process: MPI_File_write_at of X bytes to a private file", single,
      dflt},
     &run_benchmark<def<one_process, explicit_offset, write>>},
    {{"S_Read_expl", "One process: MPI_File_read_at of X bytes from a private file", single,
      dflt},
     &run_benchmark<def<one_process, explicit_offset, read>>},
    {{"P_Write_indv", "All: MPI_File_write of X/Q bytes to a common file (tiled view)", parallel,
      dflt},
     &run_benchmark<def<common, individual, write>>},
    {{"P_Read_indv", "All: MPI_File_read of X/Q bytes from a common file (tiled view)",
      parallel, dflt},
     &run_benchmark<def<common, individual, read>>},
    {{"P_Write_expl", "All: MPI_File_write_at of X/Q bytes to a common file", parallel, dflt},
     &run_benchmark<def<common, explicit_offset, write>>},
    {{"P_Read_expl", "All: MPI_File_read_at of X/Q bytes from a common file", parallel, dflt},
     &run_benchmark<def<common, explicit_offset, read>>},
    {{"P_Write_shared", "All: MPI_File_write_shared of X/Q bytes to a common file", parallel,
      dflt},
     &run_benchmark<def<common, shared, write>>},
    {{"P_Read_shared", "All: MPI_File_read_shared of X/Q bytes from a common file", parallel,
      dflt},
     &run_benchmark<def<common, shared, read>>},
    {{"P_Write_priv", "All: MPI_File_write of X/Q bytes, each to its own file", parallel, dflt},
     &run_benchmark<def<each_private, individual, write>>},
    {{"P_Read_priv", "All: MPI_File_read of X/Q bytes, each from its own file", parallel, dflt},
     &run_benchmark<def<each_private, individual, read>>},
    {{"C_Write_indv", "All: MPI_File_write_all of X/Q bytes to a common file (tiled view)",
      collective, dflt},
     &run_benchmark<def<common, individual, write, true>>},
    {{"C_Read_indv", "All: MPI_File_read_all of X/Q bytes from a common file (tiled view)",
      collective, dflt},
     &run_benchmark<def<common, individual, read, true>>},
    {{"C_Write_expl", "All: MPI_File_write_at_all of X/Q bytes to a common file", collective,
      dflt},
     &run_benchmark<def<common, explicit_offset, write, true>>},
    {{"C_Read_expl", "All: MPI_File_read_at_all of X/Q bytes from a common file", collective,
      dflt},
     &run_benchmark<def<common, explicit_offset, read, true>>},
    {{"C_Write_shared", "All: MPI_File_write_ordered of X/Q bytes to a common file",
      collective, dflt},
     &run_benchmark<def<common, ordered, write, true>>},
    {{"C_Read_shared", "All: MPI_File_read_ordered of X/Q bytes from a common file",
      collective, dflt},
     &run_benchmark<def<common, ordered, read, true>>},
};

const imb::suite& suite() {
    // IMB_settings_io.h: MSGSPERSAMPLE 50, OVERALL_VOL 16 MiB, MSGS_NONAGGR 10, portions up to
    // 2^24 bytes.
    static const imb::suite s(
        {.name = "imb-io",
         .description = "Intel MPI Benchmarks IMB-IO: MPI-IO (files under --io-dir, removed)",
         .compatible_with = "IMB-IO",
         .part = "MPI-IO part",
         .defaults = {.msglog = {0, 24},
                      .iterations = {.msgs_per_sample = 50,
                                     .overall_vol_bytes = 16ull << 20,
                                     .msgs_nonaggr = 10},
                      .io_files = true}},
        catalogue, testing::imb_io_faults());
    return s;
}

void run(const run_request& request, const plugin::host_channel& host) {
    suite().run(request, host);
}

}  // namespace

const hosted_suite suites::imb_io = {suite().info(), &run};

}  // namespace parbench::mpi_plugin
