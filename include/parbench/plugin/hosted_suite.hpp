// A suite as a plugin hosts it: what `parbench list` shows of it, and its run. A plugin is laid
// out as plugins/mpi/ is: its C surface (plugin.cpp) holds one explicit array of the suites it
// hosts, in the order `parbench list` shows them, builds its descriptor's suite table from it
// and hands every run request to the suite it names; each suite is one file defining one
// hosted_suite, with its own catalogue of benchmarks and the families that run them.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/plugin/abi.h>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/request.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::plugin {

struct hosted_suite {
    parbench_suite info;
    // Throws input_error for a bad request. A suite that needs MPI is called on every rank.
    void (*run)(const run_request& request, const host_channel& host);
};

// The suite of `hosted` that `name` names (matched as the driver matches names); an input_error
// naming `plugin_name` when none does.
[[nodiscard]] inline const hosted_suite& suite_named(std::span<const hosted_suite* const> hosted,
                                                     std::string_view name,
                                                     std::string_view plugin_name) {
    for (const hosted_suite* s : hosted)
        if (same_name(s->info.name, name)) return *s;
    throw input_error("suite '" + std::string(name) + "' is not offered by the " +
                      std::string(plugin_name) + " plugin");
}

// The descriptor's suite table, in the order of `hosted`. Call it on first use of the
// descriptor, after every suite file's static initialisation has run.
[[nodiscard]] inline std::vector<parbench_suite> suite_table(
    std::span<const hosted_suite* const> hosted) {
    std::vector<parbench_suite> infos;
    infos.reserve(hosted.size());
    for (const hosted_suite* s : hosted) infos.push_back(s->info);
    return infos;
}

}  // namespace parbench::plugin
