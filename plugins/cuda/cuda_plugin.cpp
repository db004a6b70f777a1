// parbench's CUDA plugin: PAW's GPU tests (catalogue C.8) in the `paw` suite — host-device
// transfers with pinned and pageable host memory, and cuBLAS DGEMM/SGEMM — timed with PAW's
// NLOOP/NREPS method. Beside PAW's method (host clock around synchronous cudaMemcpy) the pinned
// transfers are also timed the modern way (CUDA events on a stream held by a spin kernel while
// the batch is queued); the record names the method. Needs no MPI and no GPU to build; without a
// device it says why and runs nothing. cuBLAS is not linked: its layer is opened when a run with
// a GEMM test starts (cublas_functions.hpp).
#include "cublas_functions.hpp"
#include "cuda_error.hpp"
#include "devices.hpp"
#include "event_timed_transfer.hpp"
#include "gemm.hpp"
#include "gpu_tests.hpp"
#include "runtime_layer.hpp"

#include <parbench/core/clock.hpp>
#include <parbench/core/statistics.hpp>
#include <parbench/pattern/compute.hpp>
#include <parbench/pattern/offload_transfer.hpp>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/paw_parameters.hpp>
#include <parbench/plugin/paw_run_header.hpp>
#include <parbench/plugin/paw_transfer_settings.hpp>
#include <parbench/plugin/paw_transfer_sweep.hpp>
#include <parbench/plugin/request.hpp>
#include <parbench/policy/paw_nloop.hpp>
#include <parbench/report/paw_context.hpp>
#include <parbench/report/paw_header.hpp>
#include <parbench/report/paw_record.hpp>
#include <parbench/report/paw_transfer.hpp>
#include <parbench/report/result.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace parbench;
using cuda::gpu_test;
using cuda::gpu_test_kind;

constexpr std::array<parbench_benchmark, std::size(cuda::gpu_tests)> make_benchmarks() {
    std::array<parbench_benchmark, std::size(cuda::gpu_tests)> out{};
    for (std::size_t i = 0; i < out.size(); ++i) {
        const auto& t = cuda::gpu_tests[i];
        // Not part of `parbench run paw` without names: that runs the BLAS tests, on any machine.
        out[i] = {t.name, t.description,
                  t.kind == gpu_test_kind::gemm ? "compute" : "host_device_transfer", 0u};
    }
    return out;
}
constexpr auto gpu_benchmarks = make_benchmarks();

constexpr auto gpu_parameters = paw::join(
    std::array<parbench_parameter, 6>{{
        {"device", "ID[,ID...]|all",
         "CUDA devices to use; several: each alone, then all at once (files suffixed _dev0+1)", "0",
         PARBENCH_ARITY_ONE},
        {"method", "paw|events|both",
         "transfer timing: PAW's host clock around cudaMemcpy, CUDA events on a held stream (pinned "
         "memory only), or both",
         "both", PARBENCH_ARITY_ONE},
        {"min_size", "BYTES|N", "smallest transfer in bytes / matrix order (overrides MIN_GPU_SIZE, MIN_GPU_BLAS_SIZE)",
         "128 / 8", PARBENCH_ARITY_ONE},
        {"med_size", "BYTES|N", "warm-up size (overrides MED_GPU_SIZE, MED_GPU_BLAS_SIZE)",
         "20000 / 1024", PARBENCH_ARITY_ONE},
        {"max_size", "BYTES|N", "largest size (overrides MAX_GPU_SIZE, MAX_GPU_BLAS_SIZE)",
         "200000000 / 9192", PARBENCH_ARITY_ONE},
        {"sizes", "S1,S2,...", "explicit ascending list of sizes (replaces min/max)", nullptr,
         PARBENCH_ARITY_ONE},
    }},
    paw::loop_parameters("upper bound of calls per timed loop (overrides NLOOP_MAX)", "1000"));

constexpr parbench_suite cuda_suites[] = {
    {"paw",
     "TACC PAW GPU tests: host-device transfers (pinned, pageable) and cuBLAS DGEMM/SGEMM",
     gpu_benchmarks.data(), gpu_benchmarks.size(), gpu_parameters.data(), gpu_parameters.size(),
     PARBENCH_SUITE_DAT_FILES},
};

// PAW's GPU BLAS sizes (table 2.1); NLOOP_MAX as the transfer tests.
constexpr paw::transfer_family gpu_blas_family{"MIN_GPU_BLAS_SIZE", "MED_GPU_BLAS_SIZE",
                                               "MAX_GPU_BLAS_SIZE", "NLOOP_MAX",
                                               8,                   1024,
                                               9192,                1000};

