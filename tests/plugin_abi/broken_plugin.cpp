// Deliberately broken plugins, one per way a plugin can be unusable. The build selects the
// defect with PARBENCH_TEST_DEFECT; the driver must name the file and the defect in one line.
#include <parbench/plugin/abi.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>

#define PARBENCH_DEFECT_NO_ENTRY 1
#define PARBENCH_DEFECT_WRONG_ABI 2
#define PARBENCH_DEFECT_SMALL_STRUCT 3
#define PARBENCH_DEFECT_INIT_FAILS 4
#define PARBENCH_DEFECT_CRASHES 5

namespace {

const parbench_benchmark broken_benchmarks[] = {
    {"Noop", "Does nothing", "collective", PARBENCH_BENCH_DEFAULT},
};

const parbench_suite broken_suites[] = {{
    "broken", "A suite whose plugin cannot be used", broken_benchmarks, 1, nullptr, 0, 0,
}};

parbench_status broken_init(const parbench_init_args*, char* error, size_t error_size) {
#if PARBENCH_TEST_DEFECT == PARBENCH_DEFECT_INIT_FAILS
    const char message[] = "cannot reach the fabric";
    if (error != nullptr && error_size > sizeof message) std::memcpy(error, message, sizeof message);
    return PARBENCH_ERROR;
#else
    (void)error;
    (void)error_size;
    return PARBENCH_OK;
#endif
}

parbench_status broken_run(const char*, const parbench_host*, char*, size_t) { return PARBENCH_OK; }

const parbench_plugin broken_descriptor = {
#if PARBENCH_TEST_DEFECT == PARBENCH_DEFECT_WRONG_ABI
    2u, 0u,
#else
    PARBENCH_ABI_MAJOR, PARBENCH_ABI_MINOR,
#endif
#if PARBENCH_TEST_DEFECT == PARBENCH_DEFECT_SMALL_STRUCT
    16u,
#else
    sizeof(parbench_plugin),
#endif
    "broken", "0.0.1", nullptr, broken_init, nullptr, broken_suites, 1, nullptr, broken_run, nullptr, 0, {},
};

}  // namespace

#if PARBENCH_TEST_DEFECT == PARBENCH_DEFECT_CRASHES
// Dies inside the entry point, as a plugin linked against a broken library might.
extern "C" __attribute__((visibility("default"))) const parbench_plugin* parbench_plugin_entry_v1(void) {
    std::abort();
}
#elif PARBENCH_TEST_DEFECT != PARBENCH_DEFECT_NO_ENTRY
extern "C" __attribute__((visibility("default"))) const parbench_plugin* parbench_plugin_entry_v1(void) {
    return &broken_descriptor;
}
#else
// Exports something, just not the entry symbol.
extern "C" __attribute__((visibility("default"))) int parbench_plugin_entry_v0(void) {
    return broken_descriptor.suite_count > 0 ? 0 : 1;
}
#endif
