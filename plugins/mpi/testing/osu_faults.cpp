// osu's fault-injection benchmark: Test_Corrupt_put puts every message one byte past the start
// of its section (and one byte short), so -check must count every byte of the target's section.
#include "osu/one_sided.hpp"
#include "testing/fault_kernels.hpp"

namespace parbench::mpi_plugin::testing {
namespace {

struct shifted_put {
    void operator()(const mpi::kernel_context& c, std::uint64_t /*i*/,
                    const mpi::window_view& v) const {
        if (!c.initiator) return;
        const int n = c.bytes > 0 ? static_cast<int>(c.bytes) - 1 : 0;
        MPI_Put(v.local(0), n, MPI_CHAR, c.peer, v.displacement(c.peer, 0) + 1, n, MPI_CHAR,
                v.win);
    }
};

// The kernel issues one put per iteration: passive-target synchronisations only.
constexpr osu::sync passive_target[] = {osu::sync::lock, osu::sync::flush, osu::sync::flush_local,
                                        osu::sync::lock_all};

struct corrupt_put_def {
    static constexpr rma_kernels::rma_op op = rma_kernels::rma_op::put;
    static constexpr osu::measures kind = osu::measures::latency;
    static constexpr bool bidirectional = false;
    static constexpr osu::sync default_sync = osu::sync::flush;
    static constexpr std::span<const osu::sync> syncs = passive_target;
    static constexpr bool accepts(osu::sync s) {
        return s != osu::sync::fence && s != osu::sync::pscw;
    }
    static constexpr const char* banner = "parbench Test_Corrupt_put (MPI_Put one byte off)";
    static constexpr const char* datatype = "MPI_CHAR";
    static shifted_put make_kernel(const mpi::kernel_context& /*c*/, std::uint64_t /*window*/) {
        return {};
    }
};

const osu::benchmark faults[] = {
    osu::one_sided_entry<corrupt_put_def>(
        {"Test_Corrupt_put", "test only: MPI_Put one byte off its section (-check must see it)",
         "single_transfer", PARBENCH_BENCH_TEST_ONLY}),
};

}  // namespace

std::span<const osu::benchmark> osu_faults() { return faults; }

}  // namespace parbench::mpi_plugin::testing