// CUDA events resolve about half a microsecond (CUDA Runtime API, cudaEventElapsedTime).
constexpr double event_resolution_s = 0.5e-6;

const cuda::device_census& census() {
    static const cuda::device_census c = cuda::take_census();
    return c;
}

const char* backend_info() {
    static const std::string text = [] {
        const auto& c = census();
        std::string s = "CUDA runtime " + cuda::version_text(c.runtime_version);
        if (c.driver_version > 0) s += ", driver API " + cuda::version_text(c.driver_version);
        if (c.devices.empty()) return s + "; no CUDA device: " + c.no_device_reason;
        for (const auto& d : c.devices) s += fmt::format("; device {}: {}", d.id, d.summary());
        return s;
    }();
    return text.c_str();
}

// The cuBLAS layer's functions, the layer opened from this plugin's directory on first use.
const cuda::cublas_functions& cublas_layer() {
    static const cuda::cublas_functions functions = cuda::functions_of(
        plugin::companion_library::beside(reinterpret_cast<const void*>(&backend_info),
                                          cuda::cublas_layer_file));
    return functions;
}

parbench_status init(const parbench_init_args*, char* error, std::size_t error_size) {
    return plugin::guarded(error, error_size, [] {});
}

parbench_status finalize(char* error, std::size_t error_size) {
    return plugin::guarded(error, error_size, [] {});
}

struct run_settings {
    std::vector<const gpu_test*> tests;
    const cuda::cublas_functions* blas = nullptr;  // when a GEMM test runs
    std::vector<int> devices;
    bool paw_method = true;
    bool event_method = true;
    paw::transfer_settings transfers;
    paw::transfer_settings gemms;
    double host_threshold_s = 0.0;
};

class gpu_run {
public:
    gpu_run(const run_settings& settings, const plugin::host_channel& channel)
        : s_(settings), channel_(channel) {
        hooks_.before_size = [this](const std::string& title, std::uint64_t n) {
            channel_.progress(title, n, 1);
        };
        hooks_.on_record = [this](result_record& r) { channel_.result(r); };
        hooks_.on_warning = [this](const std::string& w) { channel_.warning(w); };
    }

    void transfer(const gpu_test& t) {
        const bool several = s_.devices.size() > 1;
        const auto& sizes = s_.transfers.sizes;
        for (const int d : s_.devices) {
            const auto p = cuda::transfer_pattern(t, {d});
            const std::string title = std::string(t.name) + (several ? fmt::format("_dev{}", d) : "");
            if (s_.paw_method)
                paw::run_transfer_sweep({t.name, title, "", p}, sizes, s_.transfers, paw::gpu_family,
                                        s_.host_threshold_s,
                                        [&, d](std::uint64_t n) {
                                            return pattern::transfer_workload<cuda::runtime_layer>(
                                                layer_, p, n, d);
                                        },
                                        hooks_);
            if (s_.event_method && t.memory == pattern::host_memory::pinned) {
                const long long hold = hold_cycles(d);
                paw::run_transfer_sweep({t.name, title, "cuda_events", p}, sizes, s_.transfers,
                                        paw::gpu_family,
                                        std::max(s_.host_threshold_s, event_resolution_s),
                                        [&, d, hold](std::uint64_t n) {
                                            return cuda::event_timed_transfer(layer_, p, n, d, hold);
                                        },
                                        hooks_);
            }
        }
        if (several) {
            // PAW's dual-device form: every device at once, one host thread each.
            const auto p = cuda::transfer_pattern(t, s_.devices);
            paw::run_transfer_sweep(
                {t.name, std::string(t.name) + report::paw_device_suffix(s_.devices), "", p}, sizes,
                s_.transfers, paw::gpu_family, s_.host_threshold_s,
                [&](std::uint64_t n) {
                    return pattern::concurrent_transfer_workload<cuda::runtime_layer>(layer_, p, n);
                },
                hooks_);
        }
    }

