#include "testing/fault_kernels.hpp"

#include <parbench/suites/imb/rma.hpp>

namespace parbench::mpi_plugin::testing {
namespace imb_rma_faults_impl {
namespace {

using imb_one_sided::kernel_context;
using imb_one_sided::window_view;
using reference_put = imb_rma::unidir_put_def;

// Unidir_put whose origin, after each put is complete, overwrites the section's first byte with
// zero (no value the check fills in): -check must report it in the defects column.
struct corrupt_put_def : reference_put {
    struct kernel {
        void operator()(const kernel_context& c, std::uint64_t i, const window_view& v) const {
            static constexpr std::byte zero{0};
            reference_put::kernel{}(c, i, v);
            if (!c.initiator || v.bytes == 0) return;
            MPI_Win_flush(c.peer, v.win);
            MPI_Put(&zero, 1, MPI_BYTE, c.peer, v.displacement(c.peer, i, c.rank), 1, MPI_BYTE,
                    v.win);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
};

// An access epoch the target never exposes: the origin's MPI_Win_start has no matching
// MPI_Win_post, so MPI_Win_complete never returns (--timeout or a signal stops it).
struct unexposed_access {
    void open(const kernel_context& c, const window_view& v) const {
        if (!c.initiator) return;
        MPI_Group all = MPI_GROUP_NULL;
        MPI_Group target = MPI_GROUP_NULL;
        MPI_Comm_group(c.comm, &all);
        MPI_Group_incl(all, 1, &c.peer, &target);
        MPI_Win_start(target, 0, v.win);
        MPI_Group_free(&target);
        MPI_Group_free(&all);
    }
    void close(const kernel_context& c, const window_view& v) const {
        if (c.initiator) MPI_Win_complete(v.win);
    }
};

struct deadlock_put_def : reference_put {
    static constexpr mpi::window_epoch epoch = mpi::window_epoch::none;
    using completion = unexposed_access;
    static mpi::window_plan window(std::size_t x, std::uint64_t sections, int np) {
        mpi::window_plan plan = reference_put::window(x, sections, np);
        plan.epoch = epoch;
        return plan;
    }
};

constexpr imb::benchmark faults[] = {
    imb::entry<corrupt_put_def>("Test_Rma_Corrupt",
                                "Fault injection: a Unidir_put that overwrites a byte it delivered",
                                PARBENCH_BENCH_TEST_ONLY),
    imb::entry<deadlock_put_def>("Test_Rma_Deadlock",
                                 "Fault injection: an access epoch the target never exposes",
                                 PARBENCH_BENCH_TEST_ONLY),
};

}  // namespace

}  // namespace imb_rma_faults_impl
std::span<const imb::benchmark> imb_rma_faults() { return imb_rma_faults_impl::faults; }

}  // namespace parbench::mpi_plugin::testing
