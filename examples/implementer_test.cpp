// An MPI implementer's regression test: IMB's PingPong and Allreduce must move correct data and
// stay fast. Copy it into your test suite, link Catch2 and libdl (no MPI: parbench's MPI plugin
// brings the MPI you test), and run it under `mpiexec -n 2`.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <parbench/host/host.hpp>

#include <cstdio>
#include <cstdlib>

parbench::host* pb = nullptr;
// The latency bound in µs: set it for your hardware. parbench's own tests run this example on
// heavily shared machines and loosen it through LATENCY_BOUND_US.
const char* bound_text = std::getenv("LATENCY_BOUND_US");
const double bound_us = bound_text != nullptr ? std::atof(bound_text) : 20.0;

TEST_CASE("PingPong and Allreduce: correct data, 8-byte latency within bounds") {
    auto r = pb->run("imb-mpi1", {"PingPong", "Allreduce"}, {{"msglog", "0:6"}, {"iter", "50"}},
                     {.check = true});
    REQUIRE(r.completed());
    REQUIRE(r.total_defects() == 0);
    CHECK(r.at("PingPong", 8).distribution_us.median < bound_us);
    CHECK(r.at("Allreduce", 8).distribution_us.median < bound_us);
}

int main(int argc, char** argv) {
    parbench::host host(argc, argv);  // finds the plugins; MPI starts with the first run
    pb = &host;
    if (parbench::launcher_rank() != 0) (void)std::freopen("/dev/null", "w", stdout);  // one report
    return Catch::Session().run(argc, argv);
}
