// parbench's OpenMP offload plugin: PAW's twelve Xeon Phi transfer tests (catalogue C.9) on
// OpenMP target offload — omp_target_alloc/omp_target_free for device memory, omp_target_memcpy
// for the copies (omp_layer.h, the only part built by the offload compiler) — timed with PAW's
// NLOOP/NREPS method (NLOOP_PHI_MAX) through the offload_transfer pattern. Suite "paw", beside
// the BLAS plugin's tests; none of these runs by default, they run when named.
//
// The layer is not linked: it is opened (omp_functions.hpp) when a run of the offload tests
// starts, so that discovering this plugin on every rank maps none of the offload runtime.
//
// Only offload devices are measured: with no device (or a target region that runs on the host)
// the run ends with an error saying why, before any figure is reported.
#include "catalogue.hpp"
#include "omp_device_layer.hpp"
#include "omp_functions.hpp"
#include "transfer_sweep.hpp"

#include <parbench/core/clock.hpp>
#include <parbench/plugin/companion_library.hpp>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/paw_parameters.hpp>
#include <parbench/plugin/paw_run_header.hpp>
#include <parbench/plugin/paw_transfer_settings.hpp>
#include <parbench/plugin/request.hpp>
#include <parbench/report/paw_context.hpp>
#include <parbench/report/paw_header.hpp>
#include <parbench/report/result.hpp>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace parbench;

// PAW's names first, then the aliases; none is part of the suite's default run.
constexpr parbench_benchmark paw_benchmarks[] = {
    {"phi_alloc_al_in", "PAW Phi test: host to device, aligned host buffer, device memory allocated per transfer",
     "host_device_transfer", 0u},
    {"phi_alloc_al_out", "PAW Phi test: device to host, aligned host buffer, device memory allocated per transfer",
     "host_device_transfer", 0u},
    {"phi_alloc_al_inout", "PAW Phi test: host to device and back, aligned host buffer, device memory allocated per transfer",
     "host_device_transfer", 0u},
    {"phi_alloc_noal_in", "PAW Phi test: host to device, unaligned host buffer, device memory allocated per transfer",
     "host_device_transfer", 0u},
    {"phi_alloc_noal_out", "PAW Phi test: device to host, unaligned host buffer, device memory allocated per transfer",
     "host_device_transfer", 0u},
    {"phi_alloc_noal_inout", "PAW Phi test: host to device and back, unaligned host buffer, device memory allocated per transfer",
     "host_device_transfer", 0u},
    {"phi_keep_al_in", "PAW Phi test: host to device, aligned host buffer, device memory kept",
     "host_device_transfer", 0u},
    {"phi_keep_al_out", "PAW Phi test: device to host, aligned host buffer, device memory kept",
     "host_device_transfer", 0u},
    {"phi_keep_al_inout", "PAW Phi test: host to device and back, aligned host buffer, device memory kept",
     "host_device_transfer", 0u},
    {"phi_keep_noal_in", "PAW Phi test: host to device, unaligned host buffer, device memory kept",
     "host_device_transfer", 0u},
    {"phi_keep_noal_out", "PAW Phi test: device to host, unaligned host buffer, device memory kept",
     "host_device_transfer", 0u},
    {"phi_keep_noal_inout", "PAW Phi test: host to device and back, unaligned host buffer, device memory kept",
     "host_device_transfer", 0u},
    {"offload_alloc_aligned_in", "alias of phi_alloc_al_in", "host_device_transfer", 0u},
    {"offload_alloc_aligned_out", "alias of phi_alloc_al_out", "host_device_transfer", 0u},
    {"offload_alloc_aligned_inout", "alias of phi_alloc_al_inout", "host_device_transfer", 0u},
    {"offload_alloc_unaligned_in", "alias of phi_alloc_noal_in", "host_device_transfer", 0u},
    {"offload_alloc_unaligned_out", "alias of phi_alloc_noal_out", "host_device_transfer", 0u},
    {"offload_alloc_unaligned_inout", "alias of phi_alloc_noal_inout", "host_device_transfer", 0u},
    {"offload_keep_aligned_in", "alias of phi_keep_al_in", "host_device_transfer", 0u},
    {"offload_keep_aligned_out", "alias of phi_keep_al_out", "host_device_transfer", 0u},
    {"offload_keep_aligned_inout", "alias of phi_keep_al_inout", "host_device_transfer", 0u},
    {"offload_keep_unaligned_in", "alias of phi_keep_noal_in", "host_device_transfer", 0u},
    {"offload_keep_unaligned_out", "alias of phi_keep_noal_out", "host_device_transfer", 0u},
    {"offload_keep_unaligned_inout", "alias of phi_keep_noal_inout", "host_device_transfer", 0u},
};
static_assert(std::size(paw_benchmarks) == 2 * offload::transfer_tests.size());

