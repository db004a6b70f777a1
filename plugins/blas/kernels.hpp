// The four PAW BLAS calls on CBLAS, and the workloads the compute pattern times.
//
// The bindings take general shapes (m, n, k, leading dimensions, alpha, beta) although PAW only
// runs square problems: tests call them with rectangular, padded operands against a naive
// reference, so a transposed argument or a wrong leading dimension cannot pass. Column-major,
// no transposition, as the Fortran BLAS PAW calls.
#pragma once

#include <parbench/core/buffers.hpp>
#include <parbench/pattern/compute.hpp>

#include <cblas.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace parbench::blas {

// C (m x n, ldc) = alpha * A (m x k, lda) * B (k x n, ldb) + beta * C
inline void gemm(int m, int n, int k, double alpha, const double* a, int lda, const double* b,
                 int ldb, double beta, double* c, int ldc) noexcept {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, beta,
                c, ldc);
}
inline void gemm(int m, int n, int k, float alpha, const float* a, int lda, const float* b,
                 int ldb, float beta, float* c, int ldc) noexcept {
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, beta,
                c, ldc);
}
// y (m) = alpha * A (m x n, lda) * x (n) + beta * y
inline void gemv(int m, int n, double alpha, const double* a, int lda, const double* x,
                 double beta, double* y) noexcept {
    cblas_dgemv(CblasColMajor, CblasNoTrans, m, n, alpha, a, lda, x, 1, beta, y, 1);
}
inline void gemv(int m, int n, float alpha, const float* a, int lda, const float* x, float beta,
                 float* y) noexcept {
    cblas_sgemv(CblasColMajor, CblasNoTrans, m, n, alpha, a, lda, x, 1, beta, y, 1);
}

enum class kernel { dgemm, sgemm, dgemv, sgemv };

[[nodiscard]] constexpr std::string_view name_of(kernel k) noexcept {
    switch (k) {
        case kernel::dgemm: return "dgemm";
        case kernel::sgemm: return "sgemm";
        case kernel::dgemv: return "dgemv";
        case kernel::sgemv: return "sgemv";
    }
    return "dgemm";
}

[[nodiscard]] constexpr bool is_gemm(kernel k) noexcept {
    return k == kernel::dgemm || k == kernel::sgemm;
}
[[nodiscard]] constexpr bool is_double(kernel k) noexcept {
    return k == kernel::dgemm || k == kernel::dgemv;
}

// Flops of one call at matrix order n: PAW's counts and the conventional ones.
[[nodiscard]] constexpr pattern::compute_work work_of(kernel k, std::uint64_t n) noexcept {
    return is_gemm(k) ? pattern::gemm_work(n) : pattern::gemv_work(n);
}

// Bytes a workload of order n allocates (for the memory check before setup).
[[nodiscard]] constexpr double bytes_of(kernel k, std::uint64_t n) noexcept {
    const double d = static_cast<double>(n);
    const double element = is_double(k) ? 8.0 : 4.0;
    return is_gemm(k) ? 3.0 * d * d * element : (d * d + 2.0 * d) * element;
}

// Deterministic values in [-1, 1], not symmetric in (i, j), so that a transposed operand changes
// the result.
template <class T>
void fill_pattern(T* data, std::size_t count, std::size_t seed) noexcept {
    for (std::size_t i = 0; i < count; ++i)
        data[i] = static_cast<T>(static_cast<double>((i * 7 + seed * 13 + 3) % 17) / 8.0 - 1.0);
}

template <class T>
class typed_buffer {
public:
    explicit typed_buffer(std::size_t count) : storage_(count * sizeof(T)), count_(count) {}
    [[nodiscard]] T* data() noexcept { return reinterpret_cast<T*>(storage_.data()); }
    [[nodiscard]] std::size_t size() const noexcept { return count_; }

private:
    aligned_buffer storage_;
    std::size_t count_;
};

[[nodiscard]] inline int checked_order(std::uint64_t n) {
    // CBLAS takes int dimensions, and n*n elements must be addressable.
    if (n == 0 || n > 46340) throw std::invalid_argument("matrix order " + std::to_string(n) +
                                                         " is outside 1..46340");
    return static_cast<int>(n);
}

// Square GEMM of order n: C = A * B (alpha = 1, beta = 0, as PAW), operands set up untimed.
template <class T>
class gemm_workload {
public:
    explicit gemm_workload(std::uint64_t n)
        : n_(checked_order(n)), a_(n * n), b_(n * n), c_(n * n) {
        fill_pattern(a_.data(), a_.size(), 1);
        fill_pattern(b_.data(), b_.size(), 2);
    }
    void operator()() noexcept {
        gemm(n_, n_, n_, T{1}, a_.data(), n_, b_.data(), n_, T{0}, c_.data(), n_);
    }

private:
    int n_;
    typed_buffer<T> a_, b_, c_;
};

// Square GEMV of order n: y = A * x.
template <class T>
class gemv_workload {
public:
    explicit gemv_workload(std::uint64_t n) : n_(checked_order(n)), a_(n * n), x_(n), y_(n) {
        fill_pattern(a_.data(), a_.size(), 3);
        fill_pattern(x_.data(), x_.size(), 4);
    }
    void operator()() noexcept {
        gemv(n_, n_, T{1}, a_.data(), n_, x_.data(), T{0}, y_.data());
    }

private:
    int n_;
    typed_buffer<T> a_, x_, y_;
};

}  // namespace parbench::blas
