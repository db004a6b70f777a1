// core/sizes.hpp: -msglog ranges, IMB's size sequence, -msglen files and their error messages.
#include <parbench/core/sizes.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using parbench::input_error;
using Catch::Matchers::Message;
using sizes_t = std::vector<std::uint64_t>;

TEST_CASE("parse_msglog accepts [min:]max", "[sizes]") {
    CHECK(parbench::parse_msglog("3:7") == parbench::msglog_range{3, 7});
    CHECK(parbench::parse_msglog("16") == parbench::msglog_range{0, 16});
    CHECK(parbench::parse_msglog("0:0") == parbench::msglog_range{0, 0});
    CHECK(parbench::parse_msglog(" 2 : 5 ") == parbench::msglog_range{2, 5});
    CHECK(parbench::parse_msglog("40") == parbench::msglog_range{0, 40});
    // IMB's defaults MINMSGLOG = 0, MAXMSGLOG = 22.
    CHECK(parbench::msglog_range{} == parbench::msglog_range{0, 22});
}

TEST_CASE("parse_msglog rejects bad input with one clear line", "[sizes]") {
    const std::string syntax = ": expected [MIN:]MAX with non-negative integers, e.g. 3:7 or 16";
    CHECK_THROWS_MATCHES(parbench::parse_msglog("5:2"), input_error,
                         Message("-msglog 5:2: minimum exponent 5 is larger than maximum "
                                 "exponent 2"));
    CHECK_THROWS_MATCHES(parbench::parse_msglog("a:b"), input_error, Message("-msglog a:b" + syntax));
    CHECK_THROWS_MATCHES(parbench::parse_msglog("-1"), input_error, Message("-msglog -1" + syntax));
    CHECK_THROWS_MATCHES(parbench::parse_msglog("3:"), input_error, Message("-msglog 3:" + syntax));
    CHECK_THROWS_MATCHES(parbench::parse_msglog(":3"), input_error, Message("-msglog :3" + syntax));
    CHECK_THROWS_MATCHES(parbench::parse_msglog(""), input_error, Message("-msglog " + syntax));
    CHECK_THROWS_MATCHES(parbench::parse_msglog("+4"), input_error, Message("-msglog +4" + syntax));
    CHECK_THROWS_MATCHES(parbench::parse_msglog("1:2:3"), input_error,
                         Message("-msglog 1:2:3" + syntax));
    CHECK_THROWS_MATCHES(parbench::parse_msglog("4.5"), input_error, Message("-msglog 4.5" + syntax));
    CHECK_THROWS_MATCHES(parbench::parse_msglog("99999999999999999999"), input_error,
                         Message("-msglog 99999999999999999999: exponent out of range (at most 40)"));
    CHECK_THROWS_MATCHES(parbench::parse_msglog("99"), input_error,
                         Message("-msglog 99: maximum exponent 99 is above the supported 40"));
    CHECK_THROWS_MATCHES(parbench::parse_msglog("2:41"), input_error,
                         Message("-msglog 2:41: maximum exponent 41 is above the supported 40"));
}

