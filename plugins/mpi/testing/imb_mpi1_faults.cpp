#include "testing/fault_kernels.hpp"
#include "testing/late_rank.hpp"

#include <parbench/suites/imb/mpi1.hpp>

namespace parbench::mpi_plugin::testing {
namespace imb_mpi1_faults_impl {
namespace {

using imb_mpi1::buffer_layout;
using imb_mpi1::kernel_context;
using reference_ping_pong = imb_mpi1::ping_pong_def<true>;

inline constexpr int tag_never_sent = 1006;

// The reference PingPong, after which rank 1 flips the first byte that arrived: -check must
// report it in the defects column, whatever the datatype (its first byte is always data).
struct corrupt_ping_pong_def : reference_ping_pong {
    struct kernel {
        reference_ping_pong::kernel reference;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            reference(c, i, b);
            if (c.rank == 1 && c.bytes > 0) b.recv(i)[0] ^= std::byte{0x5a};
        }
    };
    static kernel make_kernel(const kernel_context& c, const imb_mpi1::sized_operands& o) {
        return {reference_ping_pong::make_kernel(c, o)};
    }
};

// Rank 0 waits for a message nobody sends (the driver's --timeout or a signal stops it).
struct deadlock_def : reference_ping_pong {
    static constexpr pattern::ping_pong descriptor{};
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            if (c.rank == 0)
                MPI_Recv(b.recv(i), imb_mpi1::count_of(c.bytes), MPI_BYTE, 1, tag_never_sent,
                         c.comm, MPI_STATUS_IGNORE);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
};

constexpr imb::benchmark faults[] = {
    imb::entry<corrupt_ping_pong_def>(
        "Test_Corrupt", "Fault injection: a PingPong whose receiver flips one arrived byte",
        PARBENCH_BENCH_TEST_ONLY),
    imb::entry<deadlock_def>("Test_Deadlock",
                             "Fault injection: rank 0 waits for a message nobody sends",
                             PARBENCH_BENCH_TEST_ONLY),
    imb::entry<late_allreduce_def>(
        "Test_Late_Allreduce",
        "Fault injection: an Allreduce whose last process sleeps 200 ms before every 4th call",
        PARBENCH_BENCH_TEST_ONLY),
};

}  // namespace

}  // namespace imb_mpi1_faults_impl
std::span<const imb::benchmark> imb_mpi1_faults() { return imb_mpi1_faults_impl::faults; }

}  // namespace parbench::mpi_plugin::testing
