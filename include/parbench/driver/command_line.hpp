// The command line of `parbench run` before and around CLI11: the common options, the pre-scan
// that finds --plugin-path and the suite before parsing (the suite's own options are only known
// once its plugin is found), IMB's and OSU's single-dash spellings, the suite's parameters as
// CLI11 options and their values as the run request's options.
#pragma once

#include <parbench/driver/exit_status.hpp>
#include <parbench/driver/printable.hpp>

#include <parbench/core/error.hpp>
#include <parbench/core/options.hpp>
#include <parbench/plugin/abi.h>
#include <parbench/plugin/parameter_type.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace parbench::driver {

// The common options of `run` (without dashes) and whether each takes a value.
inline const std::map<std::string, bool>& common_options() {
    static const std::map<std::string, bool> options = {
        {"json", true},  {"csv", true},   {"timeout", true}, {"check", false},
        {"plugin-path", true}, {"dat-dir", true}, {"quiet", false}, {"progress", true},
        {"mpi", true},
        {"help", false}, {"h", false}};
    return options;
}

// The names written with one dash that are rewritten to two (rewrite_single_dash): the common
// options (but -h, which CLI11 knows) and `suite_names`, the parameters of the suite.
[[nodiscard]] inline std::set<std::string> single_dash_names(
    const std::set<std::string>& suite_names = {}) {
    std::set<std::string> names = suite_names;
    for (const auto& [name, takes_value] : common_options())
        if (name != "h") names.insert(name);
    return names;
}

// --plugin-path values are needed before CLI11 runs (to find the suite's parameters); CLI11
// parses and validates them again afterwards.
inline std::vector<std::string> prescan_plugin_paths(const std::vector<std::string>& args) {
    std::vector<std::string> paths;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        for (const std::string prefix : {"--plugin-path", "-plugin-path"}) {
            if (a == prefix && i + 1 < args.size()) paths.push_back(args[i + 1]);
            if (a.rfind(prefix + "=", 0) == 0) paths.push_back(a.substr(prefix.size() + 1));
        }
    }
    return paths;
}

// --mpi's value is needed before CLI11 runs too: where several MPI plugins were built, it picks
// the one whose suites are found (host/mpi_choice.hpp). The last one given counts, as in CLI11;
// "" when none is.
inline std::string prescan_mpi(const std::vector<std::string>& args) {
    std::string value;
    for (std::size_t i = 0; i < args.size(); ++i) {
        for (const std::string prefix : {"--mpi", "-mpi"}) {
            if (args[i] == prefix && i + 1 < args.size()) value = args[i + 1];
            if (args[i].rfind(prefix + "=", 0) == 0) value = args[i].substr(prefix.size() + 1);
        }
    }
    return value;
}

// The suite named after `run`: the first word that is neither an option nor a common option's
// value. Suite options may only follow it (their arities are unknown until it is found).
inline std::string prescan_suite(const std::vector<std::string>& args, std::size_t run_index) {
    for (std::size_t i = run_index + 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.empty() || a[0] != '-') return a;
        std::string name = a.substr(a[1] == '-' ? 2 : 1);
        if (name.find('=') != std::string::npos) continue;
        auto it = common_options().find(name);
        if (it != common_options().end() && it->second) ++i;
    }
    return {};
}

// IMB spells its long options with one dash (-msglog 0:20), OSU its one-letter ones (-m 1:8,
// -W 64). CLI11 wants two: rewrite -name to --name (and -name=value to --name=value) when `name`
// is an option of the suite or a common one. A one-letter option in `attached` (arity
// PARBENCH_ARITY_ATTACHED) takes its value attached, as getopt's optional argument: -cVALUE is
// --c=VALUE (OSU's -clog:DIR), unless -cVALUE is itself an option's name. Everything else
// (values such as "-1", unknown words) is left for CLI11 to judge.
inline std::vector<std::string> rewrite_single_dash(const std::vector<std::string>& args,
                                                    const std::set<std::string>& names,
                                                    const std::set<std::string>& attached = {}) {
    std::vector<std::string> out;
    for (const auto& a : args) {
        if (a.size() >= 2 && a[0] == '-' && a[1] != '-') {
            const std::string body = a.substr(1);
            const std::string name = body.substr(0, body.find('='));
            if (name == "help") {
                out.push_back("--help");
                continue;
            }
            if (names.contains(name)) {
                out.push_back("-" + a);
                continue;
            }
            if (attached.contains(body.substr(0, 1))) {
                out.push_back("--" + body.substr(0, 1) + "=" + body.substr(1));
                continue;
            }
        }
        out.push_back(a);
    }
    return out;
}

