// `-accelerator cuda` (OSU's -d cuda) for the MPI plugin's suites: message buffers in CUDA device memory, for an
// MPI library that accepts device pointers (CUDA-aware). Whether it does is asked of the library at run time — MPICH's
// MPIX_GPU_query_support, Open MPI's MPIX_Query_cuda_support — and a library that is not
// CUDA-aware (or cannot say) gets a clear refusal instead of a crash inside MPI_Send.
//
// The CUDA runtime is opened with dlopen when -accelerator cuda is asked for: the MPI plugin
// itself links no CUDA, so it builds and runs unchanged where there is none.
#pragma once

#include <parbench/core/buffers.hpp>
#include <parbench/core/error.hpp>
#include <parbench/mpi/environment.hpp>

#include <dlfcn.h>
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI: MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support()
#endif

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

namespace parbench::mpi_plugin {

struct cuda_awareness {
    bool aware = false;
    std::string how;  // what was asked, and what it answered
};

// Asks the MPI library whether it takes CUDA device pointers. Call after MPI_Init.
[[nodiscard]] inline cuda_awareness query_cuda_awareness() {
#if defined(MPIX_GPU_SUPPORT_CUDA)  // MPICH 4.0 and later
    int supported = 0;
    if (MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &supported) != MPI_SUCCESS)
        return {false, "MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA) failed"};
    return {supported != 0, std::string("MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA) says ") +
                                (supported != 0 ? "yes" : "no")};
#elif defined(MPIX_CUDA_AWARE_SUPPORT)  // Open MPI: built with CUDA or not, then asked
    // The run-time query means something only in a library built with CUDA (Open MPI's
    // MPIX_Query_cuda_support(3)); Debian's Open MPI 4.1 has the query and says 0 at build time.
    if (MPIX_CUDA_AWARE_SUPPORT == 0)
        return {false, "Open MPI was built without CUDA: MPIX_CUDA_AWARE_SUPPORT is 0"};
    const int supported = MPIX_Query_cuda_support();
    return {supported != 0, std::string("MPIX_Query_cuda_support() says ") +
                                (supported != 0 ? "yes" : "no")};
#else
    return {false, "this MPI library offers no query for CUDA support"};
#endif
}

