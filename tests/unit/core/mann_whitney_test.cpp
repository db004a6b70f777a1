// The Mann-Whitney U test against values worked out by hand: U from the rank sums, the exact
// p-value from counting arrangements, the normal approximation from its formula.
#include <parbench/core/mann_whitney.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using parbench::mann_whitney_u;

TEST_CASE("completely separated samples: U = 0, exact p = 2 / C(6, 3)", "[mann_whitney]") {
    const std::vector<double> x{1, 2, 3}, y{4, 5, 6};
    const auto r = mann_whitney_u(x, y);
    CHECK(r.u1 == 0.0);
    CHECK(r.u2 == 9.0);
    CHECK(r.exact);
    CHECK(r.p_value == Approx(2.0 / 20.0));  // only 1 of the 20 arrangements has U <= 0
}

TEST_CASE("interleaved samples: U from the rank sum, exact p from counting", "[mann_whitney]") {
    // x has ranks 1, 3, 5: R1 = 9, U1 = 9 - 3*4/2 = 3, U2 = 9 - 3 = 6. The 20 arrangements of
    // 3 + 3 values give U = 0..9 in 1, 1, 2, 3, 3, 3, 3, 2, 1, 1 ways: P(U <= 3) = 7/20.
    const std::vector<double> x{1, 3, 5}, y{2, 4, 6};
    const auto r = mann_whitney_u(x, y);
    CHECK(r.u1 == 3.0);
    CHECK(r.u2 == 6.0);
    CHECK(r.p_value == Approx(2.0 * 7.0 / 20.0));
}

TEST_CASE("ties: mean ranks, tie-corrected normal approximation", "[mann_whitney]") {
    // Pooled: 1(x) 2(x) 2(x) 2(y) 3(x) 3(y) 4(y) 5(y); the 2s share rank 3, the 3s rank 5.5.
    // R1 = 1 + 3 + 3 + 5.5 = 12.5, U1 = 12.5 - 10 = 2.5. Ties of 3 and 2 values:
    // sum(t^3 - t) = 24 + 6 = 30; var = 4*4/12 (9 - 30/(8*7)) = 11.2857142857...;
    // z = (|2.5 - 8| - 0.5) / sqrt(var) = 1.48835...; p = erfc(z / sqrt 2) = 0.136658247738...
    const std::vector<double> x{1, 2, 2, 3}, y{2, 3, 4, 5};
    const auto r = mann_whitney_u(x, y);
    CHECK(r.u1 == 2.5);
    CHECK(r.u2 == 13.5);
    CHECK_FALSE(r.exact);
    CHECK(r.p_value == Approx(0.13665824773814753).epsilon(1e-12));
}

TEST_CASE("identical samples: no evidence of a difference", "[mann_whitney]") {
    const std::vector<double> x{0.65, 0.66, 0.67, 0.68, 0.69};
    const auto r = mann_whitney_u(x, x);
    CHECK(r.u1 == 12.5);  // n1 n2 / 2
    CHECK(r.p_value == 1.0);
    const std::vector<double> flat(8, 1.0);  // every value tied: variance 0
    CHECK(mann_whitney_u(flat, flat).p_value == 1.0);
}

TEST_CASE("64 + 64 separated samples: the exact tail without loss", "[mann_whitney]") {
    std::vector<double> x, y;
    for (int i = 0; i < 64; ++i) {
        x.push_back(i);
        y.push_back(100 + i);
    }
    const auto r = mann_whitney_u(x, y);
    CHECK(r.exact);
    // 2 / C(128, 64) = 8.35033111358791e-38
    CHECK(r.p_value == Approx(8.35033111358791e-38).epsilon(1e-9));
    x.push_back(64.5);  // 65 samples: the normal approximation takes over
    CHECK_FALSE(mann_whitney_u(x, y).exact);
    CHECK(mann_whitney_u(x, y).p_value < 1e-20);
}

TEST_CASE("an empty sample gives no test", "[mann_whitney]") {
    const std::vector<double> x{1, 2}, none;
    CHECK(mann_whitney_u(x, none).p_value == 1.0);
}

TEST_CASE("the exact distribution is computed once per pair of sample sizes, whichever first",
          "[mann_whitney]") {
    // 3 vs 4 separated samples: U = 0, P(U <= 0) = 1 / C(7, 3) = 1/35, p = 2/35.
    const std::vector<double> x{1, 2, 3}, y{4, 5, 6, 7}, z{10, 20, 30, 40}, w{0.5, 8, 9};
    parbench::mann_whitney_exact_cache cache;
    const auto first = mann_whitney_u(x, y, cache);
    CHECK(first.p_value == Approx(2.0 / 35.0));
    CHECK(mann_whitney_u(y, x, cache).p_value == Approx(2.0 / 35.0));  // (4, 3): the same table
    // w against z: every w below every z, U = 0 again, from the same (3, 4) table.
    CHECK(mann_whitney_u(w, z, cache).p_value == Approx(2.0 / 35.0));
    CHECK(cache.size() == 1);
    // Each row of a run of 1000 rows with 64 samples reuses the one 64 x 64 table.
    std::vector<double> a(64), b(64);
    for (int row = 0; row < 1000; ++row) {
        for (int i = 0; i < 64; ++i) {
            a[i] = row + i * 1.0;
            b[i] = row + i * 1.0 + 0.5;
        }
        (void)mann_whitney_u(a, b, cache);
    }
    CHECK(cache.size() == 2);
    CHECK(mann_whitney_u(a, b, cache).p_value == Approx(mann_whitney_u(a, b).p_value));
}