    template <class T>
    void gemm(const gpu_test& t, bool check) {
        for (const int d : s_.devices) {
            const auto& info = census().devices.at(static_cast<std::size_t>(d));
            const std::string title =
                std::string(t.name) + (s_.devices.size() > 1 ? fmt::format("_dev{}", d) : "");
            // Operands that do not fit 80 % of the device's memory are not attempted.
            std::vector<std::uint64_t> sizes;
            std::vector<std::uint64_t> too_big;
            for (const auto n : s_.gemms.sizes)
                (3.0 * static_cast<double>(n) * static_cast<double>(n) * sizeof(T) >
                         0.8 * info.memory_gib * 1073741824.0
                     ? too_big
                     : sizes)
                    .push_back(n);
            if (!too_big.empty())
                channel_.warning(fmt::format("{}: matrix orders {} skipped: their operands exceed "
                                             "80 % of device {}'s memory",
                                             title, fmt::join(too_big, ", "), d));
            const std::optional<double> peak =
                sizeof(T) == 8 ? info.peak_fp64_gflops : info.peak_fp32_gflops;
            pattern::compute_sweep_config config;
            config.policy = s_.gemms.policy;
            config.timer_threshold_s = s_.host_threshold_s;
            config.warmup_size = sizes.empty() ? 0 : std::min(s_.gemms.med_bytes, sizes.back());
            config.cost_exponent = 3.0;
            const cuda::cublas_functions& blas = *s_.blas;
            const auto make = [&blas, d](std::uint64_t n) {
                return cuda::gemm_workload<T>(blas, d, n);
            };
            const auto on_result = [&](const pattern::compute_measurement& m) {
                channel_.result(gemm_record<T>(t, title, m, peak));
            };
            run_sweep(title, config, sizes, make, on_result);
            if (check && !sizes.empty()) {
                // The operands are deterministic: check a small product against the host.
                cuda::gemm_workload<T> probe(blas, d, std::min<std::uint64_t>(sizes.front(), 256));
                probe.run(1);
                if (const auto bad = probe.defects(64); bad != 0)
                    throw cuda::cuda_error(fmt::format(
                        "{}: {} of 64 sampled entries of C = A B differ from the host's product",
                        title, bad));
            }
        }
    }

private:
    long long hold_cycles(int device) const {
        // Two seconds of the device's clock: far longer than queuing any batch takes.
        const double mhz = census().devices.at(static_cast<std::size_t>(device)).sm_clock_mhz;
        return static_cast<long long>((mhz > 0.0 ? mhz : 2000.0) * 1e6 * 2.0);
    }

    template <class Make, class OnResult>
    void run_sweep(const std::string& title, const pattern::compute_sweep_config& config,
                   const std::vector<std::uint64_t>& sizes, Make&& make, OnResult&& on_result) {
        if (sizes.empty()) return;
        const auto before = [&](std::uint64_t n) { channel_.progress(title, n, 1); };
        const auto on_skip = [&](const pattern::compute_skip& skip) {
            channel_.warning(paw::budget_skip_message(title, skip, gpu_blas_family.max_variable));
        };
        monotonic_clock clock;
        pattern::run_compute_sweep(clock, config, sizes, std::forward<Make>(make), before,
                                   std::forward<OnResult>(on_result), on_skip);
    }

    template <class T>
    result_record gemm_record(const gpu_test& t, const std::string& title,
                              const pattern::compute_measurement& m,
                              const std::optional<double>& peak_gflops) const {
        result_record r =
            report::paw_measurement_record("paw", t.name, benchmark_class::compute, title, m);
        r.block.threads = 1;  // one device; PAW's file names carry a count here
        report::add_flop_rates(r, pattern::gemm_work(m.size), peak_gflops);
        return r;
    }

    const run_settings& s_;
    const plugin::host_channel& channel_;
    paw::transfer_sweep_hooks hooks_;
    cuda::runtime_layer layer_;
};

// Everything but the devices, which need the census: a typo is reported as a typo on any machine.
run_settings parse_settings(const run_request& request) {
    run_settings s;
    s.tests = cuda::select_gpu_tests(request.benchmarks);
    if (const auto it = request.options.find("method"); it != request.options.end()) {
        const std::string m = parbench::option_text("method", it->second);
        if (m == "paw")
            s.event_method = false;
        else if (m == "events")
            s.paw_method = false;
        else if (m != "both")
            throw input_error("--method '" + m + "': expected paw, events or both");
    }
    // The size options mean bytes for the transfer tests and matrix orders for the GEMMs, each
    // with its own PAW variables; each family is read only when one of its tests runs.
    const std::vector<std::string> own = {"device", "method"};
    const auto env = paw::process_environment();
    const auto runs = [&](gpu_test_kind kind) {
        return std::any_of(s.tests.begin(), s.tests.end(),
                           [kind](const gpu_test* t) { return t->kind == kind; });
    };
    if (runs(gpu_test_kind::transfer))
        s.transfers = paw::parse_transfer_settings(request, env, paw::gpu_family, own);
    if (runs(gpu_test_kind::gemm)) {
        s.gemms = paw::parse_transfer_settings(request, env, gpu_blas_family, own);
        for (const auto n : s.gemms.sizes)
            if (n > 46340)
                throw input_error("matrix order " + std::to_string(n) +
                                  " is out of range (at most 46340: cuBLAS indexes N*N with int)");
    }
    return s;
}

