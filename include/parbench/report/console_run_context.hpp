// What the consoles print or obey of the driver's run context (report/run_context.hpp, the
// reporters' `driver_context`): the date in its two forms, the uname lines, the calling sequence
// and --check. One reader, read_console_run_context, fills it, so that no console looks a key of
// that context up by its name: the IMB consoles (through report/imb_context.hpp) and the PAW, CAF
// and overlap consoles print from it.
//
// Two kinds of context reach a console:
// - a run context made by run_context() (the driver's, parbench::mpi::main's, a program's own,
//   docs/library.md §4), which says so by its schema_version. It always has the date, date_text
//   and calling_sequence: one without any of them is refused, naming the field, never printed
//   as an empty line;
// - a context of the caller's own (a unit test, a host standing in for the driver such as
//   tests/paw_host): each field is optional, and a console prints what is there (the IMB banner
//   an empty value, the CAF and overlap ones "-", the PAW console no line).
// In both, the uname fields (machine, system, release, version) are one part, whole or absent
// (run_context() leaves them out only where uname(2) fails), and `check` is the driver's
// (driver_context() in driver/run_options.hpp: --check); a program's own run context has none,
// which is no --check. A field of the wrong type is refused, naming it. The context's other keys
// (CPUs, caches, plugins, ...) are the JSON file's only: no console prints them.
#pragma once

#include <parbench/report/header_fields.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace parbench::report {

// uname(2)'s fields: the IMB banner's "# Machine", "# System", "# Release", "# Version" lines.
struct console_run_context_uname {
    std::string machine;
    std::string system;
    std::string release;
    std::string version;

    friend bool operator==(const console_run_context_uname&,
                           const console_run_context_uname&) = default;
};

struct console_run_context {
    std::optional<std::string> date{};       // ISO 8601, as Google Benchmark: PAW's "date" line
    std::optional<std::string> date_text{};  // "Thu Sep  4 13:20:07 2008": IMB's "# Date"
    std::optional<console_run_context_uname> uname{};
    std::optional<std::string> calling_sequence{};  // the command line, as IMB prints it
    bool check = false;  // --check: the IMB tables have a defects column

    friend bool operator==(const console_run_context&, const console_run_context&) = default;
};

namespace detail {

inline constexpr const char* console_run_context_owner = "driver run context";

// The text under `key`, none where the key is absent; a value that is no text is refused.
[[nodiscard]] inline std::optional<std::string> console_run_context_text(
    const nlohmann::json& context, const char* key) {
    const auto it = context.find(key);
    if (it == context.end()) return std::nullopt;
    if (!it->is_string())
        throw std::invalid_argument(std::string(console_run_context_owner) + ": " + key +
                                    " must be text, not " + it->type_name());
    return it->get_ref<const std::string&>();
}

// The text under `key` of a run context made by run_context(), which always writes it.
[[nodiscard]] inline std::string console_run_context_required_text(const nlohmann::json& context,
                                                                   const char* key) {
    std::optional<std::string> text = console_run_context_text(context, key);
    if (!text)
        throw std::invalid_argument(std::string(console_run_context_owner) + " (schema_version " +
                                    context.at("schema_version").dump() + ") has no " + key);
    return std::move(*text);
}

}  // namespace detail

// A context that is no object (none given) reads as one of the caller's own with no field.
[[nodiscard]] inline console_run_context read_console_run_context(const nlohmann::json& context) {
    console_run_context c;
    if (!context.is_object()) return c;
    using detail::console_run_context_text;
    if (context.contains("schema_version")) {  // made by run_context(): its fields are there
        using detail::console_run_context_required_text;
        c.date = console_run_context_required_text(context, "date");
        c.date_text = console_run_context_required_text(context, "date_text");
        c.calling_sequence = console_run_context_required_text(context, "calling_sequence");
    } else {
        c.date = console_run_context_text(context, "date");
        c.date_text = console_run_context_text(context, "date_text");
        c.calling_sequence = console_run_context_text(context, "calling_sequence");
    }
    if (header_fields::has_part_of(context, detail::console_run_context_owner, "uname",
                                   {"machine", "system", "release", "version"}))
        c.uname = console_run_context_uname{
            .machine = *console_run_context_text(context, "machine"),
            .system = *console_run_context_text(context, "system"),
            .release = *console_run_context_text(context, "release"),
            .version = *console_run_context_text(context, "version")};
    if (const auto check = context.find("check"); check != context.end()) {
        if (!check->is_boolean())
            throw std::invalid_argument(std::string(detail::console_run_context_owner) +
                                        ": check must be true or false, not " +
                                        check->type_name());
        c.check = check->get<bool>();
    }
    return c;
}

}  // namespace parbench::report
