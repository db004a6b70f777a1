// The coarray plugin's C surface (parbench_caf.so): starts and stops the coarray runtime and runs
// the suites it hosts, one file each (suite.hpp): `caf`, EPCC's Fortran Coarray Micro-Benchmark
// Suite (CAF_BENCH v1.0) on OpenCoarrays for MPICH, through the same driver, runner and records
// as every other suite.
//
// Lifetime: the MPI plugin (loaded RTLD_GLOBAL, initialised first) starts MPI; this plugin's
// init starts the coarray runtime with the real argc/argv (OpenCoarrays sees MPI_Initialized and
// leaves MPI to its owner) and its finalize stops it, before the driver finalizes the MPI
// plugin.
#include "families/families.hpp"
#include "runtime.hpp"
#include "suite.hpp"
#include "toolchain.hpp"

#include <parbench/mpi/environment.hpp>
#include <parbench/plugin/abi.h>
#include <parbench/plugin/descriptor.hpp>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/hosted_suite.hpp>

#include <mpi.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace parbench::caf {
namespace plugin_impl {
namespace {

// The suites this plugin hosts, in the order `parbench list` shows them.
constexpr const plugin::hosted_suite* hosted_suites[] = {
    &suites::caf,
};

bool runtime_started = false;

const char* backend_info() {
    static const std::string text = std::string(PARBENCH_CAF_RUNTIME) + " coarray runtime, " +
                                    PARBENCH_CAF_COMPILER + " -fcoarray=lib, on " +
                                    mpi::library_version();
    return text.c_str();
}

parbench_status init(const parbench_init_args* args, char* error, std::size_t error_size) {
    return plugin::guarded(error, error_size, [&] {
        int initialised = 0;
        MPI_Initialized(&initialised);
        if (initialised == 0)
            throw std::runtime_error(
                "the coarray runtime shares MPI with the MPI plugin, which has not started it "
                "(is parbench_mpi.so on the plugin path?)");
        // OpenCoarrays asks MPI_Initialized too and then neither initialises nor finalizes MPI.
        start_coarray_runtime(args != nullptr ? args->argc : nullptr,
                              args != nullptr ? args->argv : nullptr);
        runtime_started = true;
        open_critical_section();  // collective: registers the construct's lock on every image
    });
}

parbench_status finalize(char* error, std::size_t error_size) {
    return plugin::guarded(error, error_size, [&] {
        if (!runtime_started) return;
        stop_coarray_runtime();
        runtime_started = false;
    });
}

parbench_status run(const char* request_json, const parbench_host* host, char* error,
                    std::size_t error_size) {
    return plugin::run_hosted_suite(hosted_suites, "caf", request_json, host, error, error_size);
}

// Built on first use, after every suite file's static initialisation has run.
const parbench_plugin& descriptor() {
    static const std::vector<parbench_suite> suites = plugin::suite_table(hosted_suites);
    static const parbench_plugin d = plugin::descriptor_of({.name = "caf",
                                                            .backend_info = &backend_info,
                                                            .init = &init,
                                                            .finalize = &finalize,
                                                            .run = &run,
                                                            .suites = suites});
    return d;
}

}  // namespace
}  // namespace plugin_impl
}  // namespace parbench::caf

PARBENCH_PLUGIN_ENTRY(parbench::caf::plugin_impl::descriptor())
