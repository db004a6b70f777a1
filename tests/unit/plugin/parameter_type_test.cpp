// plugin/parameter_type.hpp: ABI 1.1's typed parameters, as the host checks and converts them;
// and PARBENCH_ARITY_ATTACHED (abi.h), as the driver reads such a parameter
// (driver/command_line.hpp).
#include <parbench/driver/command_line.hpp>
#include <parbench/plugin/parameter_type.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using parbench::input_error;
using parbench::plugin::type_help;
using parbench::plugin::type_problem;
using parbench::plugin::typed_value;

namespace {

std::string message_of(const parbench_parameter_type& t, const char* name, const char* text) {
    try {
        (void)typed_value(t, name, text);
    } catch (const input_error& e) {
        return e.what();
    }
    return "(no error)";
}

constexpr unsigned both = PARBENCH_TYPE_MIN | PARBENCH_TYPE_MAX;
const char* const colours[] = {"red", "green", "blue"};

}  // namespace

TEST_CASE("a count within its bounds becomes a JSON integer") {
    const parbench_parameter_type t{"s", "n", PARBENCH_VALUE_COUNT, both, 1, 64, nullptr, 0, {}};
    const auto v = typed_value(t, "n", "64");
    CHECK(v.is_number_unsigned());
    CHECK(v == 64);
    CHECK(message_of(t, "n", "65") == "-n 65: must lie in 1..64");
    CHECK(message_of(t, "n", "0") == "-n 0: must lie in 1..64");
    CHECK(message_of(t, "n", "-3") == "-n -3: expected a non-negative integer");
    CHECK(message_of(t, "n", "18446744073709551616") == "-n 18446744073709551616: out of range");
    CHECK(type_help(t) == "count 1..64");
}

TEST_CASE("bytes and seconds") {
    const parbench_parameter_type bytes{"s", "M", PARBENCH_VALUE_BYTES, PARBENCH_TYPE_MIN, 1, 0,
                                        nullptr, 0, {}};
    CHECK(typed_value(bytes, "M", "536870912") == 536870912);  // 2^29
    CHECK(message_of(bytes, "M", "0") == "-M 0: must be at least 1");
    CHECK(message_of(bytes, "M", "1k") == "-M 1k: expected a number of bytes");
    const parbench_parameter_type secs{"s", "t", PARBENCH_VALUE_SECONDS, PARBENCH_TYPE_MAX, 0, 60,
                                       nullptr, 0, {}};
    const auto v = typed_value(secs, "t", "0.5");
    CHECK(v.is_number_float());
    CHECK(v == 0.5);
    CHECK(typed_value(secs, "t", "0") == 0.0);  // no minimum: zero is a value
    CHECK(message_of(secs, "t", "60.5") == "-t 60.5: out of range (at most 60 seconds)");
    const parbench_parameter_type positive{"s", "t", PARBENCH_VALUE_SECONDS, PARBENCH_TYPE_MIN,
                                           0.001, 0, nullptr, 0, {}};
    CHECK(message_of(positive, "t", "0") == "-t 0: expected a positive number of seconds");
    CHECK(message_of(positive, "t", "0.0001") == "-t 0.0001: must be at least 0.001");
}

TEST_CASE("a range [MIN:]MAX becomes an object; MIN only when given") {
    const parbench_parameter_type t{"s", "msglog", PARBENCH_VALUE_RANGE, PARBENCH_TYPE_MAX, 0, 30,
                                    nullptr, 0, {}};
    CHECK(typed_value(t, "msglog", "3:7") == nlohmann::json({{"min", 3}, {"max", 7}}));
    CHECK(typed_value(t, "msglog", "16") == nlohmann::json({{"max", 16}}));
    CHECK(message_of(t, "msglog", "7:3") == "-msglog 7:3: minimum 7 is larger than maximum 3");
    CHECK(message_of(t, "msglog", "0:31") == "-msglog 0:31: must be at most 30");
    CHECK(message_of(t, "msglog", "x") ==
          "-msglog x: expected [MIN:]MAX with non-negative integers");
}

