// core/options.hpp: the option readers every suite and the driver share, and their wording.
#include <parbench/core/options.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <string_view>

using parbench::input_error;
using Catch::Matchers::Equals;

namespace {

std::string message_of(auto&& f) {
    try {
        f();
    } catch (const input_error& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("option_text: strings, numbers and lists as the request carries them") {
    CHECK(parbench::option_text("msglog", nlohmann::json("0:20")) == "0:20");
    CHECK(parbench::option_text("iter", nlohmann::json(1000)) == "1000");
    CHECK(parbench::option_text("include", nlohmann::json::array({"a"})) == "a");
    CHECK(parbench::option_text("sizes", nlohmann::json::array({"8", "16"})) == "8,16");
    CHECK(message_of([] { (void)parbench::option_text("m", nlohmann::json(true)); }) ==
          "-m: expects one value");
    CHECK(parbench::option_words("mode", nlohmann::json("single")) ==
          std::vector<std::string>{"single"});
    CHECK(parbench::option_words("halosize", nlohmann::json::array({"8", 16})) ==
          std::vector<std::string>{"8", "16"});
}

TEST_CASE("switches: one table of on and off words, any case") {
    for (const char* on : {"1", "on", "ON", "yes", "True", "enable"})
        CHECK(parbench::switch_word(on) == std::optional<bool>(true));
    for (const char* off : {"0", "off", "No", "false", "DISABLE"})
        CHECK(parbench::switch_word(off) == std::optional<bool>(false));
    for (const char* neither : {"", "2", "maybe", " on"})
        CHECK_FALSE(parbench::switch_word(neither).has_value());
    CHECK(parbench::parse_switch("zero_size", " off ") == false);
    CHECK(message_of([] { (void)parbench::parse_switch("warm_up", "maybe"); }) ==
          "-warm_up maybe: expected on (1|enable|yes) or off (0|disable|no)");
}

TEST_CASE("choices: exact words, listed as prose when refused") {
    constexpr std::array<std::string_view, 3> c{"create", "allocate", "dynamic"};
    CHECK(parbench::parse_choice("w", "dynamic", c) == "dynamic");
    CHECK(message_of([&] { (void)parbench::parse_choice("w", "Dynamic", c); }) ==
          "-w Dynamic: expected create, allocate or dynamic");
    constexpr std::array<std::string_view, 1> one{"cuda"};
    CHECK(parbench::choice_list(one) == "cuda");
}

TEST_CASE("seconds: one parser, the rule says what is allowed and how it is worded") {
    CHECK(parbench::parse_seconds("-time", " 0.25 ") == 0.25);
    CHECK(message_of([] { (void)parbench::parse_seconds("-time", "0"); }) ==
          "-time 0: expected a positive number of seconds");
    CHECK(parbench::parse_seconds("--timeout", "0", {.allow_zero = true}) == 0.0);
    CHECK(message_of([] { (void)parbench::parse_seconds("-time", "2e9"); }) ==
          "-time 2e9: out of range (at most 1e9 seconds)");
    CHECK(message_of([] { (void)parbench::parse_seconds("-time", "nan"); }) ==
          "-time nan: expected a positive number of seconds");
    // PAW's spelling: the value in quotes, "s" for seconds.
    const parbench::seconds_rule paw{.allow_zero = true, .quote_value = true, .most_text = "1e9 s"};
    CHECK(message_of([&] { (void)parbench::parse_seconds("--min_loop_time", "-1", paw); }) ==
          "--min_loop_time '-1': expected a non-negative number of seconds");
    CHECK(message_of([&] { (void)parbench::parse_seconds("--time", "1e10", paw); }) ==
          "--time '1e10': out of range (at most 1e9 s)");
    // What 0 means, where it means something (--timeout); the reading alone, for a caller that
    // words the message itself (an options file's line).
    const parbench::seconds_rule limit{.allow_zero = true, .zero_means = "no limit"};
    CHECK(message_of([&] { (void)parbench::parse_seconds("--timeout", "soon", limit); }) ==
          "--timeout soon: expected a non-negative number of seconds (0: no limit)");
    CHECK(parbench::read_seconds("1.5").value == 1.5);
    CHECK(parbench::read_seconds("1.5").problem.empty());
    CHECK(parbench::read_seconds("-1", limit).problem ==
          "expected a non-negative number of seconds (0: no limit)");
    CHECK(parbench::read_seconds("2e6", {.most_s = 1e6, .most_text = "1e6 seconds"}).problem ==
          "out of range (at most 1e6 seconds)");
}

TEST_CASE("microseconds: the seconds reader, worded in microseconds (caf's -delay)") {
    const auto delay = [](std::string_view text) {
        return parbench::parse_microseconds("-delay", text, 1e6, "1000000 microseconds");
    };
    CHECK(delay("2") == 2.0);
    CHECK(delay(" 0.5 ") == 0.5);
    CHECK(delay("1e6") == 1e6);
    CHECK(message_of([&] { (void)delay("0"); }) ==
          "-delay 0: expected a positive number of microseconds");
    CHECK(message_of([&] { (void)delay("2x"); }) ==
          "-delay 2x: expected a positive number of microseconds");
    CHECK(message_of([&] { (void)delay("1000001"); }) ==
          "-delay 1000001: out of range (at most 1000000 microseconds)");
    CHECK(message_of([&] { (void)delay("inf"); }) ==
          "-delay inf: out of range (at most 1000000 microseconds)");
}

TEST_CASE("whole numbers within bounds") {
    CHECK(parbench::parse_whole_number("blksize", "12", 1, 64) == 12);
    CHECK(message_of([] { (void)parbench::parse_whole_number("blksize", "0", 1, 64); }) ==
          "-blksize 0: must lie in 1..64");
    CHECK(message_of([] { (void)parbench::parse_whole_number("blksize", "1.5", 1, 64); }) ==
          "-blksize 1.5: expected a whole number");
}

TEST_CASE("text: trim, the strict unsigned parse and why a number was refused") {
    CHECK(parbench::trim("\t 42 \n") == "42");
    unsigned value = 0;
    CHECK(parbench::parse_unsigned(" 42", value));
    CHECK(value == 42u);
    CHECK_FALSE(parbench::parse_unsigned("+1", value));
    CHECK_FALSE(parbench::parse_unsigned("4294967296", value));  // 2^32
    CHECK(parbench::integer_problem<unsigned>("4294967296", "bad") == "out of range");
    CHECK(parbench::integer_problem<unsigned>("-1", "bad") == "bad");
}
