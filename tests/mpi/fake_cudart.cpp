// A stand-in for the CUDA runtime, for the placement test of -accelerator cuda on a machine
// without a GPU (tests/mpi/test_placement.py). Preloaded into every rank, it is both the library
// the MPI plugin's dlopen("libcudart.so.13") finds (its soname) and MPICH's answer to
// MPIX_GPU_query_support (yes), so the plugin's whole device path runs: device count, selection
// by node-local rank, allocation (host memory, which MPI can send), PCI bus id.
//   PARBENCH_FAKE_CUDA_DEVICES=N   devices on every node (default 2)
//   PARBENCH_FAKE_CUDA_LOG=PREFIX  each allocation appends "cudaMalloc BYTES ADDRESS" (or
//                                  cudaMallocManaged) to PREFIX.RANK, RANK the launcher's
//                                  PMI_RANK: which process's buffers went to the device; each
//                                  cudaMemcpy "cudaMemcpy BYTES TO FROM KIND" (-c's copies)
//   PARBENCH_FAKE_CUDA_ZERO_COPIED=1
//                                  every copy into the device (cudaMemcpyHostToDevice) delivers
//                                  its first byte as 0, every copy out of it its last: a check
//                                  that fills and reads device memory through copies sees both
// Device D's PCI bus id is "0000:XX:00.0" with XX = 0x10 + D in hexadecimal.
// No address is handed out twice in a process: each allocation is pages of its own mapping, and
// cudaFree gives their memory back but keeps the addresses (made inaccessible, never unmapped),
// so a buffer's address names the one allocation it came from (a test can tell device from
// managed memory by it) and a use after cudaFree faults.
#include <mpi.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
int device_count() {
    const char* text = std::getenv("PARBENCH_FAKE_CUDA_DEVICES");
    return text != nullptr ? std::atoi(text) : 2;
}
int current_device = 0;
constexpr int invalid_device = 101;  // cudaErrorInvalidDevice

// Pages of their own for `bytes`, after a page holding their length (for cudaFree); nullptr
// when the system has none.
void* map_pages(std::size_t bytes) {
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t length = page + (bytes + page - 1) / page * page;
    void* base = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return nullptr;
    std::memcpy(base, &length, sizeof length);
    return static_cast<char*>(base) + page;
}

// The pages' memory goes back to the system; their addresses stay taken, inaccessible.
void retire_pages(void* pointer) {
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    char* base = static_cast<char*>(pointer) - page;
    std::size_t length = 0;
    std::memcpy(&length, base, sizeof length);
    madvise(base, length, MADV_DONTNEED);
    mprotect(base, length, PROT_NONE);
}

// the address as a number: GCC takes a `const void*` argument for a read of the new memory
void log_allocation(const char* function, std::size_t bytes, std::uintptr_t address) {
    const char* prefix = std::getenv("PARBENCH_FAKE_CUDA_LOG");
    if (prefix == nullptr) return;
    const char* rank = std::getenv("PMI_RANK");
    char path[4096];
    std::snprintf(path, sizeof path, "%s.%s", prefix, rank != nullptr ? rank : "0");
    if (std::FILE* f = std::fopen(path, "a")) {
        std::fprintf(f, "%s %zu 0x%jx\n", function, bytes, static_cast<std::uintmax_t>(address));
        std::fclose(f);
    }
}
}  // namespace

extern "C" {

int cudaGetDeviceCount(int* count) {
    *count = device_count();
    return 0;
}
int cudaSetDevice(int device) {
    if (device < 0 || device >= device_count()) return invalid_device;
    current_device = device;
    return 0;
}
int cudaMalloc(void** pointer, std::size_t bytes) {
    *pointer = map_pages(bytes > 0 ? bytes : 1);
    if (*pointer == nullptr) return 2;  // cudaErrorMemoryAllocation
    log_allocation("cudaMalloc", bytes, reinterpret_cast<std::uintptr_t>(*pointer));
    return 0;
}
int cudaMallocManaged(void** pointer, std::size_t bytes, unsigned /*flags*/) {
    *pointer = map_pages(bytes > 0 ? bytes : 1);
    if (*pointer == nullptr) return 2;
    log_allocation("cudaMallocManaged", bytes, reinterpret_cast<std::uintptr_t>(*pointer));
    return 0;
}
int cudaFree(void* pointer) {
    if (pointer != nullptr) retire_pages(pointer);
    return 0;
}
int cudaMemset(void* pointer, int value, std::size_t bytes) {
    std::memset(pointer, value, bytes);
    return 0;
}
int cudaDeviceSynchronize() { return 0; }
int cudaDeviceGetPCIBusId(char* id, int length, int device) {
    if (device < 0 || device >= device_count()) return invalid_device;
    std::snprintf(id, static_cast<std::size_t>(length), "0000:%02X:00.0", 0x10 + device);
    return 0;
}
// Any way (every "device" address is host memory here); the kind only decides which byte
// PARBENCH_FAKE_CUDA_ZERO_COPIED zeroes.
int cudaMemcpy(void* to, const void* from, std::size_t bytes, int kind) {
    constexpr int host_to_device = 1;
    constexpr int device_to_host = 2;
    std::memmove(to, from, bytes);
    const char* zero = std::getenv("PARBENCH_FAKE_CUDA_ZERO_COPIED");
    if (zero != nullptr && std::strcmp(zero, "1") == 0 && bytes > 0) {
        if (kind == host_to_device) static_cast<unsigned char*>(to)[0] = 0;
        if (kind == device_to_host) static_cast<unsigned char*>(to)[bytes - 1] = 0;
    }
    const char* prefix = std::getenv("PARBENCH_FAKE_CUDA_LOG");
    if (prefix == nullptr) return 0;
    const char* rank = std::getenv("PMI_RANK");
    char path[4096];
    std::snprintf(path, sizeof path, "%s.%s", prefix, rank != nullptr ? rank : "0");
    if (std::FILE* f = std::fopen(path, "a")) {
        std::fprintf(f, "cudaMemcpy %zu 0x%jx 0x%jx %d\n", bytes,
                     static_cast<std::uintmax_t>(reinterpret_cast<std::uintptr_t>(to)),
                     static_cast<std::uintmax_t>(reinterpret_cast<std::uintptr_t>(from)), kind);
        std::fclose(f);
    }
    return 0;
}

#if defined(MPIX_GPU_SUPPORT_CUDA)
int MPIX_GPU_query_support(int gpu_type, int* is_supported) {
    *is_supported = gpu_type == MPIX_GPU_SUPPORT_CUDA ? 1 : 0;
    return MPI_SUCCESS;
}
#endif

}  // extern "C"
