// The console layout registry (report/console_layouts.hpp): every layout builds its reporter, an
// unknown or missing layout is an error naming the known ones, a note reaches every console.
#include <parbench/report/console_layouts.hpp>

#include <catch2/catch.hpp>

#include <sstream>
#include <string>

// A namespace of the file's own: the test program is a unity build (tests/unit/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace console_layouts_test {

using namespace parbench;

TEST_CASE("every registered layout builds its console reporter") {
    std::ostringstream out;
    for (const char* layout : {"caf", "imb", "imb-p2p", "osu", "paw"})
        CHECK(report::make_console(layout, "s", {.out = out}) != nullptr);
    CHECK(report::known_layouts() == "caf, imb, imb-nbc, imb-p2p, osu, overlap, paw");
}

TEST_CASE("an unknown layout is an error naming it and the known ones") {
    std::ostringstream out;
    try {
        (void)report::make_console("tabular", "my-suite", {.out = out});
        FAIL("no exception");
    } catch (const report::unknown_layout& e) {
        CHECK(std::string(e.what()) ==
              "suite 'my-suite' declares console layout 'tabular', which this parbench does not "
              "know (known: caf, imb, imb-nbc, imb-p2p, osu, overlap, paw)");
    }
    CHECK_NOTHROW(report::require_layout("osu", "my-suite"));
}

TEST_CASE("a suite that declares no layout is an error, never IMB's by default") {
    try {
        report::require_layout("", "my-suite");
        FAIL("no exception");
    } catch (const report::unknown_layout& e) {
        CHECK(std::string(e.what()) ==
              "suite 'my-suite' declares no console layout (run_start.layout; known: caf, imb, "
              "imb-nbc, imb-p2p, osu, overlap, paw)");
    }
    // As the driver reads it from a plugin's event.
    const auto start = nlohmann::json::parse(R"({"suite": "my-suite"})").get<run_start>();
    CHECK_THROWS_AS(report::require_layout(start.layout, start.suite), report::unknown_layout);
}

TEST_CASE("a note reaches every console as a comment line") {
    for (const std::string layout : {"caf", "imb", "imb-p2p", "osu", "paw"}) {
        std::ostringstream out;
        auto console = report::make_console(layout, "s", {.out = out});
        console->on_note("cache flushed between sizes");
        // IMB-P2P puts an empty line before each of its lines between tables
        // (imb_p2p_pingpong.c:43-44), a table's end or not.
        const std::string blank = layout == "imb-p2p" ? "\n" : "";
        CHECK(out.str() == blank + "# cache flushed between sizes\n");
    }
}

}  // namespace console_layouts_test
