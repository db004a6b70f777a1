// The BLAS plugin's C surface (parbench_blas.so): PAW's CPU BLAS tests on OpenBLAS, the suites it
// hosts one file each (suite.hpp). Needs no MPI; when the host offers a communication service
// every rank runs the kernels at the same time and rank 0 reports the combined figures.
#include "openblas.hpp"
#include "suite.hpp"

#include <parbench/plugin/abi.h>
#include <parbench/plugin/descriptor.hpp>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/hosted_suite.hpp>

#include <string>
#include <vector>

namespace parbench::blas {
namespace plugin_impl {
namespace {

// The suites this plugin hosts, in the order `parbench list` shows them.
constexpr const plugin::hosted_suite* hosted_suites[] = {
    &suites::paw,
};

const char* backend_info() {
    static const std::string text =
        openblas_config_text() + " (core " + openblas_corename() + ")";
    return text.c_str();
}

parbench_status init(const parbench_init_args*, char* error, std::size_t error_size) {
    return plugin::guarded(error, error_size, [] { (void)initial_threads(); });
}

parbench_status finalize(char* error, std::size_t error_size) {
    return plugin::guarded(error, error_size, [] {});
}

parbench_status run(const char* request_json, const parbench_host* host, char* error,
                    std::size_t error_size) {
    return plugin::run_hosted_suite(hosted_suites, "blas", request_json, host, error, error_size);
}

// Built on first use, after every suite file's static initialisation has run.
const parbench_plugin& descriptor() {
    static const std::vector<parbench_suite> suites = plugin::suite_table(hosted_suites);
    static const parbench_plugin d = plugin::descriptor_of({.name = "blas",
                                                            .backend_info = &backend_info,
                                                            .init = &init,
                                                            .finalize = &finalize,
                                                            .run = &run,
                                                            .suites = suites});
    return d;
}

}  // namespace
}  // namespace plugin_impl
}  // namespace parbench::blas

PARBENCH_PLUGIN_ENTRY(parbench::blas::plugin_impl::descriptor())
