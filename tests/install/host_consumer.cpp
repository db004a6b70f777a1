// The host API from an installed package with pkg-config's flags alone (issue 25 item 5): built
// by the install test as docs/library.md writes it,
//
//     c++ host_consumer.cpp $(pkg-config --cflags --libs parbench) -ldl \
//         -DPARBENCH_PLUGINDIR="\"$(pkg-config --variable=plugindir parbench)\""
//
// against a staged and moved prefix, and run under mpiexec -n 2: it finds the MPI plugin in the
// package's plugin directory (no PARBENCH_PLUGIN_PATH), runs IMB's PingPong with -check and
// prints one line on rank 0 that the test reads back. It links no MPI: the plugin brings it.
#include <parbench/host/host.hpp>

#include <cstdio>
#include <exception>

int main(int argc, char** argv) try {
    parbench::host host(argc, argv);
    const parbench::run_result r =
        host.run("imb-mpi1", {"PingPong"}, {{"msglog", "0:1"}, {"iter", "5"}}, {.check = true});
    if (parbench::launcher_rank() == 0)
        std::printf("host: %zu rows, %llu defects, passed %d, PingPong at 2 bytes on %d processes\n",
                    r.records.size(), static_cast<unsigned long long>(r.total_defects()),
                    r.passed() ? 1 : 0, r.at("PingPong", 2).block.processes);
    return r.passed() ? 0 : 1;
} catch (const std::exception& e) {  // no plugin found, a refused request: one line, status 1
    std::fprintf(stderr, "host_consumer: %s\n", e.what());
    return 1;
}
