// imb-io: the Intel MPI Benchmarks' IMB-IO (MPI-IO; catalogue A.3.3): the blocking flavours
// (default) and the nonblocking I flavours (run by name or -include: each size costs
// 2 x (repetitions + warm-up) x TARGET_CPU_SECS of CPU load), which declare IMB's overlap
// columns t_ovrl t_pure t_CPU overlap[%].
#include "suites/suite.hpp"

#include "imb/driver.hpp"
#include "imb/suite.hpp"
#include "suites/imb_io_kernels.hpp"
#include "testing/fault_kernels.hpp"

namespace parbench::mpi_plugin {
namespace imb_io_impl {
namespace {

using namespace imb_io;
using enum pattern::io_files;
using enum pattern::io_access;
using enum pattern::io_direction;

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;

template <io_files F, io_access A, io_direction D, bool C = false>
using def = transfer_def<action(F, A, D, C)>;

template <io_files F, io_access A, io_direction D, bool C = false>
using idef = nonblocking_def<action(F, A, D, C)>;

constexpr imb::benchmark catalogue[] = {
    imb::entry<open_close_def>(
        "Open_Close", "MPI_File_open of one common file, a 1-byte write, MPI_File_close", dflt),
    imb::entry<def<one_process, individual, write>>(
        "S_Write_indv", "One process: MPI_File_write of X bytes to a private file", dflt),
    imb::entry<def<one_process, individual, read>>(
        "S_Read_indv", "One process: MPI_File_read of X bytes from a private file", dflt),
    imb::entry<def<one_process, explicit_offset, write>>(
        "S_Write_expl", "One process: MPI_File_write_at of X bytes to a private file", dflt),
    imb::entry<def<one_process, explicit_offset, read>>(
        "S_Read_expl", "One process: MPI_File_read_at of X bytes from a private file", dflt),
    imb::entry<def<common, individual, write>>(
        "P_Write_indv", "All: MPI_File_write of X/Q bytes to a common file (tiled view)", dflt),
    imb::entry<def<common, individual, read>>(
        "P_Read_indv", "All: MPI_File_read of X/Q bytes from a common file (tiled view)", dflt),
    imb::entry<def<common, explicit_offset, write>>(
        "P_Write_expl", "All: MPI_File_write_at of X/Q bytes to a common file", dflt),
    imb::entry<def<common, explicit_offset, read>>(
        "P_Read_expl", "All: MPI_File_read_at of X/Q bytes from a common file", dflt),
    imb::entry<def<common, shared, write>>(
        "P_Write_shared", "All: MPI_File_write_shared of X/Q bytes to a common file", dflt),
    imb::entry<def<common, shared, read>>(
        "P_Read_shared", "All: MPI_File_read_shared of X/Q bytes from a common file", dflt),
    imb::entry<def<each_private, individual, write>>(
        "P_Write_priv", "All: MPI_File_write of X/Q bytes, each to its own file", dflt),
    imb::entry<def<each_private, individual, read>>(
        "P_Read_priv", "All: MPI_File_read of X/Q bytes, each from its own file", dflt),
    imb::entry<def<common, individual, write, true>>(
        "C_Write_indv", "All: MPI_File_write_all of X/Q bytes to a common file (tiled view)", dflt),
    imb::entry<def<common, individual, read, true>>(
        "C_Read_indv", "All: MPI_File_read_all of X/Q bytes from a common file (tiled view)", dflt),
    imb::entry<def<common, explicit_offset, write, true>>(
        "C_Write_expl", "All: MPI_File_write_at_all of X/Q bytes to a common file", dflt),
    imb::entry<def<common, explicit_offset, read, true>>(
        "C_Read_expl", "All: MPI_File_read_at_all of X/Q bytes from a common file", dflt),
    imb::entry<def<common, ordered, write, true>>(
        "C_Write_shared", "All: MPI_File_write_ordered of X/Q bytes to a common file", dflt),
    imb::entry<def<common, ordered, read, true>>(
        "C_Read_shared", "All: MPI_File_read_ordered of X/Q bytes from a common file", dflt),
    imb::entry<idef<one_process, individual, write>>(
        "S_IWrite_indv", "One process: MPI_File_iwrite of X bytes, overlapped with CPU work", 0),
    imb::entry<idef<one_process, individual, read>>(
        "S_IRead_indv", "One process: MPI_File_iread of X bytes, overlapped with CPU work", 0),
    imb::entry<idef<one_process, explicit_offset, write>>(
        "S_IWrite_expl", "One process: MPI_File_iwrite_at of X bytes, overlapped with CPU work", 0),
    imb::entry<idef<one_process, explicit_offset, read>>(
        "S_IRead_expl", "One process: MPI_File_iread_at of X bytes, overlapped with CPU work", 0),
    imb::entry<idef<common, individual, write>>(
        "P_IWrite_indv", "All: MPI_File_iwrite of X/Q bytes (tiled view), overlapped with CPU work",
        0),
    imb::entry<idef<common, individual, read>>(
        "P_IRead_indv", "All: MPI_File_iread of X/Q bytes (tiled view), overlapped with CPU work",
        0),
    imb::entry<idef<common, explicit_offset, write>>(
        "P_IWrite_expl", "All: MPI_File_iwrite_at of X/Q bytes, overlapped with CPU work", 0),
    imb::entry<idef<common, explicit_offset, read>>(
        "P_IRead_expl", "All: MPI_File_iread_at of X/Q bytes, overlapped with CPU work", 0),
    imb::entry<idef<common, shared, write>>(
        "P_IWrite_shared", "All: MPI_File_iwrite_shared of X/Q bytes, overlapped with CPU work", 0),
    imb::entry<idef<common, shared, read>>(
        "P_IRead_shared", "All: MPI_File_iread_shared of X/Q bytes, overlapped with CPU work", 0),
    imb::entry<idef<each_private, individual, write>>(
        "P_IWrite_priv",
        "All: MPI_File_iwrite of X/Q bytes to its own file, overlapped with CPU "
        "work",
        0),
    imb::entry<idef<each_private, individual, read>>(
        "P_IRead_priv",
        "All: MPI_File_iread of X/Q bytes from its own file, overlapped with CPU "
        "work",
        0),
    imb::entry<idef<common, individual, write, true>>(
        "C_IWrite_indv",
        "All: MPI_File_write_all_begin/_end of X/Q bytes (tiled view), "
        "overlapped with CPU work",
        0),
    imb::entry<idef<common, individual, read, true>>(
        "C_IRead_indv",
        "All: MPI_File_read_all_begin/_end of X/Q bytes (tiled view), overlapped "
        "with CPU work",
        0),
    imb::entry<idef<common, explicit_offset, write, true>>(
        "C_IWrite_expl",
        "All: MPI_File_write_at_all_begin/_end of X/Q bytes, overlapped with CPU "
        "work",
        0),
    imb::entry<idef<common, explicit_offset, read, true>>(
        "C_IRead_expl",
        "All: MPI_File_read_at_all_begin/_end of X/Q bytes, overlapped with CPU "
        "work",
        0),
    imb::entry<idef<common, ordered, write, true>>(
        "C_IWrite_shared",
        "All: MPI_File_write_ordered_begin/_end of X/Q bytes, overlapped with "
        "CPU work",
        0),
    imb::entry<idef<common, ordered, read, true>>(
        "C_IRead_shared",
        "All: MPI_File_read_ordered_begin/_end of X/Q bytes, overlapped with CPU "
        "work",
        0),
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
                      .io_files = true,
                      .modes = true}},
        catalogue, testing::imb_io_faults());
    return s;
}

void run(const run_request& request, const plugin::host_channel& host) {
    suite().run(request, host);
}

}  // namespace

}  // namespace imb_io_impl
const hosted_suite suites::imb_io = {imb_io_impl::suite().info(), &imb_io_impl::run};

}  // namespace parbench::mpi_plugin