namespace detail {

// The few CUDA runtime entry points -accelerator cuda needs, opened at run time.
struct cuda_runtime {
    using malloc_fn = int (*)(void**, std::size_t);
    using free_fn = int (*)(void*);
    using memset_fn = int (*)(void*, int, std::size_t);
    using count_fn = int (*)(int*);
    using set_fn = int (*)(int);
    using sync_fn = int (*)();
    using bus_id_fn = int (*)(char*, int, int);
    using managed_fn = int (*)(void**, std::size_t, unsigned);
    using copy_fn = int (*)(void*, const void*, std::size_t, int);
    malloc_fn malloc = nullptr;
    free_fn free = nullptr;
    memset_fn memset = nullptr;
    count_fn device_count = nullptr;
    set_fn set_device = nullptr;
    sync_fn synchronize = nullptr;
    bus_id_fn pci_bus_id = nullptr;  // optional: the placement names the device by it
    managed_fn malloc_managed = nullptr;  // optional: managed (unified) memory, OSU's -d M
    copy_fn memcpy = nullptr;  // -check's copies in and out of device memory (OSU's -d with -c)
    std::string problem;  // why it could not be opened; empty when it could
};

inline cuda_runtime& runtime() {
    static cuda_runtime r = [] {
        cuda_runtime c;
        void* lib = nullptr;
        for (const char* name : {"libcudart.so.13", "libcudart.so.12", "libcudart.so"})
            if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
        if (lib == nullptr) {
            c.problem = "cannot load the CUDA runtime (libcudart.so.13/.12/.so not found)";
            return c;
        }
        c.malloc = reinterpret_cast<cuda_runtime::malloc_fn>(dlsym(lib, "cudaMalloc"));
        c.free = reinterpret_cast<cuda_runtime::free_fn>(dlsym(lib, "cudaFree"));
        c.memset = reinterpret_cast<cuda_runtime::memset_fn>(dlsym(lib, "cudaMemset"));
        c.device_count = reinterpret_cast<cuda_runtime::count_fn>(dlsym(lib, "cudaGetDeviceCount"));
        c.set_device = reinterpret_cast<cuda_runtime::set_fn>(dlsym(lib, "cudaSetDevice"));
        c.synchronize = reinterpret_cast<cuda_runtime::sync_fn>(dlsym(lib, "cudaDeviceSynchronize"));
        c.pci_bus_id = reinterpret_cast<cuda_runtime::bus_id_fn>(dlsym(lib, "cudaDeviceGetPCIBusId"));
        c.malloc_managed =
            reinterpret_cast<cuda_runtime::managed_fn>(dlsym(lib, "cudaMallocManaged"));
        c.memcpy = reinterpret_cast<cuda_runtime::copy_fn>(dlsym(lib, "cudaMemcpy"));
        if (!c.malloc || !c.free || !c.memset || !c.device_count || !c.set_device ||
            !c.synchronize || !c.memcpy)
            c.problem =
                "the CUDA runtime lacks cudaMalloc/cudaFree/cudaMemset/cudaMemcpy/cudaSetDevice";
        return c;
    }();
    return r;
}

inline void* device_allocate(std::size_t bytes) {
    void* p = nullptr;
    return runtime().malloc(&p, bytes) == 0 ? p : nullptr;
}
inline void device_release(void* p) { (void)runtime().free(p); }
// Managed memory visible to every device and the host (cudaMemAttachGlobal, as OSU 7.5's
// allocate_managed_buffer asks it, osu_util_mpi.c:2437-2451); cudaFree releases it.
inline void* managed_allocate(std::size_t bytes) {
    constexpr unsigned attach_global = 1;  // cudaMemAttachGlobal
    void* p = nullptr;
    return runtime().malloc_managed(&p, bytes, attach_global) == 0 ? p : nullptr;
}
inline void device_zero(void* p, std::size_t bytes) {
    // cudaMemset is asynchronous to the host: the buffer must be zero before MPI reads it.
    (void)runtime().memset(p, 0, bytes);
    (void)runtime().synchronize();
}

// Into and out of device (or managed) memory, as OSU 7.5's validation copies them
// (cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, then cudaDeviceSynchronize:
// osu_util_mpi.c:1152-1157, :1734-1736).
inline void device_copy_in(void* in_space, const void* host, std::size_t bytes) {
    constexpr int host_to_device = 1;  // cudaMemcpyHostToDevice
    (void)runtime().memcpy(in_space, host, bytes, host_to_device);
    (void)runtime().synchronize();
}
inline void device_copy_out(void* host, const void* in_space, std::size_t bytes) {
    constexpr int device_to_host = 2;  // cudaMemcpyDeviceToHost
    (void)runtime().memcpy(host, in_space, bytes, device_to_host);
    (void)runtime().synchronize();
}

// The device cuda_memory_space() selected for this process (-1: none yet).
struct cuda_device {
    int index = -1;
    std::string pci_bus_id;  // "0000:65:00.0"; "" where the runtime cannot say
};
inline cuda_device& selected_device() {
    static cuda_device d;
    return d;
}

}  // namespace detail

