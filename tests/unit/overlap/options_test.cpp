// The overlap suite's options: options.ini lines (plugins/mpi/overlap/options_file.hpp) and the
// options parser (overlap/options.cpp): bad lines and values name the file and line, the command
// line wins over the file, -allMethods and positional names choose the methods.
#include "overlap/options.hpp"
#include "overlap/options_file.hpp"

#include <parbench/core/error.hpp>

#include <catch2/catch.hpp>

#include <string>

// A namespace of the file's own: the test program is a unity build (tests/unit/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace overlap_options_test {

using namespace parbench::overlap;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

namespace {

options parse(const std::string& file_text, parbench::run_request request = {}, int world = 4) {
    const auto settings = parse_options_file(file_text, "options.ini");
    return parse_options(request, settings, "options.ini", world);
}

}  // namespace

TEST_CASE("options.ini: key=value lines, comments, blanks, spaces, optional dash", "[overlap]") {
    const auto s = parse_options_file(
        "# a comment\n\n; another\n  method = barrier \r\n-iterations=20\nthreshold=3.5", "f.ini");
    REQUIRE(s.size() == 3);
    CHECK(s[0].key == "method");
    CHECK(s[0].value == "barrier");
    CHECK(s[0].where == "f.ini:4");
    CHECK(s[1].key == "iterations");
    CHECK(s[1].value == "20");
    CHECK(s[2].where == "f.ini:6");
    CHECK(parse_options_file("", "f.ini").empty());
}

TEST_CASE("options.ini: a bad line is an error naming the file and the line", "[overlap]") {
    CHECK_THROWS_WITH(parse_options_file("method=allreduce\nverbose\n", "o.ini"),
                      Contains("o.ini:2: no '='"));
    CHECK_THROWS_WITH(parse_options_file("=1\n", "o.ini"), Contains("o.ini:1: no key"));
    CHECK_THROWS_WITH(parse_options_file("\nnohdr=\n", "o.ini"), Contains("o.ini:2: no value"));
    CHECK_THROWS_WITH(parse_options_file("[overlap]\n", "o.ini"), Contains("o.ini:1: sections"));
    CHECK_THROWS_WITH(parse_options_file("verbose=1\nverbose=0\n", "o.ini"),
                      Contains("o.ini:2: 'verbose' is already set at o.ini:1"));
}

TEST_CASE("options.ini: a NUL byte in a line is shown, and the rest of the message kept",
          "[overlap]") {
    using namespace std::string_literals;
    // what() is a C string: a raw NUL would end the message there, reason and all.
    CHECK_THROWS_WITH(parse_options_file("a\0b\n"s, "o.ini"),
                      "o.ini:1: no '=' in 'a\\x00b'; expected key=value (e.g. method=allreduce)");
    CHECK_THROWS_WITH(parse_options_file("[s\0]\n"s, "o.ini"),
                      "o.ini:1: sections are not supported in '[s\\x00]'; expected key=value "
                      "(e.g. method=allreduce)");
}

TEST_CASE("defaults: allreduce, 10000 iterations, threshold 2, whole communicator, header",
          "[overlap]") {
    const options o = parse("");
    REQUIRE(o.methods.size() == 1);
    CHECK(o.methods[0] == method::allreduce);
    CHECK(o.iterations == 10000);
    CHECK(o.threshold == 2.0);
    CHECK_FALSE(o.start_size.has_value());
    CHECK(o.header);
    CHECK_FALSE(o.verbose);
    CHECK(o.count == 1);
}

TEST_CASE("file values apply; the command line wins", "[overlap]") {
    parbench::run_request request;
    request.options["iterations"] = "7";
    const options o = parse("iterations=5\nmethod=gather\nnohdr=1\nstartSize=2\n", request);
    CHECK(o.iterations == 7);
    CHECK(o.methods == std::vector<method>{method::gather});
    CHECK_FALSE(o.header);
    CHECK(o.start_size == 2);
}

TEST_CASE("an unknown key or a malformed value in the file names the file and the line",
          "[overlap]") {
    CHECK_THROWS_WITH(parse("verbose=1\nbogus=3\n"),
                      Contains("options.ini:2: 'bogus' is not an option of suite overlap"));
    CHECK_THROWS_WITH(parse("iterations=abc\n"), Contains("options.ini:1: iterations=abc"));
    CHECK_THROWS_WITH(parse("\n\nmethod=alltoall\n"), Contains("options.ini:3: method=alltoall"));
    CHECK_THROWS_WITH(parse("verbose=2\n"), Contains("expected 0 or 1"));
    CHECK_THROWS_WITH(parse("threshold=-1\n"), Contains("options.ini:1: threshold=-1"));
    CHECK_THROWS_WITH(parse("time=0\n"),
                      Equals("options.ini:1: time=0: expected a positive number of seconds"));
    CHECK_THROWS_WITH(parse("time=2e6\n"), Contains("out of range (at most 1e6 seconds)"));
    CHECK_THROWS_WITH(parse("startSize=5\n"), Contains("at most 4"));  // world of 4
    CHECK_THROWS_WITH(parse("optionsFile=other.ini\n"), Contains("cannot name another"));
}

TEST_CASE("command-line errors name the option", "[overlap]") {
    parbench::run_request request;
    request.options["iterations"] = "0";
    CHECK_THROWS_WITH(parse("", request), Contains("-iterations 0: expected a positive integer"));
    parbench::run_request unknown;
    unknown.options["msglog"] = "3";
    CHECK_THROWS_WITH(parse("", unknown), Contains("-msglog: not an option of suite overlap"));
}

TEST_CASE("-allMethods 1 runs every method; positional names replace -method", "[overlap]") {
    CHECK(parse("allMethods=1\n").methods.size() == 6);
    parbench::run_request request;
    request.benchmarks = {"Scatter", "barrier", "scatter"};
    const options o = parse("method=gather\n", request);
    CHECK(o.methods == std::vector<method>{method::scatter, method::barrier});
    request.benchmarks = {"alltoall"};
    CHECK_THROWS_WITH(parse("", request), Contains("unknown benchmark 'alltoall'"));
}

}  // namespace overlap_options_test
