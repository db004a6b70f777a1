// A stand-in for the CUDA runtime, for the placement test of -accelerator cuda on a machine
// without a GPU (tests/mpi/test_placement.py). Preloaded into every rank, it is both the library
// the MPI plugin's dlopen("libcudart.so.13") finds (its soname) and MPICH's answer to
// MPIX_GPU_query_support (yes), so the plugin's whole device path runs: device count, selection
// by node-local rank, allocation (host memory, which MPI can send), PCI bus id.
//   PARBENCH_FAKE_CUDA_DEVICES=N   devices on every node (default 2)
// Device D's PCI bus id is "0000:XX:00.0" with XX = 0x10 + D in hexadecimal.
#include <mpi.h>

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
    *pointer = std::malloc(bytes > 0 ? bytes : 1);
    return *pointer != nullptr ? 0 : 2;  // cudaErrorMemoryAllocation
}
int cudaFree(void* pointer) {
    std::free(pointer);
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

#if defined(MPIX_GPU_SUPPORT_CUDA)
int MPIX_GPU_query_support(int gpu_type, int* is_supported) {
    *is_supported = gpu_type == MPIX_GPU_SUPPORT_CUDA ? 1 : 0;
    return MPI_SUCCESS;
}
#endif

}  // extern "C"