// The device memory space for this process, on device (node-local rank mod device count).
// Throws input_error naming what is missing: a CUDA-aware MPI, the runtime, a device. Collective
// over MPI_COMM_WORLD; every rank asks the same library, so every rank refuses alike.
[[nodiscard]] inline const memory_space* cuda_memory_space() {
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int node_local_rank = 0;
    MPI_Comm_rank(node, &node_local_rank);
    MPI_Comm_free(&node);
    const cuda_awareness awareness = query_cuda_awareness();
    // mpi::library_version(): Open MPI counts the terminating NUL in the length it returns.
    std::string library = mpi::library_version();
    library = library.substr(0, library.find_first_of("\r\n"));
    for (char& c : library)
        if (c == '\t') c = ' ';  // MPICH writes "MPICH Version:\t4.0.2" 
    if (!awareness.aware)
        throw input_error("-accelerator cuda: the MPI library is not CUDA-aware (" + awareness.how + "; " +
                          library +
                          "): device buffers need an MPI built with CUDA support (MPICH "
                          "--with-cuda, Open MPI with CUDA/UCX, MVAPICH2-GDR)");
    auto& cuda = detail::runtime();
    if (!cuda.problem.empty()) throw input_error("-accelerator cuda: " + cuda.problem);
    int devices = 0;
    if (cuda.device_count(&devices) != 0 || devices == 0)
        throw input_error("-accelerator cuda: no CUDA device on this node");
    if (cuda.set_device(node_local_rank % devices) != 0)
        throw input_error("-accelerator cuda: cannot select CUDA device " +
                          std::to_string(node_local_rank % devices));
    detail::cuda_device& chosen = detail::selected_device();
    chosen.index = node_local_rank % devices;
    std::array<char, 64> bus{};
    if (cuda.pci_bus_id != nullptr &&
        cuda.pci_bus_id(bus.data(), static_cast<int>(bus.size()), chosen.index) == 0)
        chosen.pci_bus_id.assign(bus.data(), strnlen(bus.data(), bus.size()));
    static const memory_space space{"cuda", detail::device_allocate, detail::device_release,
                                    detail::device_zero, detail::device_copy_in,
                                    detail::device_copy_out};
    return &space;
}

// Managed (unified) memory on the device cuda_memory_space() selected: call that first (it is
// collective and says why there is no device); this one is not collective. Throws input_error
// where the runtime has no cudaMallocManaged.
[[nodiscard]] inline const memory_space* cuda_managed_memory_space() {
    if (detail::runtime().malloc_managed == nullptr)
        throw input_error("-accelerator cuda: the CUDA runtime lacks cudaMallocManaged");
    static const memory_space space{"cuda-managed", detail::managed_allocate,
                                    detail::device_release, detail::device_zero,
                                    detail::device_copy_in, detail::device_copy_out};
    return &space;
}

// Every process's GPU, by world rank, for the run's placement (issue 24: "its GPU where one is
// used"): [{"device": N, "pci_bus_id": "..."}], null for a process that selected none.
// Collective over `comm`; call after cuda_memory_space().
struct gpu_of_process {
    int device = -1;
    std::array<char, 32> pci_bus_id{};  // NUL-terminated, as cudaDeviceGetPCIBusId writes it
};
[[nodiscard]] inline nlohmann::json gpus_as_json(const std::vector<gpu_of_process>& all) {
    nlohmann::json out = nlohmann::json::array();
    for (const gpu_of_process& g : all) {
        if (g.device < 0) {
            out.push_back(nullptr);
            continue;
        }
        out.push_back({{"device", g.device},
                       {"pci_bus_id", std::string(g.pci_bus_id.data(),
                                                  strnlen(g.pci_bus_id.data(), g.pci_bus_id.size()))}});
    }
    return out;
}
[[nodiscard]] inline nlohmann::json gpus_of_processes(MPI_Comm comm) {
    const detail::cuda_device& mine = detail::selected_device();
    gpu_of_process sent;
    sent.device = mine.index;
    std::memcpy(sent.pci_bus_id.data(), mine.pci_bus_id.data(),
                std::min(mine.pci_bus_id.size(), sent.pci_bus_id.size() - 1));
    int size = 0;
    MPI_Comm_size(comm, &size);
    std::vector<gpu_of_process> all(static_cast<std::size_t>(size));
    MPI_Allgather(&sent, sizeof sent, MPI_BYTE, all.data(), sizeof sent, MPI_BYTE, comm);
    return gpus_as_json(all);
}

}  // namespace parbench::mpi_plugin