constexpr auto paw_parameters = paw::join(
    std::array<parbench_parameter, 5>{{
        {"device", "D[,D...]|all",
         "offload devices: the first is measured alone, all named at once (suffix _dev0+1)",
         "0, and 0+1 at once when two or more devices exist", PARBENCH_ARITY_ONE},
        {"min_size", "BYTES", "smallest transfer (overrides MIN_PHI_SIZE)", "256", PARBENCH_ARITY_ONE},
        {"med_size", "BYTES", "warm-up transfer size (overrides MED_PHI_SIZE)", "8192",
         PARBENCH_ARITY_ONE},
        {"max_size", "BYTES", "largest transfer (overrides MAX_PHI_SIZE)", "614400000",
         PARBENCH_ARITY_ONE},
        {"sizes", "B1,B2,...", "explicit ascending list of transfer sizes in bytes", nullptr,
         PARBENCH_ARITY_ONE},
    }},
    paw::loop_parameters("upper bound of transfers per timed loop (overrides NLOOP_PHI_MAX)", "100"));

constexpr parbench_suite offload_suites[] = {
    {"paw",
     "TACC PAW Xeon Phi transfer tests on OpenMP target offload (phi_*; run when named)",
     paw_benchmarks, std::size(paw_benchmarks), paw_parameters.data(), paw_parameters.size(),
     PARBENCH_SUITE_DAT_FILES},
};

nlohmann::json env_or_null(const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr ? nlohmann::json(v) : nlohmann::json(nullptr);
}

// What kind of device an offload triple means, for the record.
std::string device_kind(const std::string& targets) {
    if (targets.find("x86_64") != std::string::npos)
        return "x86_64 offload device (libomptarget's host plugin: device memory is a separate "
               "allocation in host memory, in this process; copies are memcpy through "
               "libomptarget)";
    if (targets.find("nvptx") != std::string::npos) return "NVIDIA GPU (" + targets + ")";
    if (targets.find("amdgcn") != std::string::npos) return "AMD GPU (" + targets + ")";
    return "offload device (" + targets + ")";
}

// __clang_version__ ends in a space.
std::string compiler_text(const offload::omp_functions& omp) {
    std::string text = omp.compiler();
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
}

// From the build's settings alone: `parbench list` does not open the layer.
const char* backend_info() {
    return "OpenMP offload (libomptarget), targets " PARBENCH_OMP_TARGETS ", built with "
           PARBENCH_OMP_COMPILER "; the offload runtime is loaded when an offload test runs";
}

// The layer's functions, the layer opened from this plugin's directory on first use.
const offload::omp_functions& omp_layer() {
    static const offload::omp_functions functions = offload::functions_of(
        plugin::companion_library::beside(reinterpret_cast<const void*>(&backend_info),
                                          offload::omp_layer_file));
    return functions;
}

parbench_status init(const parbench_init_args*, char* error, std::size_t error_size) {
    return plugin::guarded(error, error_size, [] {});
}

parbench_status finalize(char* error, std::size_t error_size) {
    return plugin::guarded(error, error_size, [] {});
}