// The suite's parameters as CLI11 options of `run`, and after parsing their values as the run
// request's options (only those given). A typed parameter (ABI 1.1) is checked as CLI11 parses
// it, with the one-line message the plugin would give, and reaches the plugin as typed JSON.
class suite_options {
public:
    using type_table = std::map<std::string, const parbench_parameter_type*>;

    // Adds every parameter of `suite` (except those that are common options) to `run`; `types`
    // holds the typed ones (empty for an ABI 1.0 plugin).
    void add_to(CLI::App& run, const parbench_suite& suite, const type_table& types = {}) {
        for (std::size_t i = 0; i < suite.parameter_count; ++i) {
            const parbench_parameter& param = suite.parameters[i];
            const std::string name = param.name;
            names_.insert(name);
            if (common_options().contains(name)) continue;  // -check is a common option
            const std::string flag = "--" + name;
            const auto typed = types.find(name);
            const parbench_parameter_type* type =
                typed != types.end() && typed->second->kind != PARBENCH_VALUE_TEXT &&
                        param.arity != PARBENCH_ARITY_FLAG
                    ? typed->second
                    : nullptr;
            const std::string description =
                std::string(param.description != nullptr ? param.description : "") +
                (type != nullptr ? " (" + plugin::type_help(*type) + ")" : std::string{}) +
                (param.default_text != nullptr
                     ? std::string(" (default: ") + param.default_text + ")"
                     : std::string{});
            CLI::Option* option = nullptr;
            switch (param.arity) {
                case PARBENCH_ARITY_FLAG:
                    option = run.add_flag(flag, flags_[name], description);
                    break;
                case PARBENCH_ARITY_ONE:
                    // CLI11 would take a following option as the value; say what is missing.
                    option = run.add_option(flag, ones_[name], description)
                                 ->check(CLI::Validator(
                                     [name](const std::string& value) {
                                         return value.starts_with("--")
                                                    ? "-" + name + " needs a value"
                                                    : std::string{};
                                     },
                                     "", "value"));
                    break;
                case PARBENCH_ARITY_ATTACHED:
                    // a CLI11 flag takes a value only as --name=VALUE, never the next word
                    option = run.add_flag(flag, attached_[name], description);
                    if (name.size() == 1) attached_names_.insert(name);
                    break;
                default:
                    option = run.add_option(flag, lists_[name], description)
                                 ->expected(0, -1)
                                 ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
                    break;
            }
            if (param.metavar != nullptr && param.arity == PARBENCH_ARITY_ATTACHED)
                option->type_name(std::string("[=") + param.metavar + "]");
            else if (param.metavar != nullptr && param.arity != PARBENCH_ARITY_FLAG)
                option->type_name(param.metavar);
            if (type != nullptr) {
                types_[name] = type;
                // The validator throws instead of returning a message: CLI11 would prefix its
                // own "--name: ", and the line must read as the plugin's would.
                option->check(CLI::Validator(
                    [name, type](const std::string& value) {
                        if (value == bare_flag) return std::string{};  // an attached one's
                        try {
                            (void)plugin::typed_value(*type, name, value);
                        } catch (const input_error& e) {
                            throw driver_exit{exit_bad_input, e.what()};
                        }
                        return std::string{};
                    },
                    "", "typed"));
            }
            option->group(std::string("Options of suite ") + suite.name);
            handles_[name] = option;
        }
    }

    // The suite's parameter names (for the single-dash rewrite).
    [[nodiscard]] const std::set<std::string>& names() const noexcept { return names_; }
    // Its one-letter parameters whose value is attached (-cVALUE; the single-dash rewrite).
    [[nodiscard]] const std::set<std::string>& attached_names() const noexcept {
        return attached_names_;
    }

