// mpi/persistent.hpp: the requests are made once, at setup, on the buffers the kernel then sees;
// they survive the move the runner makes after setup; teardown frees them (idempotently); and
// through measure() a persistent ping-pong runs its iterations with -check's bytes arriving
// intact.
//
//   mpiexec -n 2 ./persistent_test
#include <parbench/mpi/check.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/persistent.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/exchange.hpp>

#include <cstdio>
#include <utility>
#include <vector>

namespace {

namespace mpi = parbench::mpi;

int failures = 0;

void expect(bool ok, const char* what) {
    if (ok) return;
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::fprintf(stderr, "rank %d: %s\n", rank, what);
    ++failures;
}

// A send and a receive of X bytes with the partner; counts its calls.
struct ping_pong_maker {
    int* calls = nullptr;
    void operator()(const mpi::kernel_context& c, const mpi::message_buffers<mpi::fixed_slots>& b,
                    std::vector<MPI_Request>& requests) const {
        ++*calls;
        requests.assign(2, MPI_REQUEST_NULL);
        const int n = static_cast<int>(c.bytes);
        MPI_Send_init(b.send(0), n, MPI_BYTE, c.peer, 7, c.comm, requests.data());
        MPI_Recv_init(b.recv(0), n, MPI_BYTE, c.peer, 7, c.comm, requests.data() + 1);
    }
};

struct ping_pong_kernel {
    template <class View>
    void operator()(const mpi::kernel_context& c, std::uint64_t /*i*/, const View& v) const {
        MPI_Request* first = &v.requests[c.initiator ? 0 : 1];
        MPI_Request* second = &v.requests[c.initiator ? 1 : 0];
        MPI_Start(first);
        MPI_Wait(first, MPI_STATUS_IGNORE);
        MPI_Start(second);
        MPI_Wait(second, MPI_STATUS_IGNORE);
    }
};

struct partner_bytes {
    void fill_send(const mpi::kernel_context& c, std::span<std::byte> slot) const {
        mpi::check::fill_bytes(slot, c.rank);
    }
    std::uint64_t verify(const mpi::kernel_context& c, std::uint64_t /*last*/,
                         std::span<const std::byte> recv) const {
        return mpi::check::count_byte_defects(recv, c.peer);
    }
};

}  // namespace

int main(int argc, char** argv) {
    mpi::environment env(argc, argv);
    const mpi::session pair(MPI_COMM_WORLD, 2);
    const std::size_t bytes = 64;
    const mpi::kernel_context context = pair.context(bytes, parbench::pattern::first_pair);

    // The resource on its own: requests at setup, kept across a move, freed at teardown.
    {
        int calls = 0;
        mpi::persistent_requests made(
            mpi::message_resource({bytes, bytes}, {}, pair.send_pool(), pair.recv_pool()),
            context, ping_pong_maker{&calls});
        made.allocate();
        expect(calls == 0, "requests made before setup");
        made.setup(pair.group());
        expect(calls == 1, "setup did not make the requests once");
        mpi::persistent_requests moved(std::move(made));
        std::size_t live = 0;
        std::byte* seen = nullptr;
        moved.visit([&](const mpi::persistent_view& v) {
            for (const MPI_Request r : v.requests) live += r != MPI_REQUEST_NULL ? 1 : 0;
            seen = v.send(0);
        });
        expect(live == 2, "the moved resource lost its requests");
        expect(seen == pair.send_pool().data(), "the requests are not on the session's buffers");
        moved.visit([&](const mpi::persistent_view& v) {
            ping_pong_kernel{}(context, 0, v);  // usable after the move
        });
        moved.teardown();
        moved.teardown();  // idempotent
        std::size_t left = 1;
        moved.visit([&](const mpi::persistent_view& v) { left = v.requests.size(); });
        expect(left == 0, "teardown left requests");
    }

    // Through measure(): 20 timed iterations, -check's bytes from the partner.
    {
        int calls = 0;
        mpi::timing_plan<parbench::policy::iterations::fixed_count> plan{
            .iterations = {.iterations = 20, .skip = 3}, .check = true};
        const auto m = mpi::measure(
            pair, mpi::measure_config{
                      .pattern = parbench::pattern::exchange{
                          .who = parbench::pattern::participants::pair,
                          .nmsg = 1,
                          .time_divisor = 2.0,
                          .pairs = parbench::pattern::first_pair},
                      .bytes = bytes,
                      .resource = mpi::persistent_requests(
                          mpi::message_resource({bytes, bytes}, {}, pair.send_pool(),
                                                pair.recv_pool()),
                          context, ping_pong_maker{&calls}),
                      .kernel = ping_pong_kernel{},
                      .plan = plan,
                      .check = partner_bytes{}});
        expect(calls == 1, "measure() made the requests more than once");
        if (pair.world().rank() == 0) {
            const bool ok = m.records.size() == 1 && m.records.front().iterations == 20 &&
                            m.records.front().defects == 0 && m.records.front().t_max_us > 0.0;
            expect(ok, "measure() on persistent requests: wrong record");
            if (!ok && !m.records.empty())
                std::fprintf(stderr, "records %zu, iterations %llu, defects %llu, t_max %g us\n",
                             m.records.size(),
                             static_cast<unsigned long long>(m.records.front().iterations),
                             static_cast<unsigned long long>(
                                 m.records.front().defects.value_or(0)),
                             m.records.front().t_max_us);
        }
    }
    int any = failures;
    MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any == 0 ? 0 : 1;
}
