// A custom benchmark in a few lines: a ping-pong on MPI_Ssend (synchronous send), measured by
// parbench's runner with IMB's methodology (volume rule, -time cap, N_BARR barriers, batched
// timing) and printed as an IMB-style table with parbench's median and confidence columns.
//
//   mpiexec -n 2 ./ssend_pingpong [MAXLOG]
#include <parbench/core/sizes.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/ping_pong.hpp>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    parbench::mpi::environment env(argc, argv);
    const int max_log = argc > 1 ? std::atoi(argv[1]) : 16;

    // One iteration: rank 0 sends with MPI_Ssend and waits for the answer; rank 1 answers.
    const auto ssend_ping_pong = [](const parbench::mpi::kernel_context& c, std::uint64_t i,
                                    const auto& buffers) {
        const int n = static_cast<int>(c.bytes);
        if (c.rank == 0) {
            MPI_Ssend(buffers.send(i), n, MPI_BYTE, c.peer, 0, c.comm);
            MPI_Recv(buffers.recv(i), n, MPI_BYTE, c.peer, 0, c.comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buffers.recv(i), n, MPI_BYTE, c.peer, 0, c.comm, MPI_STATUS_IGNORE);
            MPI_Ssend(buffers.send(i), n, MPI_BYTE, c.peer, 0, c.comm);
        }
    };

    // Two active processes (others wait in MPI_Barrier), at most 1 s per message size.
    const parbench::mpi::session pair(MPI_COMM_WORLD, 2);
    parbench::mpi::timing_plan<> plan;
    plan.iterations.secs_per_sample = 1.0;
    const parbench::mpi::record_labels labels{.suite = "example", .benchmark = "SsendPingPong"};

    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        std::printf("# Benchmarking SsendPingPong\n# #processes = 2\n"
                    "%12s %12s %12s %12s %15s %8s\n", "#bytes", "#repetitions", "t[usec]",
                    "Mbytes/sec", "t_median[usec]", "ci95[%]");
    for (const std::uint64_t bytes : parbench::imb_sizes({0, max_log})) {
        const auto result = parbench::mpi::measure(
            pair, parbench::mpi::measure_config{.pattern = parbench::pattern::ping_pong{},
                                                .labels = labels,
                                                .bytes = bytes,
                                                .resource = parbench::mpi::messages{{bytes, bytes}},
                                                .kernel = ssend_ping_pong,
                                                .plan = plan});
        for (const auto& r : result.records) {
            const auto& d = r.distribution_us;
            const double ci = d.median > 0 ? 50.0 * (d.ci_high - d.ci_low) / d.median : 0.0;
            std::printf("%12llu %12llu %12.2f %12.2f %15.2f %8.1f\n",
                        static_cast<unsigned long long>(r.bytes),
                        static_cast<unsigned long long>(r.iterations), r.t_max_us,
                        r.throughput_mib_s.value_or(0.0), d.median, ci);
        }
    }
    return 0;
}