    // After parsing: flag -> true, one value -> its string, list -> array of strings, attached
    // -> true without a value, else its string; a typed parameter's value as its type says
    // (abi.h). A suite that declares "check" itself sees the common --check among its options
    // as well.
    [[nodiscard]] std::map<std::string, nlohmann::json> values(bool check) const {
        std::map<std::string, nlohmann::json> given = as_given(check);
        for (auto& [name, value] : given) {
            const auto typed = types_.find(name);
            if (typed == types_.end()) continue;
            if (value.is_string()) {
                value = plugin::typed_value(*typed->second, name, value.get<std::string>());
            } else if (value.is_array()) {
                for (auto& word : value)
                    word = plugin::typed_value(*typed->second, name, word.get<std::string>());
            }
        }
        return given;
    }

    // The values as typed on the command line (strings, lists of strings, flags true): what the
    // run's context records, whatever their types.
    [[nodiscard]] std::map<std::string, nlohmann::json> as_given(bool check) const {
        std::map<std::string, nlohmann::json> given;
        for (const auto& [name, option] : handles_) {
            if (option->count() == 0) continue;
            if (flags_.contains(name))
                given[name] = true;
            else if (attached_.contains(name))
                given[name] = attached_.at(name) == bare_flag ? nlohmann::json(true)
                                                              : nlohmann::json(attached_.at(name));
            else if (ones_.contains(name))
                given[name] = ones_.at(name);
            else
                given[name] = lists_.at(name);
        }
        if (check && names_.contains("check")) given["check"] = true;
        return given;
    }

private:
    // What CLI11 stores for a flag given without a value (an attached parameter's -c alone).
    static constexpr const char* bare_flag = "true";

    std::set<std::string> names_;
    std::set<std::string> attached_names_;
    std::map<std::string, std::string> attached_;
    std::map<std::string, std::string> ones_;
    std::map<std::string, std::vector<std::string>> lists_;
    std::map<std::string, bool> flags_;
    std::map<std::string, CLI::Option*> handles_;
    type_table types_;
};

// The suite's options that make a size timed longer or more often, as the stability warning's
// advice names them: the parameters the suite declares, in its order, among those known to do
// so in some suite (IMB's -iter and -time, OSU's -i and -x, -confidence). "" when it has none,
// so that the advice never names an option the suite would reject.
[[nodiscard]] inline std::string timing_advice(const parbench_suite& suite) {
    static const std::set<std::string> lengthen = {
        "iter", "time", "i", "x", "iterations", "confidence", "min_loop_time", "nreps"};
    std::string text;
    for (std::size_t i = 0; i < suite.parameter_count; ++i) {
        const std::string name = suite.parameters[i].name;
        if (lengthen.contains(name)) text += (text.empty() ? "-" : ", -") + name;
    }
    return text;
}

// parbench's line for words CLI11 did not expect (its ExtrasError: "The following argument was
// not expected: -time"): an option the suite does not have, or one placed before `run` or before
// the suite's name, where only common options go. Names where the suite's options are listed.
[[nodiscard]] inline std::string not_an_option(const std::string& cli11_message,
                                               const std::string& suite, bool is_run) {
    std::string words = cli11_message;
    if (const auto colon = words.find(": "); colon != std::string::npos)
        words = words.substr(colon + 2);
    const bool several = words.find(' ') != std::string::npos;
    std::string line = quote_value(words) + (several ? " are not options" : " is not an option");
    if (!is_run) return line + " of parbench here (see parbench --help)";
    if (suite.empty())
        return line +
               " of parbench run (see parbench run --help; a suite's own options follow "
               "its name)";
    return line + " of suite '" + suite + "' (its options: parbench run " + suite +
           " --help; suite options follow the suite's name)";
}

// A time limit in seconds (--timeout, PARBENCH_START_TIMEOUT): 0 (no limit) or positive, at most
// a year.
inline constexpr seconds_rule time_limit_rule{.allow_zero = true,
                                              .most_s = 366.0 * 24 * 3600,
                                              .quote_value = true,
                                              .most_text = "366 days",
                                              .zero_means = "no limit"};

// --timeout SECONDS by time_limit_rule.
inline double parse_timeout(const std::string& text) {
    const seconds_reading reading = read_seconds(text, time_limit_rule);
    if (!reading.problem.empty())
        throw driver_exit{exit_bad_input, "--timeout " + quote_value(text) + ": " + reading.problem};
    return reading.value;
}

}  // namespace parbench::driver
