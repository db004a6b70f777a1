// plugins/caf/point_to_point.hpp: EPCC's data geometry (ndata, nextent, which elements move),
// who plays which part in each ping-pong mode, and the -check known answer — which must count
// exactly the elements that a broken transfer got wrong.
#include "caf/point_to_point.hpp"

#include <catch2/catch.hpp>

#include <vector>

// A namespace of the file's own: the test program is a unity build (tests/unit/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace caf_point_to_point_test {

using namespace parbench::caf;

TEST_CASE("geometry: ndata = count * blksize, nextent spans first to last element moved", "[caf]") {
    const data_geometry contiguous{.count = 4, .blksize = 3, .stride = 1};
    CHECK(contiguous.ndata() == 12);
    CHECK(contiguous.nextent() == 12);
    CHECK(contiguous.bytes() == 96);
    const data_geometry strided{.count = 2, .blksize = 2, .stride = 3};
    CHECK(strided.ndata() == 4);
    CHECK(strided.nextent() == 8);  // blocks at 0-1 and 6-7
    std::vector<int> moved;
    for (int e = 0; e < 10; ++e)
        if (strided.moves(e)) moved.push_back(e);
    CHECK(moved == std::vector<int>{0, 1, 6, 7});
    // EPCC's strided put: single elements, every other one.
    const data_geometry epcc{.count = 3, .blksize = 1, .stride = 2};
    CHECK(epcc.nextent() == 5);
}

TEST_CASE("roles: single is first and last image, multiple i <-> i + n/2, crossing alternates",
          "[caf]") {
    CHECK(role_of(ping_pong_mode::single, 0, 5).kind == ping_pong_role::initiator);
    CHECK(role_of(ping_pong_mode::single, 0, 5).partner == 4);
    CHECK(role_of(ping_pong_mode::single, 4, 5).kind == ping_pong_role::responder);
    CHECK(role_of(ping_pong_mode::single, 2, 5).kind == ping_pong_role::idle);
    for (int r = 0; r < 8; ++r) {
        const auto m = role_of(ping_pong_mode::multiple, r, 8);
        CHECK(m.partner == (r + 4) % 8);
        CHECK(m.kind == (r < 4 ? ping_pong_role::initiator : ping_pong_role::responder));
        const auto c = role_of(ping_pong_mode::crossing, r, 8);
        CHECK(c.partner == (r + 4) % 8);
        // Pairs 0 and 2 as in multiple, pairs 1 and 3 reversed; each pair has one of each.
        const bool reversed = (r % 4) % 2 == 1;
        CHECK((c.kind == m.kind) == !reversed);
        CHECK(role_of(ping_pong_mode::crossing, c.partner, 8).kind != c.kind);
    }
    CHECK(refusal(ping_pong_mode::single, 1) ==
          "single ping-pong needs at least 2 images; the run has 1");
    CHECK(!refusal(ping_pong_mode::multiple, 3).empty());
    CHECK(refusal(ping_pong_mode::crossing, 4).empty());
}

TEST_CASE("the known answer counts exactly the elements a transfer got wrong", "[caf]") {
    const data_geometry g{.count = 2, .blksize = 2, .stride = 3};
    const auto n = static_cast<std::size_t>(g.nextent());
    std::vector<double> initiator(n), responder(n);
    fill_known(initiator, 0);
    fill_known(responder, 1);
    // A correct ping-pong: the moved elements of rank 0 travel to rank 1 and back.
    for (std::size_t e = 0; e < n; ++e)
        if (g.moves(static_cast<std::int64_t>(e))) responder[e] = initiator[e];
    const ping_pong_role first{ping_pong_role::initiator, 1};
    const ping_pong_role second{ping_pong_role::responder, 0};
    CHECK(count_defects(initiator, 0, first, g) == 0);
    CHECK(count_defects(responder, 1, second, g) == 0);
    // A lost put, a stray write into the gap, a wrong value: one defect each.
    responder[0] = known_value(1, 0);
    CHECK(count_defects(responder, 1, second, g) == 1);
    responder[3] = known_value(0, 3);
    CHECK(count_defects(responder, 1, second, g) == 2);
    initiator[7] += 1.0;
    CHECK(count_defects(initiator, 0, first, g) == 1);
}

}  // namespace caf_point_to_point_test
