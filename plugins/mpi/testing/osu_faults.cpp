// osu's fault-injection benchmarks: Test_Corrupt_put puts every message one byte past the start
// of its section (and one byte short), so -check must count every byte of the target's section;
// Test_Deadlock_put opens an access epoch (MPI_Win_start) that the target never exposes, so its
// MPI_Win_complete never returns and --timeout must stop the run naming it.
#include "osu/one_sided.hpp"
#include "testing/fault_kernels.hpp"

#include <utility>

namespace parbench::mpi_plugin::testing {
namespace osu_faults_impl {
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

class unexposed_epoch {
public:
    explicit unexposed_epoch(const mpi::kernel_context& c) {
        MPI_Group all = MPI_GROUP_NULL;
        MPI_Comm_group(c.comm, &all);
        const int peer = c.peer;
        MPI_Group_incl(all, 1, &peer, &peer_);
        MPI_Group_free(&all);
    }
    unexposed_epoch(unexposed_epoch&& other) noexcept
        : peer_(std::exchange(other.peer_, MPI_GROUP_NULL)) {}
    unexposed_epoch(const unexposed_epoch&) = delete;
    unexposed_epoch& operator=(const unexposed_epoch&) = delete;
    unexposed_epoch& operator=(unexposed_epoch&&) = delete;
    ~unexposed_epoch() {
        int finalised = 0;
        MPI_Finalized(&finalised);
        if (finalised == 0 && peer_ != MPI_GROUP_NULL) MPI_Group_free(&peer_);
    }
    void operator()(const mpi::kernel_context& c, std::uint64_t /*i*/,
                    const mpi::window_view& v) const {
        if (!c.initiator) return;
        MPI_Win_start(peer_, 0, v.win);
        MPI_Put(v.local(0), static_cast<int>(c.bytes), MPI_CHAR, c.peer,
                v.displacement(c.peer, 0), static_cast<int>(c.bytes), MPI_CHAR, v.win);
        MPI_Win_complete(v.win);  // the peer never posts: never returns
    }

private:
    MPI_Group peer_ = MPI_GROUP_NULL;
};

struct corrupt_put_def : mpi::definition_defaults {
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

// With -s pscw a latency test holds no epoch and adds no completion: the kernel's own epoch is
// all there is (both processes start one; neither posts).
constexpr osu::sync kernel_epoch_only[] = {osu::sync::pscw};

struct deadlock_put_def : corrupt_put_def {
    static constexpr const char* banner = "parbench Test_Deadlock_put (an epoch never exposed)";
    static constexpr osu::sync default_sync = osu::sync::pscw;
    static constexpr std::span<const osu::sync> syncs = kernel_epoch_only;
    static constexpr bool accepts(osu::sync s) { return s == osu::sync::pscw; }
    static unexposed_epoch make_kernel(const mpi::kernel_context& c, std::uint64_t /*window*/) {
        return unexposed_epoch(c);
    }
};

constexpr osu::benchmark faults[] = {
    osu::one_sided_entry<corrupt_put_def>(
        "Test_Corrupt_put", "test only: MPI_Put one byte off its section (-check must see it)",
        PARBENCH_BENCH_TEST_ONLY),
    osu::one_sided_entry<deadlock_put_def>(
        "Test_Deadlock_put", "test only: an access epoch the target never exposes (hangs)",
        PARBENCH_BENCH_TEST_ONLY),
};

}  // namespace

}  // namespace osu_faults_impl
std::span<const osu::benchmark> osu_faults() { return osu_faults_impl::faults; }

}  // namespace parbench::mpi_plugin::testing
