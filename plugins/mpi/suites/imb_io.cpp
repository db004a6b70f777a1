// imb-io: the Intel MPI Benchmarks' IMB-IO (MPI-IO; catalogue A.3.3): the blocking flavours
// and the nonblocking I flavours, which declare IMB's overlap columns t_ovrl t_pure t_CPU
// overlap[%]. Under -methodology 2021 (the default) IMB 2021.11's list, order and defaults;
// under 4.0 the blocking flavours by default, the I flavours by name (each size costs
// 2 x (repetitions + warm-up) x 0.1 s of CPU load there).
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

// IMB 2021's default list in its order (IMB-IO 2021.11 prints it so: each write, then its
// nonblocking flavour; the writes, then the reads; Open_Close last): the I-flavours join the
// default set under -methodology 2021 (imb::methodology::io_nonblocking_by_default).
constexpr std::string_view imb2021_list[] = {
    "S_Write_indv",   "S_IWrite_indv",   "S_Write_expl",   "S_IWrite_expl",
    "P_Write_indv",   "P_IWrite_indv",   "P_Write_shared", "P_IWrite_shared",
    "P_Write_priv",   "P_IWrite_priv",   "P_Write_expl",   "P_IWrite_expl",
    "C_Write_indv",   "C_IWrite_indv",   "C_Write_shared", "C_IWrite_shared",
    "C_Write_expl",   "C_IWrite_expl",   "S_Read_indv",    "S_IRead_indv",
    "S_Read_expl",    "S_IRead_expl",    "P_Read_indv",    "P_IRead_indv",
    "P_Read_shared",  "P_IRead_shared",  "P_Read_priv",    "P_IRead_priv",
    "P_Read_expl",    "P_IRead_expl",    "C_Read_indv",    "C_IRead_indv",
    "C_Read_shared",  "C_IRead_shared",  "C_Read_expl",    "C_IRead_expl",
    "Open_Close"};
static_assert(imb::methodology{}.io_nonblocking_by_default());

const imb::suite& suite() {
    // The guide's defaults (IMB_settings_io.h: MSGSPERSAMPLE 50, OVERALL_VOL 16 MiB,
    // MSGS_NONAGGR 10, portions up to 2^24 bytes); the run takes the methodology's
    // (imb::methodology::io_*, applied in imb::parse_options).
    static const imb::suite s(
        {.name = "imb-io",
         .description = "Intel MPI Benchmarks IMB-IO: MPI-IO (files under --io-dir, removed)",
         .compatible_with = "IMB-IO",
         .part = report::imb_part::io,
         .defaults = {.msglog = {0, 24},
                      .iterations = {.msgs_per_sample = 50,
                                     .overall_vol_bytes = 16ull << 20,
                                     .msgs_nonaggr = 10},
                      .io_files = true,
                      .methodology_2021 = true,
                      .modes = true,
                      .affordable_repeats_s = 0.0},
         .imb2021_list = imb2021_list},
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
