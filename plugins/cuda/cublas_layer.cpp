// The cuBLAS layer (cublas_layer.h): plain forwarding to cuBLAS, nothing else of parbench.
#include "cublas_layer.h"

#include <cublas_v2.h>

extern "C" {

const char* parbench_cublas_status_text(int status) {
    return cublasGetStatusString(static_cast<cublasStatus_t>(status));
}

int parbench_cublas_create(void* stream, void** handle) {
    cublasHandle_t h = nullptr;
    if (const cublasStatus_t s = cublasCreate(&h); s != CUBLAS_STATUS_SUCCESS) return s;
    if (const cublasStatus_t s = cublasSetStream(h, static_cast<cudaStream_t>(stream));
        s != CUBLAS_STATUS_SUCCESS) {
        (void)cublasDestroy(h);
        return s;
    }
    *handle = h;
    return CUBLAS_STATUS_SUCCESS;
}

void parbench_cublas_destroy(void* handle) {
    if (handle != nullptr) (void)cublasDestroy(static_cast<cublasHandle_t>(handle));
}

int parbench_cublas_set_matrix(int rows, int cols, int element_size, const void* host,
                               void* device) {
    return cublasSetMatrix(rows, cols, element_size, host, rows, device, rows);
}

int parbench_cublas_get_matrix(int rows, int cols, int element_size, const void* device,
                               void* host) {
    return cublasGetMatrix(rows, cols, element_size, device, rows, host, rows);
}

int parbench_cublas_gemm(void* handle, int double_precision, int n, const void* a, const void* b,
                         void* c, unsigned long long calls) {
    const auto h = static_cast<cublasHandle_t>(handle);
    for (unsigned long long i = 0; i < calls; ++i) {
        cublasStatus_t s;
        if (double_precision != 0) {
            const double alpha = 1;
            const double beta = 0;
            s = cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha,
                            static_cast<const double*>(a), n, static_cast<const double*>(b), n,
                            &beta, static_cast<double*>(c), n);
        } else {
            const float alpha = 1;
            const float beta = 0;
            s = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha,
                            static_cast<const float*>(a), n, static_cast<const float*>(b), n,
                            &beta, static_cast<float*>(c), n);
        }
        if (s != CUBLAS_STATUS_SUCCESS) return s;
    }
    return CUBLAS_STATUS_SUCCESS;
}

}  // extern "C"
