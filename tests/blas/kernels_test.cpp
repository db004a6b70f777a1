// The CBLAS bindings against a naive column-major reference, on rectangular, padded operands with
// non-trivial alpha and beta: a transposed operand, swapped dimensions or a wrong leading
// dimension in the binding changes the result and fails.
#include "kernels.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

namespace {

using parbench::blas::fill_pattern;

template <class T>
void naive_gemm(int m, int n, int k, T alpha, const std::vector<T>& a, int lda,
                const std::vector<T>& b, int ldb, T beta, std::vector<T>& c, int ldc) {
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double sum = 0.0;
            for (int p = 0; p < k; ++p)
                sum += static_cast<double>(a[static_cast<std::size_t>(i + p * lda)]) *
                       static_cast<double>(b[static_cast<std::size_t>(p + j * ldb)]);
            auto& cij = c[static_cast<std::size_t>(i + j * ldc)];
            cij = static_cast<T>(alpha * sum + beta * cij);
        }
}

template <class T>
void naive_gemv(int m, int n, T alpha, const std::vector<T>& a, int lda, const std::vector<T>& x,
                T beta, std::vector<T>& y) {
    for (int i = 0; i < m; ++i) {
        double sum = 0.0;
        for (int j = 0; j < n; ++j)
            sum += static_cast<double>(a[static_cast<std::size_t>(i + j * lda)]) *
                   static_cast<double>(x[static_cast<std::size_t>(j)]);
        y[static_cast<std::size_t>(i)] = static_cast<T>(alpha * sum + beta * y[static_cast<std::size_t>(i)]);
    }
}

template <class T>
double max_difference(const std::vector<T>& x, const std::vector<T>& y) {
    double d = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i)
        d = std::max(d, std::abs(static_cast<double>(x[i]) - static_cast<double>(y[i])));
    return d;
}

template <class T>
void check_gemm(double tolerance) {
    // m != n != k and every leading dimension padded beyond its minimum.
    const int m = 5, n = 3, k = 7, lda = 8, ldb = 9, ldc = 6;
    std::vector<T> a(static_cast<std::size_t>(lda * k)), b(static_cast<std::size_t>(ldb * n)),
        c(static_cast<std::size_t>(ldc * n));
    fill_pattern(a.data(), a.size(), 1);
    fill_pattern(b.data(), b.size(), 2);
    fill_pattern(c.data(), c.size(), 5);
    auto expected = c;
    naive_gemm<T>(m, n, k, T(1.5), a, lda, b, ldb, T(-0.5), expected, ldc);
    parbench::blas::gemm(m, n, k, T(1.5), a.data(), lda, b.data(), ldb, T(-0.5), c.data(), ldc);
    CHECK(max_difference(c, expected) < tolerance);
    // The padding rows of C are untouched.
    auto untouched = std::vector<T>(c.size());
    fill_pattern(untouched.data(), untouched.size(), 5);
    for (int j = 0; j < n; ++j)
        for (int i = m; i < ldc; ++i)
            CHECK(c[static_cast<std::size_t>(i + j * ldc)] ==
                  untouched[static_cast<std::size_t>(i + j * ldc)]);
}

template <class T>
void check_square_gemm(int n, double tolerance) {
    std::vector<T> a(static_cast<std::size_t>(n * n)), b(a.size()), c(a.size(), T(0));
    fill_pattern(a.data(), a.size(), 1);
    fill_pattern(b.data(), b.size(), 2);
    auto expected = c;
    naive_gemm<T>(n, n, n, T(1), a, n, b, n, T(0), expected, n);
    parbench::blas::gemm(n, n, n, T(1), a.data(), n, b.data(), n, T(0), c.data(), n);
    CHECK(max_difference(c, expected) < tolerance);
    // A transposed operand gives a different product with these data: the check has teeth.
    std::vector<T> at(a.size());
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            at[static_cast<std::size_t>(i + j * n)] = a[static_cast<std::size_t>(j + i * n)];
    auto transposed = std::vector<T>(a.size(), T(0));
    naive_gemm<T>(n, n, n, T(1), at, n, b, n, T(0), transposed, n);
    CHECK(max_difference(transposed, expected) > 100 * tolerance);
}

template <class T>
void check_gemv(double tolerance) {
    const int m = 6, n = 4, lda = 9;
    std::vector<T> a(static_cast<std::size_t>(lda * n)), x(static_cast<std::size_t>(n)),
        y(static_cast<std::size_t>(m));
    fill_pattern(a.data(), a.size(), 3);
    fill_pattern(x.data(), x.size(), 4);
    fill_pattern(y.data(), y.size(), 6);
    auto expected = y;
    naive_gemv<T>(m, n, T(2.0), a, lda, x, T(0.25), expected);
    parbench::blas::gemv(m, n, T(2.0), a.data(), lda, x.data(), T(0.25), y.data());
    CHECK(max_difference(y, expected) < tolerance);
}

}  // namespace

TEST_CASE("dgemm binding matches the naive reference on padded rectangular operands", "[blas]") {
    check_gemm<double>(1e-12);
    check_square_gemm<double>(13, 1e-12);
}

TEST_CASE("sgemm binding matches the naive reference on padded rectangular operands", "[blas]") {
    check_gemm<float>(1e-4);
    check_square_gemm<float>(13, 1e-4);
}

TEST_CASE("dgemv and sgemv bindings match the naive reference", "[blas]") {
    check_gemv<double>(1e-12);
    check_gemv<float>(1e-5);
}

TEST_CASE("flop counts: PAW's and the conventional one", "[blas]") {
    using parbench::blas::kernel;
    const auto gemm = parbench::blas::work_of(kernel::dgemm, 10);
    CHECK(gemm.flops_paw == 2.0 * 100 * 11);
    CHECK(gemm.flops_conventional == 2000.0);
    const auto gemv = parbench::blas::work_of(kernel::sgemv, 10);
    CHECK(gemv.flops_paw == 2.0 * 10 * 11);
    CHECK(gemv.flops_conventional == 200.0);
}

TEST_CASE("workloads run at their order without touching memory out of bounds", "[blas]") {
    parbench::blas::gemm_workload<double> g(33);
    g();
    parbench::blas::gemv_workload<float> v(33);
    v();
    CHECK_THROWS(parbench::blas::gemm_workload<double>(0));
}
