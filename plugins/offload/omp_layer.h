/* The OpenMP offload device layer's C surface: the only code built by the offload compiler
 * (clang with -fopenmp -fopenmp-targets=...), as its own small library (libparbench_omp_layer),
 * so the plugin and its tests are ordinary C++ built like the rest of parbench. C types only:
 * the two sides may come from different compilers.
 *
 * Every function is thread-safe as the OpenMP runtime is (several host threads, one device
 * each, in the concurrent tests). Copies are synchronous. Status: 0 success, non-zero failure. */
#ifndef PARBENCH_OMP_LAYER_H
#define PARBENCH_OMP_LAYER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* omp_get_num_devices() and omp_get_initial_device(). */
int parbench_omp_num_devices(void);
int parbench_omp_initial_device(void);

/* omp_target_alloc / omp_target_free on `device`. */
void* parbench_omp_alloc(int device, size_t bytes);
void parbench_omp_free(int device, void* device_ptr);

/* omp_target_memcpy between the initial device and `device`, in either direction. */
int parbench_omp_to_device(int device, void* device_dst, const void* host_src, size_t bytes);
int parbench_omp_to_host(int device, void* host_dst, const void* device_src, size_t bytes);

/* omp_target_is_present(host_ptr, device): whether the device sees `host_ptr` as mapped. */
int parbench_omp_is_present(int device, const void* host_ptr);

/* Target regions on `device` (not on the host: omp_is_initial_device() is reported).
 * read: copies `bytes` of device memory into the host array `out` through a target region (a
 *       map(from:) of the region, not omp_target_memcpy), so tests observe the device's data
 *       by a second route.
 * fill: writes `value` into `bytes` of device memory from inside a target region.
 * Each sets *ran_on_host to omp_is_initial_device() as seen inside the region. */
int parbench_omp_read(int device, const void* device_src, unsigned char* out, size_t bytes,
                      int* ran_on_host);
int parbench_omp_fill(int device, void* device_dst, unsigned char value, size_t bytes,
                      int* ran_on_host);

/* How the layer was built: the offload triples (-fopenmp-targets), the compiler, _OPENMP. */
const char* parbench_omp_targets(void);
const char* parbench_omp_compiler(void);
int parbench_omp_openmp_version(void);
/* The file the OpenMP offload runtime (libomptarget) was loaded from, or "unknown". */
const char* parbench_omp_runtime_path(void);

#ifdef __cplusplus
}
#endif

#endif /* PARBENCH_OMP_LAYER_H */