void run_gpu(const char* request_json, const parbench_host* host) {
    const run_request request = parse_run_request(request_json, "cuda plugin");
    if (request.suite != "paw")
        throw input_error("cuda plugin: unknown suite '" + request.suite + "' (it offers: paw)");
    const plugin::host_channel channel(host);
    if (channel.comm() != nullptr && channel.comm()->size() > 1)
        throw input_error("paw GPU tests run in one process (each process would share the "
                          "devices); run them without mpiexec");
    run_settings settings = parse_settings(request);
    // cuBLAS before the devices: a missing layer is reported on any machine.
    if (std::any_of(settings.tests.begin(), settings.tests.end(),
                    [](const gpu_test* t) { return t->kind == gpu_test_kind::gemm; }))
        settings.blas = &cublas_layer();
    const auto& c = census();
    if (c.devices.empty()) throw cuda::cuda_error("no CUDA device: " + c.no_device_reason);
    settings.devices = paw::parse_devices(request, static_cast<int>(c.devices.size()));
    settings.host_threshold_s = policy::iterations::timer_threshold_s(monotonic_clock{});

    run_start start;
    start.suite = "paw";
    start.layout = "paw";
    start.title = "PAW (TACC Performance Assessment Workbench) compatible GPU tests on CUDA";
    for (const auto* t : settings.tests) start.benchmarks.emplace_back(t->name);
    // The loop settings shown are the transfer tests', or the GEMMs' in a GEMM-only run.
    const bool any_transfer = !settings.transfers.sizes.empty();
    const auto& tr = any_transfer ? settings.transfers : settings.gemms;
    start.header = report::paw_header{  // report/paw_header.hpp
        .family = "gpu",
        .row_kinds =
            [&] {
                std::vector<std::string> kinds;
                if (any_transfer) kinds.emplace_back("transfer");
                if (!settings.gemms.sizes.empty()) kinds.emplace_back("gemm");
                return kinds;
            }(),
        .sizes = tr.sizes,
        .loops = paw::header_loops(tr.policy, settings.host_threshold_s),
        .size_meaning = "bytes per transfer; matrix order N for GEMM",
        .flop_count = "PAW: 2N^2(N+1) (GEMM); conventional: 2N^3",
        .bandwidth_unit = "GB/s = 10^9 bytes/s",
        .gemm_sizes = settings.gemms.sizes,
        .devices = settings.devices,
        .method =
            std::string(settings.paw_method ? "PAW (host clock around synchronous cudaMemcpy)"
                                            : "") +
            (settings.paw_method && settings.event_method ? " and " : "") +
            (settings.event_method ? "CUDA events on a held stream (pinned transfers)" : "")};
    report::paw_context context{.processes = 1};  // report/paw_context.hpp
    auto& used = context.devices.emplace();
    for (const int d : settings.devices)
        used.push_back(cuda::context_device(c.devices.at(static_cast<std::size_t>(d))));
    nlohmann::json& ctx = start.context;
    ctx = context;
    ctx["cuda_runtime"] = cuda::version_text(c.runtime_version);
    ctx["cuda_driver"] = cuda::version_text(c.driver_version);
    ctx["device_kind"] = "CUDA GPU";
    ctx["timer_threshold_s"] = settings.host_threshold_s;
    ctx["event_resolution_s"] = event_resolution_s;
    ctx["options"] = {{"transfer_sources", tr.sources}, {"gemm_sources", settings.gemms.sources}};
    channel.run_started(start);

    gpu_run run(settings, channel);
    for (const gpu_test* t : settings.tests) {
        if (t->kind == gpu_test_kind::transfer)
            run.transfer(*t);
        else if (t->double_precision)
            run.gemm<double>(*t, request.check);
        else
            run.gemm<float>(*t, request.check);
    }
}

parbench_status run(const char* request_json, const parbench_host* host, char* error,
                    std::size_t error_size) {
    return plugin::guarded(error, error_size, [&] { run_gpu(request_json, host); });
}

const parbench_plugin cuda_plugin = {
    PARBENCH_ABI_MAJOR,
    PARBENCH_ABI_MINOR,
    sizeof(parbench_plugin),
    "cuda",
    "0.1.0",
    backend_info,
    init,
    finalize,
    cuda_suites,
    std::size(cuda_suites),
    nullptr,
    run,
    nullptr,  // parameter_types (ABI 1.1): all text
    0,
    {},
};

}  // namespace

PARBENCH_PLUGIN_ENTRY(cuda_plugin)
