// PAW's gpu_dgemm / gpu_sgemm: C = A B with cuBLAS on one device. The operands are set once per
// size (cublasSetMatrix, untimed, as PAW's cublasSetVector); a timed batch is NLOOP GEMM calls
// and one stream synchronisation, so the host clock measures the GEMMs and not their queuing.
// cuBLAS is reached through the layer opened on first use (cublas_functions.hpp).
#pragma once

#include "cublas_functions.hpp"
#include "cuda_error.hpp"

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace parbench::cuda {

// Deterministic values in [-1, 1], not symmetric in (i, j): a transposed operand changes the
// product, so the check below catches it.
template <class T>
[[nodiscard]] T operand_value(std::uint64_t i, std::uint64_t j, int which) noexcept {
    const auto h = (i * 2654435761u + j * 40503u + static_cast<std::uint64_t>(which) * 97u) % 2001u;
    return static_cast<T>(static_cast<double>(h) / 1000.0 - 1.0);
}

template <class T>
class gemm_workload {
public:
    gemm_workload(const cublas_functions& blas, int device, std::uint64_t n)
        : blas_(blas), device_(device), n_(static_cast<int>(n)) {
        check(cudaSetDevice(device), "cudaSetDevice");
        check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
        blas_.check(blas_.create(stream_, &handle_), "cublasCreate");
        const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
        for (T** p : {&a_, &b_, &c_})
            check(cudaMalloc(reinterpret_cast<void**>(p), elements * sizeof(T)), "cudaMalloc");
        std::vector<T> host(elements);
        for (int which = 0; which < 2; ++which) {
            for (std::uint64_t j = 0; j < n; ++j)
                for (std::uint64_t i = 0; i < n; ++i) host[j * n + i] = operand_value<T>(i, j, which);
            blas_.check(blas_.set_matrix(n_, n_, sizeof(T), host.data(), which == 0 ? a_ : b_),
                        "cublasSetMatrix");
        }
        check(cudaMemset(c_, 0, elements * sizeof(T)), "cudaMemset");
        // One untimed call: cuBLAS picks a kernel per size, and CUDA loads a kernel's module on
        // its first launch (lazy loading, milliseconds). Left in the warm-up it made NLOOP's
        // estimate 100x too long (SGEMM N = 32 planned NLOOP 1, and no later size may raise it).
        run(1);
    }
    gemm_workload(const gemm_workload&) = delete;
    gemm_workload& operator=(const gemm_workload&) = delete;
    ~gemm_workload() {
        (void)cudaSetDevice(device_);
        for (T* p : {a_, b_, c_})
            if (p != nullptr) (void)cudaFree(p);
        if (handle_ != nullptr) blas_.destroy(handle_);
        if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
    }

    void run(std::uint64_t calls) {
        constexpr bool double_precision = sizeof(T) == 8;
        blas_.check(blas_.gemm(handle_, double_precision ? 1 : 0, n_, a_, b_, c_, calls),
                    double_precision ? "cublasDgemm" : "cublasSgemm");
        check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
    }
    void operator()() { run(1); }

    // Entries of C (column-major) that differ from a host dot product by more than the
    // precision allows; `samples` entries spread over the matrix.
    [[nodiscard]] std::uint64_t defects(std::uint64_t samples) const {
        const auto n = static_cast<std::uint64_t>(n_);
        std::vector<T> c(static_cast<std::size_t>(n * n));
        blas_.check(blas_.get_matrix(n_, n_, sizeof(T), c_, c.data()), "cublasGetMatrix");
        const double tolerance = (sizeof(T) == 8 ? 1e-10 : 1e-3) * static_cast<double>(n);
        std::uint64_t bad = 0;
        for (std::uint64_t s = 0; s < samples; ++s) {
            const std::uint64_t i = (s * 7919u) % n;
            const std::uint64_t j = (s * 104729u + 13u) % n;
            double expected = 0.0;
            for (std::uint64_t k = 0; k < n; ++k)
                expected += static_cast<double>(operand_value<T>(i, k, 0)) *
                            static_cast<double>(operand_value<T>(k, j, 1));
            if (!(std::abs(static_cast<double>(c[j * n + i]) - expected) <= tolerance)) ++bad;
        }
        return bad;
    }

private:
    const cublas_functions& blas_;
    int device_;
    int n_;
    void* handle_ = nullptr;
    cudaStream_t stream_ = nullptr;
    T* a_ = nullptr;
    T* b_ = nullptr;
    T* c_ = nullptr;
};

}  // namespace parbench::cuda