TEST_CASE("choices and switches") {
    const parbench_parameter_type c{"s", "colour", PARBENCH_VALUE_CHOICE, 0, 0, 0, colours, 3, {}};
    CHECK(typed_value(c, "colour", "green") == "green");
    CHECK(message_of(c, "colour", "Green") == "-colour Green: expected red, green or blue");
    CHECK(type_help(c) == "one of: red, green, blue");
    const parbench_parameter_type s{"s", "zero", PARBENCH_VALUE_SWITCH, 0, 0, 0, nullptr, 0, {}};
    CHECK(typed_value(s, "zero", "off") == false);
    CHECK(typed_value(s, "zero", "YES") == true);
    CHECK(message_of(s, "zero", "2") ==
          "-zero 2: expected on (1|enable|yes) or off (0|disable|no)");
}

TEST_CASE("the loader refuses a type row that cannot be used") {
    const parbench_parameter one{"n", "N", "a number", nullptr, PARBENCH_ARITY_ONE};
    const parbench_parameter flag{"f", nullptr, "a flag", nullptr, PARBENCH_ARITY_FLAG};
    const parbench_parameter_type count{"s", "n", PARBENCH_VALUE_COUNT, 0, 0, 0, nullptr, 0, {}};
    CHECK(type_problem(count, one).empty());
    CHECK(type_problem(count, flag) == "parameter 'f' is a flag and takes no value type");
    const parbench_parameter_type unknown{"s", "n", 99, 0, 0, 0, nullptr, 0, {}};
    CHECK(type_problem(unknown, one) == "parameter 'n' has unknown value type 99");
    const parbench_parameter_type no_choices{"s", "n", PARBENCH_VALUE_CHOICE, 0, 0, 0, nullptr, 0,
                                             {}};
    CHECK(type_problem(no_choices, one) == "parameter 'n' has no choices");
    const parbench_parameter_type empty_range{"s", "n", PARBENCH_VALUE_COUNT, both, 5, 4, nullptr,
                                              0, {}};
    CHECK(type_problem(empty_range, one) == "parameter 'n' has bounds that admit no value");
}

namespace {

// `words` after `parbench run SUITE`, parsed as the driver parses them for a suite whose
// parameters are an attached "c" (OSU's -c[log[:DIR]], getopt's "c::") and a one-value "m":
// the suite's options as given (driver::suite_options::values) and the words left as names.
nlohmann::json attached_parse(const std::vector<std::string>& words) {
    static const parbench_parameter parameters[] = {
        {"c", "log[:DIR]", "validation", nullptr, PARBENCH_ARITY_ATTACHED},
        {"m", "[MIN:]MAX", "sizes", nullptr, PARBENCH_ARITY_ONE}};
    const parbench_suite suite{"s", "a suite", nullptr, 0, parameters, 2, 0};
    CLI::App app;
    std::vector<std::string> names;
    app.add_option("names", names);
    parbench::driver::suite_options options;
    options.add_to(app, suite);
    const std::vector<std::string> args = parbench::driver::rewrite_single_dash(
        words, parbench::driver::single_dash_names(options.names()), options.attached_names());
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 reads from the back
    app.parse(reversed);
    nlohmann::json given(options.values(false));
    given["names"] = names;
    return given;
}

}  // namespace

TEST_CASE("an attached parameter takes its value attached, never the next word") {
    using nlohmann::json;
    CHECK(attached_parse({"-clog:out", "latency"}) ==
          json({{"c", "log:out"}, {"names", json::array({"latency"})}}));
    CHECK(attached_parse({"--c=log", "-m", "4:8"}) ==
          json({{"c", "log"}, {"m", "4:8"}, {"names", json::array()}}));
    // bare, it is true, and the next word stays a name (OSU's getopt leaves "-c log" an argument)
    CHECK(attached_parse({"-c", "log", "bw"}) ==
          json({{"c", true}, {"names", json::array({"log", "bw"})}}));
    CHECK(attached_parse({"latency", "-c"}) ==
          json({{"c", true}, {"names", json::array({"latency"})}}));
    CHECK(attached_parse({"latency"}) == json({{"names", json::array({"latency"})}}));
}
