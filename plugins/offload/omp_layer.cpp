// The OpenMP offload device layer (omp_layer.h), built by the offload compiler. Nothing else of
// parbench is compiled here: the target regions below are the only device code.
#include "omp_layer.h"

#include <dlfcn.h>
#include <omp.h>

#ifndef PARBENCH_OMP_TARGETS
#define PARBENCH_OMP_TARGETS "unknown"
#endif

extern "C" {

int parbench_omp_num_devices(void) { return omp_get_num_devices(); }

int parbench_omp_initial_device(void) { return omp_get_initial_device(); }

void* parbench_omp_alloc(int device, size_t bytes) { return omp_target_alloc(bytes, device); }

void parbench_omp_free(int device, void* device_ptr) { omp_target_free(device_ptr, device); }

int parbench_omp_to_device(int device, void* device_dst, const void* host_src, size_t bytes) {
    return omp_target_memcpy(device_dst, const_cast<void*>(host_src), bytes, 0, 0, device,
                             omp_get_initial_device());
}

int parbench_omp_to_host(int device, void* host_dst, const void* device_src, size_t bytes) {
    return omp_target_memcpy(host_dst, const_cast<void*>(device_src), bytes, 0, 0,
                             omp_get_initial_device(), device);
}

int parbench_omp_is_present(int device, const void* host_ptr) {
    return omp_target_is_present(host_ptr, device);
}

int parbench_omp_read(int device, const void* device_src, unsigned char* out, size_t bytes,
                      int* ran_on_host) {
    const unsigned char* src = static_cast<const unsigned char*>(device_src);
    int on_host = -1;
#pragma omp target device(device) is_device_ptr(src) map(from : out[0:bytes]) map(from : on_host)
    {
        on_host = omp_is_initial_device();
        for (size_t i = 0; i < bytes; ++i) out[i] = src[i];
    }
    if (ran_on_host != nullptr) *ran_on_host = on_host;
    return on_host < 0 ? 1 : 0;
}

int parbench_omp_fill(int device, void* device_dst, unsigned char value, size_t bytes,
                      int* ran_on_host) {
    unsigned char* dst = static_cast<unsigned char*>(device_dst);
    int on_host = -1;
#pragma omp target device(device) is_device_ptr(dst) map(from : on_host)
    {
        on_host = omp_is_initial_device();
        for (size_t i = 0; i < bytes; ++i) dst[i] = value;
    }
    if (ran_on_host != nullptr) *ran_on_host = on_host;
    return on_host < 0 ? 1 : 0;
}

const char* parbench_omp_targets(void) { return PARBENCH_OMP_TARGETS; }

const char* parbench_omp_compiler(void) {
#ifdef __clang__
    return "clang " __clang_version__;
#else
    return __VERSION__;
#endif
}

int parbench_omp_openmp_version(void) { return _OPENMP; }

const char* parbench_omp_runtime_path(void) {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&omp_target_memcpy), &info) != 0 && info.dli_fname != nullptr)
        return info.dli_fname;
    return "unknown";
}

}  // extern "C"
