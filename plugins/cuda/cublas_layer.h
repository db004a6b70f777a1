/* cuBLAS behind a small C surface: the only part of the CUDA plugin that links cuBLAS, built as
 * its own library (libparbench_cublas_layer.so) and opened by the plugin when a GEMM test starts
 * (cublas_functions.hpp). cuBLAS maps about 150 MiB into a process; the plugin is probed on
 * every rank of every run, and only gpu_dgemm and gpu_sgemm need it.
 *
 * C types only. Statuses are cuBLAS's (0: CUBLAS_STATUS_SUCCESS); parbench_cublas_status_text
 * says what one means. CUDA objects travel as void*: `stream` is a cudaStream_t, matrices are
 * device pointers. */
#ifndef PARBENCH_CUBLAS_LAYER_H
#define PARBENCH_CUBLAS_LAYER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PARBENCH_CUBLAS_API __attribute__((visibility("default")))

/* cublasGetStatusString. */
PARBENCH_CUBLAS_API const char* parbench_cublas_status_text(int status);

/* cublasCreate on the current CUDA device, then cublasSetStream(stream). */
PARBENCH_CUBLAS_API int parbench_cublas_create(void* stream, void** handle);
PARBENCH_CUBLAS_API void parbench_cublas_destroy(void* handle);

/* cublasSetMatrix / cublasGetMatrix of rows x cols elements of element_size bytes, column
 * major, the leading dimension being `rows` on both sides. */
PARBENCH_CUBLAS_API int parbench_cublas_set_matrix(int rows, int cols, int element_size,
                                                   const void* host, void* device);
PARBENCH_CUBLAS_API int parbench_cublas_get_matrix(int rows, int cols, int element_size,
                                                   const void* device, void* host);

/* `calls` GEMMs C = A B of order n, no transposes, leading dimension n: cublasDgemm when
 * double_precision is non-zero, else cublasSgemm. Queued on the handle's stream, not waited for;
 * returns at the first failure. */
PARBENCH_CUBLAS_API int parbench_cublas_gemm(void* handle, int double_precision, int n,
                                             const void* a, const void* b, void* c,
                                             unsigned long long calls);

#ifdef __cplusplus
}
#endif

#endif /* PARBENCH_CUBLAS_LAYER_H */
