// parbench's pinned host-to-device and device-to-host transfers against a plain cudaMemcpyAsync
// loop timed with CUDA events, alternating in one process (needs a GPU).
//
// "parbench" is the whole plugin path: parbench_cuda.so is dlopen'ed and asked, through the C
// ABI, to run `paw gpu_in_pinned gpu_out_pinned --sizes S --method both`; its rates are the
// result events' median-based GB/s, for the events method and for PAW's host-clock method.
// "plain" is what a user would write: NLOOP cudaMemcpyAsync calls between two events on a stream
// of its own, median of repetitions; "held" is the same loop with the stream held by the spin
// kernel while the batch is queued — the events method done by hand, without parbench. Rounds
// alternate so drift in the machine hits all; the verdict is the median ratio events/held over
// rounds (parbench's own cost), which must be >= 0.98 at every size. held/plain shows what the
// method itself changes (measured on an H100: pre-queued 64 KiB device-to-host copies run 4 %
// slower than copies queued while earlier ones run, host-to-device ones 4 % faster), and PAW's
// method is reported beside them (it includes each copy's launch and synchronisation latency).
//
//   gpu_transfer_overhead PARBENCH_CUDA_SO [ROUNDS] [BYTES...]   (3 rounds; 64 KiB, 1 MiB, 256 MiB)
#include <parbench/core/statistics.hpp>
#include <parbench/plugin/abi.h>

#include "hold_stream.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

// (test, timing) -> GB/s of the one size run
using rates = std::map<std::pair<std::string, std::string>, double>;

