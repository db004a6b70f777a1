#include "testing/fault_kernels.hpp"


#include <parbench/suites/imb/nbc.hpp>

#include <cstring>

namespace parbench::mpi_plugin::testing {
namespace imb_nbc_faults_impl {
namespace {

using imb_nbc::kernel_context;

// Iallreduce whose last process contributes a wrong first element: -check must count the wrong
// sums in the overlap benchmark's defects column.
struct corrupt_start {
    imb_nbc::iallreduce reference;
    template <class Buffers>
    MPI_Request operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
        if (c.rank == c.size - 1 && c.bytes >= sizeof(float)) {
            const float wrong = 12345.0f;
            std::memcpy(b.send(i), &wrong, sizeof wrong);
        }
        return reference(c, i, b);
    }
    static corrupt_start make(const kernel_context& c) { return {imb_nbc::iallreduce::make(c)}; }
};

// An Ibarrier that only rank 0 starts: its MPI_Wait never returns with more than one process
// (the driver's --timeout or a signal stops it).
struct lonely_ibarrier {
    template <class Buffers>
    MPI_Request operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
        if (c.rank != 0) return MPI_REQUEST_NULL;
        return imb_nbc::ibarrier{}(c, i, b);
    }
    static lonely_ibarrier make(const kernel_context& /*c*/) { return {}; }
};

using corrupt_def = imb_nbc::overlap_def<imb_mpi1::allreduce_def, corrupt_start>;
using deadlock_def = imb_nbc::overlap_def<imb_mpi1::barrier_def, lonely_ibarrier>;

constexpr imb::benchmark faults[] = {
    imb::entry<corrupt_def>("Test_Icorrupt",
                            "Fault injection: an Iallreduce with one wrong contribution",
                            PARBENCH_BENCH_TEST_ONLY),
    imb::entry<deadlock_def>("Test_Ideadlock", "Fault injection: an Ibarrier only rank 0 starts",
                             PARBENCH_BENCH_TEST_ONLY),
};

}  // namespace

}  // namespace imb_nbc_faults_impl
std::span<const imb::benchmark> imb_nbc_faults() { return imb_nbc_faults_impl::faults; }

}  // namespace parbench::mpi_plugin::testing