void run_paw(const char* request_json, const parbench_host* host) {
    const run_request request = parse_run_request(request_json, "offload plugin");
    if (request.suite != "paw")
        throw input_error("offload plugin: unknown suite '" + request.suite +
                          "' (it offers: paw)");
    const auto tests = offload::resolve_tests(request.benchmarks);
    const plugin::host_channel channel(host);
    if (tests.empty()) {  // none of these tests runs by default
        channel.warning("paw: the offload tests (phi_*, offload_*) run only when named; "
                        "'parbench list' shows them");
        return;
    }
    // PAW's transfer tests are one process driving its devices; several ranks would each
    // report the same rows (every rank returns the same status here).
    if (const parbench_comm_service* comm = channel.comm(); comm != nullptr && comm->size() > 1)
        throw input_error("paw: the offload tests run in one process (" +
                          std::to_string(comm->size()) + " were started): run them without "
                          "mpiexec");
    const auto cfg = paw::parse_transfer_settings(request, paw::process_environment(),
                                                  paw::phi_family, {"device"});

    const offload::omp_functions& omp = omp_layer();
    const offload::device_census census = offload::take_census(omp);
    if (const std::string why =
            offload::no_device_reason(census, std::getenv("OMP_TARGET_OFFLOAD"));
        !why.empty())
        throw std::runtime_error("offload: " + why);
    const bool chosen_by_user = request.options.contains("device");
    const auto chosen = paw::parse_devices(request, census.count);
    const auto plan = offload::plan_devices(chosen, chosen_by_user, census.count);
    std::vector<int> used{plan.single};
    for (const int d : plan.concurrent)
        if (std::find(used.begin(), used.end(), d) == used.end()) used.push_back(d);
    for (const int d : used) offload::verify_offload_device(omp, census, d);

    const clock_characteristics clock = measure_clock(monotonic_clock{});
    const double timer_threshold_s = std::max(clock.resolution_s, clock.overhead_s);
    const bool x86_device = census.targets.find("x86_64") != std::string::npos;
    const std::string kind = device_kind(census.targets);

    run_start start;
    start.suite = "paw";
    start.layout = "paw";
    start.title = "PAW (TACC Performance Assessment Workbench) compatible offload transfer tests "
                  "(Xeon Phi tests on OpenMP target offload)";
    for (const auto* t : tests) {
        start.benchmarks.push_back(offload::title_of(*t, {plan.single}));
        if (!plan.concurrent.empty())
            start.benchmarks.push_back(offload::title_of(*t, plan.concurrent));
    }
    report::paw_header header =
        paw::transfer_header("offload", cfg, timer_threshold_s, "bytes per transfer");
    header.offload = report::paw_header_offload{
        .device = plan.single, .concurrent_devices = plan.concurrent, .device_kind = kind};
    start.header = header;  // report/paw_header.hpp
    nlohmann::json& c = start.context;
    c = report::paw_context{  // report/paw_context.hpp
        .processes = 1,
        .timer = paw::context_timer(clock)};
    c["timer_threshold_s"] = timer_threshold_s;
    nlohmann::json devices = nlohmann::json::array();
    for (const int d : used)
        devices.push_back({{"id", d},
                           {"kind", kind},
                           {"verified", "offload device, not the host; copies move data between "
                                        "separate memories (checked before timing)"}});
    c["offload"] = {{"runtime", "libomptarget"},
                    {"runtime_library", omp.runtime_path()},
                    {"targets", census.targets},
                    {"compiler", compiler_text(omp)},
                    {"openmp_version", omp.openmp_version()},
                    {"device_count", census.count},
                    {"initial_device", census.initial_device},
                    {"device_kind", kind},
                    {"devices", devices},
                    {"host_alignment_bytes", pattern::host_alignment},
                    {"unaligned_offset_bytes", 1}};
    c["environment"] = {{"OMP_TARGET_OFFLOAD", env_or_null("OMP_TARGET_OFFLOAD")},
                        {"OMP_DEFAULT_DEVICE", env_or_null("OMP_DEFAULT_DEVICE")},
                        {"LIBOMPTARGET_INFO", env_or_null("LIBOMPTARGET_INFO")},
                        {"NLOOP_PHI_MAX", env_or_null("NLOOP_PHI_MAX")},
                        {"NLOOP_MIN", env_or_null("NLOOP_MIN")},
                        {"NREPS", env_or_null("NREPS")},
                        {"MIN_PHI_SIZE", env_or_null("MIN_PHI_SIZE")},
                        {"MED_PHI_SIZE", env_or_null("MED_PHI_SIZE")},
                        {"MAX_PHI_SIZE", env_or_null("MAX_PHI_SIZE")}};
    c["options"] = {{"sizes", cfg.sizes},
                    {"nreps", cfg.policy.nreps},
                    {"nloop_max", cfg.policy.nloop_max},
                    {"nloop_min", cfg.policy.nloop_min},
                    {"time", cfg.policy.budget_s},
                    {"min_loop_time", cfg.policy.min_loop_s},
                    {"device", chosen},
                    {"sources", cfg.sources}};
    channel.run_started(start);
    if (x86_device)
        channel.warning("offload devices are libomptarget's x86_64 host devices: the figures are "
                        "copies between two buffers in host memory (plus libomptarget's per-call "
                        "cost), not a host-device link; for a GPU build with "
                        "-Doffload_targets=nvptx64-nvidia-cuda and a clang that supports it");

    offload::omp_device_layer layer(omp);
    offload::sweep_hooks hooks;
    hooks.before_size = [&](const std::string& title, std::uint64_t bytes) {
        channel.progress(title, bytes, 1);
    };
    hooks.on_record = [&](const result_record& r) { channel.result(r); };
    hooks.on_warning = [&](const std::string& w) { channel.warning(w); };
    for (const auto* t : tests) {
        offload::run_transfer_test(layer, *t, {plan.single}, cfg, timer_threshold_s, x86_device,
                                   hooks);
        if (!plan.concurrent.empty())
            offload::run_transfer_test(layer, *t, plan.concurrent, cfg, timer_threshold_s,
                                       x86_device, hooks);
    }
}

parbench_status run(const char* request_json, const parbench_host* host, char* error,
                     std::size_t error_size) {
    return plugin::guarded(error, error_size, [&] { run_paw(request_json, host); });
}

const parbench_plugin offload_plugin = {
    PARBENCH_ABI_MAJOR,
    PARBENCH_ABI_MINOR,
    sizeof(parbench_plugin),
    "offload",
    "0.1.0",
    backend_info,
    init,
    finalize,
    offload_suites,
    std::size(offload_suites),
    nullptr,
    run,
    nullptr,  // parameter_types (ABI 1.1): all text
    0,
    {},
};

}  // namespace

PARBENCH_PLUGIN_ENTRY(offload_plugin)