void on_event(void* context, const char* text) {
    const auto event = nlohmann::json::parse(text);
    if (event.at("event") != "result") return;
    const auto& block = event.at("block");
    (*static_cast<rates*>(context))[{event.at("benchmark").get<std::string>(),
                                     block.value("timing", std::string{})}] =
        event.at("metrics").at("gb_per_s_median").get<double>();
}
void on_progress(void*, const char*, std::uint64_t, int) {}

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        fmt::print(stderr, "error: {}: {}\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

// Copies per timed repetition: enough that one repetition lasts well over the event resolution.
std::uint64_t copies_for(std::uint64_t bytes) {
    return bytes <= (1u << 16) ? 200 : bytes <= (1u << 20) ? 50 : 4;
}

rates parbench_rates(const parbench_plugin* plugin, std::uint64_t bytes) {
    const auto loop = std::to_string(copies_for(bytes));
    const nlohmann::json request = {
        {"suite", "paw"},
        {"benchmarks", {"gpu_in_pinned", "gpu_out_pinned"}},
        {"options",
         {{"sizes", std::to_string(bytes)},
          {"nreps", "10"},
          {"time", "86400"},
          {"method", "both"},
          {"nloop_min", loop},  // the plain loop's length, so both time the same work
          {"nloop_max", loop}}}};
    rates result;
    parbench_host host{sizeof(parbench_host), &result, on_event, on_progress, nullptr, {}};
    char error[512] = {};
    if (plugin->run(request.dump().c_str(), &host, error, sizeof error) != PARBENCH_OK) {
        fmt::print(stderr, "error: {}\n", error);
        std::exit(1);
    }
    return result;
}

// A plain loop: `copies` cudaMemcpyAsync between two events, 10 repetitions, median. With
// `held`, the stream is held by the spin kernel while the batch is queued (the method alone,
// without parbench around it), which tells the method's effect from parbench's overhead.
double plain_rate(std::uint64_t bytes, cudaMemcpyKind kind, bool held = false) {
    void* host = nullptr;
    void* device = nullptr;
    check(cudaMallocHost(&host, bytes), "cudaMallocHost");
    check(cudaMalloc(&device, bytes), "cudaMalloc");
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    const bool in = kind == cudaMemcpyHostToDevice;
    const auto copy = [&] {
        check(cudaMemcpyAsync(in ? device : host, in ? host : device, bytes, kind, stream),
              "cudaMemcpyAsync");
    };
    copy();  // warm-up
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    const std::uint64_t copies = copies_for(bytes);
    volatile int* flags = nullptr;
    check(cudaHostAlloc(reinterpret_cast<void**>(const_cast<int**>(&flags)), 2 * sizeof(int),
                        cudaHostAllocMapped),
          "cudaHostAlloc");
    std::vector<double> seconds;
    for (int rep = 0; rep < 10; ++rep) {
        flags[0] = 0;
        flags[1] = 0;
        if (held) check(parbench_cuda_hold_stream(stream, flags, 4000000000LL), "hold kernel");
        check(cudaEventRecord(start, stream), "cudaEventRecord");
        for (std::uint64_t i = 0; i < copies; ++i) copy();
        check(cudaEventRecord(stop, stream), "cudaEventRecord");
        flags[0] = 1;
        check(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float ms = 0.0f;
        check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        seconds.push_back(static_cast<double>(ms) * 1e-3 / static_cast<double>(copies));
    }
    check(cudaFreeHost(const_cast<int*>(flags)), "cudaFreeHost");
    check(cudaEventDestroy(start), "cudaEventDestroy");
    check(cudaEventDestroy(stop), "cudaEventDestroy");
    check(cudaStreamDestroy(stream), "cudaStreamDestroy");
    check(cudaFree(device), "cudaFree");
    check(cudaFreeHost(host), "cudaFreeHost");
    return static_cast<double>(bytes) / parbench::summarize(seconds).median / 1e9;
}

double median(std::vector<double> v) { return parbench::summarize(v).median; }

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        fmt::print(stderr, "usage: {} PARBENCH_CUDA_SO [ROUNDS] [BYTES...]\n", argv[0]);
        return 2;
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        fmt::print("SKIP: no CUDA device: this benchmark measures a GPU\n");
        return 77;
    }
    void* so = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    const auto entry = so != nullptr ? reinterpret_cast<parbench_entry_fn>(dlsym(so, PARBENCH_ENTRY_SYMBOL))
                                     : nullptr;
    if (entry == nullptr) {
        fmt::print(stderr, "error: cannot load {}: {}\n", argv[1], dlerror());
        return 1;
    }
    const parbench_plugin* plugin = entry();
    const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
    std::vector<std::uint64_t> sizes;
    for (int i = 3; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
    if (sizes.empty()) sizes = {1u << 16, 1u << 20, 1u << 28};

    bool ok = true;
    fmt::print("{:>10} {:>4} {:>11} {:>12} {:>12} {:>13} {:>13} {:>10} {:>10}\n", "bytes", "dir",
               "plain GB/s", "held GB/s", "held/plain", "events GB/s", "events/held",
               "PAW GB/s", "PAW/plain");
    for (const auto bytes : sizes) {
        for (const auto& [test, kind, dir] :
             {std::tuple{"gpu_in_pinned", cudaMemcpyHostToDevice, "in"},
              std::tuple{"gpu_out_pinned", cudaMemcpyDeviceToHost, "out"}}) {
            std::vector<double> plain, held, events, paw, events_ratio, paw_ratio, held_ratio;
            for (int r = 0; r < rounds; ++r) {
                // Alternate which side goes first, so neither always runs on a warmer machine.
                rates p;
                double q = 0.0;
                if (r % 2 == 0) {
                    p = parbench_rates(plugin, bytes);
                    q = plain_rate(bytes, kind);
                } else {
                    q = plain_rate(bytes, kind);
                    p = parbench_rates(plugin, bytes);
                }
                const double e = p.at({test, "cuda_events"});
                const double h = p.at({test, ""});
                if (!(q > 0.0) || !(e > 0.0) || !(h > 0.0)) {
                    fmt::print(stderr, "error: nothing measured at {} bytes ({})\n", bytes, test);
                    return 1;
                }
                const double w = plain_rate(bytes, kind, true);
                held.push_back(w);
                held_ratio.push_back(w / q);
                plain.push_back(q);
                events.push_back(e);
                paw.push_back(h);
                events_ratio.push_back(e / w);
                paw_ratio.push_back(h / q);
            }
            const double ratio = median(events_ratio);
            fmt::print("{:>10} {:>4} {:>11.2f} {:>12.2f} {:>12.3f} {:>13.2f} {:>13.3f} {:>10.2f} "
                       "{:>10.3f}\n",
                       bytes, dir, median(plain), median(held), median(held_ratio), median(events),
                       ratio, median(paw), median(paw_ratio));
            if (ratio < 0.98) ok = false;
        }
    }
    fmt::print("{}\n", ok ? "parbench's events method within 2 % of the same method by hand at every size"
                          : "FAILED: parbench's events method below 0.98 of the held loop at some size");
    return ok ? 0 : 1;
}