TEST_CASE("imb_sizes: 0, then max(unit, 2^min) doubling to 2^max", "[sizes]") {
    CHECK(parbench::imb_sizes({3, 7}) == sizes_t{0, 8, 16, 32, 64, 128});

    const auto sixteen = parbench::imb_sizes(parbench::parse_msglog("16"));
    REQUIRE(sixteen.size() == 18);
    CHECK(sixteen[0] == 0);
    CHECK(sixteen[1] == 1);
    CHECK(sixteen[2] == 2);
    CHECK(sixteen[3] == 4);
    CHECK(sixteen.back() == 65536);
    for (std::size_t i = 2; i < sixteen.size(); ++i) CHECK(sixteen[i] == 2 * sixteen[i - 1]);

    const auto defaults = parbench::imb_sizes({});
    CHECK(defaults.size() == 24);
    CHECK(defaults.back() == 4194304);

    SECTION("reductions start at sizeof(float)") {
        const auto reductions = parbench::imb_sizes({}, 4);
        REQUIRE(reductions.size() == 22);
        CHECK(reductions[0] == 0);
        CHECK(reductions[1] == 4);
        CHECK(reductions[2] == 8);
        CHECK(reductions.back() == 4194304);
        CHECK(parbench::imb_sizes({3, 5}, 4) == sizes_t{0, 8, 16, 32});
        CHECK(parbench::imb_sizes({0, 1}, 4) == sizes_t{0});
    }
    SECTION("a single exponent") {
        CHECK(parbench::imb_sizes({0, 0}) == sizes_t{0, 1});
        CHECK(parbench::imb_sizes({5, 5}) == sizes_t{0, 32});
    }
    SECTION("IMB 2021's IMB-EXT: the first length capped at sizeof(assign_type) = 4") {
        // helper_IMB_functions.h:307-322 under EXT: len = min(2^min rounded up, 4), then
        // min(2^max, 2 len) rounded up, until 2^max (IMB-EXT -msglog 10:12 prints 4 ... 4096).
        CHECK(parbench::imb_sizes({10, 12}, 4, 4) ==
              sizes_t{0, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096});
        CHECK(parbench::imb_sizes({3, 3}, 4, 4) == sizes_t{0, 4, 8});
        CHECK(parbench::imb_sizes({0, 3}, 4, 4) == sizes_t{0, 4, 8});
        // MAXMSG = 2^max rounded down to the unit (:756): 0 below 4 bytes, so nothing but 0
        // (IMB-EXT 2021 -msglog 0:0, 1:1, 0:1 print one row, 0 bytes; 2:2 and 0:2 print 0, 4).
        CHECK(parbench::imb_sizes({0, 0}, 4, 4) == sizes_t{0});
        CHECK(parbench::imb_sizes({1, 1}, 4, 4) == sizes_t{0});
        CHECK(parbench::imb_sizes({0, 2}, 4, 4) == sizes_t{0, 4});
        CHECK(parbench::imb_sizes({2, 2}, 4, 4) == sizes_t{0, 4});
    }
}

TEST_CASE("round_to_unit rounds down to whole elements", "[sizes]") {
    CHECK(parbench::round_to_unit(0, 4) == 0);
    CHECK(parbench::round_to_unit(3, 4) == 0);
    CHECK(parbench::round_to_unit(7, 4) == 4);
    CHECK(parbench::round_to_unit(100000, 4) == 100000);
    CHECK(parbench::round_to_unit(100001, 4) == 100000);
    CHECK(parbench::round_to_unit(7, 1) == 7);
    CHECK(parbench::round_to_unit(7, 0) == 7);
}

TEST_CASE("parse_msglen reads one length per line", "[sizes]") {
    SECTION("plain") {
        CHECK(parbench::parse_msglen("0\n100\n100000\n1000000\n", "f") ==
              sizes_t{0, 100, 100000, 1000000});
    }
    SECTION("comments, blank lines, spaces and no final newline") {
        CHECK(parbench::parse_msglen("# lengths\n\n  8\n\t\n#16\n   # indented comment\n 32 \n64",
                                     "f") == sizes_t{8, 32, 64});
    }
    SECTION("CRLF line ends") {
        CHECK(parbench::parse_msglen("1\r\n2\r\n# c\r\n\r\n4\r\n", "f") == sizes_t{1, 2, 4});
    }
    SECTION("order and duplicates are kept as written") {
        CHECK(parbench::parse_msglen("64\n8\n8\n", "f") == sizes_t{64, 8, 8});
    }
    SECTION("a bad line names the file, the line number and the text") {
        CHECK_THROWS_MATCHES(
            parbench::parse_msglen("# header\n8\n\nabc\n16\n", "lens.txt"), input_error,
            Message("-msglen lens.txt:4: 'abc' is not a non-negative message length in bytes"));
        CHECK_THROWS_MATCHES(
            parbench::parse_msglen("8\r\n-5\r\n", "win.txt"), input_error,
            Message("-msglen win.txt:2: '-5' is not a non-negative message length in bytes"));
        CHECK_THROWS_MATCHES(
            parbench::parse_msglen("1.5\n", "f"), input_error,
            Message("-msglen f:1: '1.5' is not a non-negative message length in bytes"));
        CHECK_THROWS_MATCHES(
            parbench::parse_msglen("12 34\n", "f"), input_error,
            Message("-msglen f:1: '12 34' is not a non-negative message length in bytes"));
        CHECK_THROWS_MATCHES(
            parbench::parse_msglen("99999999999999999999999\n", "f"), input_error,
            Message("-msglen f:1: '99999999999999999999999' out of range"));
    }
    SECTION("a file without lengths is an error") {
        CHECK_THROWS_MATCHES(parbench::parse_msglen("", "empty.txt"), input_error,
                             Message("-msglen empty.txt: no message lengths in file"));
        CHECK_THROWS_MATCHES(parbench::parse_msglen("# only\n\n \r\n", "c.txt"), input_error,
                             Message("-msglen c.txt: no message lengths in file"));
    }
}
