#include "testing/fault_kernels.hpp"

#include "suites/imb_io_kernels.hpp"

namespace parbench::mpi_plugin::testing {
namespace imb_io_faults_impl {
namespace {

using imb_io::file_view;
using imb_io::kernel_context;
using reference_read = imb_io::transfer_def<imb_io::action(
    pattern::io_files::one_process, pattern::io_access::explicit_offset,
    pattern::io_direction::read)>;
using reference_shared_read = imb_io::transfer_def<imb_io::action(
    pattern::io_files::common, pattern::io_access::shared, pattern::io_direction::read)>;
using reference_write = imb_io::transfer_def<imb_io::action(
    pattern::io_files::common, pattern::io_access::explicit_offset, pattern::io_direction::write)>;
using reference_single_write = imb_io::transfer_def<imb_io::action(
    pattern::io_files::one_process, pattern::io_access::explicit_offset,
    pattern::io_direction::write)>;

// S_Read_expl whose read delivers one wrong byte: -check must report it in the defects column.
struct corrupt_read_def : reference_read {
    struct kernel {
        void operator()(const kernel_context& c, std::uint64_t i, const file_view& v) const {
            reference_read::make_kernel(c)(c, i, v);
            if (v.count > 0) v.buffer[0] = std::byte{0};
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
};

// P_Read_shared whose first process's read delivers one wrong byte (its middle one): whatever
// offset the shared pointer gave that read, -check must count exactly that byte.
struct corrupt_shared_read_def : reference_shared_read {
    struct kernel {
        void operator()(const kernel_context& c, std::uint64_t i, const file_view& v) const {
            reference_shared_read::make_kernel(c)(c, i, v);
            if (c.rank == 0 && v.count > 0) v.buffer[v.count / 2] = std::byte{0};
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
};

// S_Write_expl whose writes to the first tile are lost after the first (each call returns
// success; nothing lands). A size's first write (its probe's, or warm-up's) puts the right bytes
// there, so under IMB 2021, where the file is kept across the block's sizes, -check sees the
// timed writes' loss only because the file is emptied before them (file_resource::
// prepare_check): X defects in every row of X > 0 bytes, both modes.
struct lost_write_def : reference_single_write {
    struct kernel {
        std::uint64_t first_tile_writes = 0;
        void operator()(const kernel_context& c, std::uint64_t i, const file_view& v) {
            if (i % v.tiles == 0 && first_tile_writes++ > 0) return;
            reference_single_write::make_kernel(c)(c, i, v);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
};

// P_Write_expl in which the first process, with its file open, waits for a message nobody
// sends: --timeout or a signal stops it, and the run's files must still go away.
struct deadlock_write_def : reference_write {
    struct kernel {
        void operator()(const kernel_context& c, std::uint64_t i, const file_view& v) const {
            reference_write::make_kernel(c)(c, i, v);
            if (c.rank == 0) {
                char never = 0;
                MPI_Recv(&never, 1, MPI_CHAR, MPI_ANY_SOURCE, 4711, c.comm, MPI_STATUS_IGNORE);
            }
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
};

constexpr imb::benchmark faults[] = {
    imb::entry<corrupt_read_def>("Test_IO_Corrupt",
                                 "Fault injection: an S_Read_expl whose read delivers a wrong byte",
                                 PARBENCH_BENCH_TEST_ONLY),
    imb::entry<corrupt_shared_read_def>(
        "Test_IO_Corrupt_Shared",
        "Fault injection: a P_Read_shared whose first process's read delivers a wrong byte",
        PARBENCH_BENCH_TEST_ONLY),
    imb::entry<lost_write_def>(
        "Test_IO_Lost_Write",
        "Fault injection: an S_Write_expl whose writes to the first tile after its first are lost",
        PARBENCH_BENCH_TEST_ONLY),
    imb::entry<deadlock_write_def>(
        "Test_IO_Deadlock", "Fault injection: a P_Write_expl that waits forever with its file open",
        PARBENCH_BENCH_TEST_ONLY),
};

}  // namespace

}  // namespace imb_io_faults_impl
std::span<const imb::benchmark> imb_io_faults() { return imb_io_faults_impl::faults; }

}  // namespace parbench::mpi_plugin::testing
