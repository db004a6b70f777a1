// The run request the driver hands a plugin (as JSON through plugin/abi.h's run()).
#pragma once

#include <parbench/core/error.hpp>

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace parbench {

struct run_request {
    std::string suite;                    // "imb-mpi1"
    std::vector<std::string> benchmarks;  // positional names as typed; empty: the suite's defaults
    // The suite's own parameters by name (no dashes), only those given on the command line:
    // a flag maps to true, a one-value option to its string, a list option to an array of strings.
    std::map<std::string, nlohmann::json> options;
    bool check = false;                   // run-time validation of transferred data (-check)
    std::string calling_sequence;         // the command line as typed, for the output header
};

inline void to_json(nlohmann::json& j, const run_request& r) {
    j = {{"suite", r.suite},
         {"benchmarks", r.benchmarks},
         {"options", r.options},
         {"check", r.check},
         {"calling_sequence", r.calling_sequence}};
}

inline void from_json(const nlohmann::json& j, run_request& r) {
    r.suite = j.at("suite").get<std::string>();
    r.benchmarks = j.value("benchmarks", std::vector<std::string>{});
    r.options = j.value("options", std::map<std::string, nlohmann::json>{});
    r.check = j.value("check", false);
    r.calling_sequence = j.value("calling_sequence", std::string{});
}

// What a plugin's run() does first: the request text to a run_request, or an input_error
// ("<plugin>: malformed run request: ...") that the plugin returns as BAD_INPUT.
[[nodiscard]] inline run_request parse_run_request(const char* text, std::string_view plugin) {
    try {
        return nlohmann::json::parse(text != nullptr ? text : "").get<run_request>();
    } catch (const nlohmann::json::exception& e) {
        throw input_error(std::string(plugin) + ": malformed run request: " + e.what());
    }
}

}  // namespace parbench
