// A plugin's C surface from named parts: the parbench_plugin descriptor its entry point returns
// (plugin/abi.h), and the run function of a plugin that hosts its suites as hosted_suite
// records. Every plugin of this repository fills its descriptor here, so the ABI's field order,
// version fields and reserved room are written once:
//
//   const parbench_plugin& descriptor() {
//       static const std::vector<parbench_suite> suites = plugin::suite_table(hosted_suites);
//       static const parbench_plugin d = plugin::descriptor_of({.name = "blas",
//                                                               .backend_info = &backend_info,
//                                                               .init = &init,
//                                                               .finalize = &finalize,
//                                                               .run = &run,
//                                                               .suites = suites});
//       return d;
//   }
#pragma once

#include <parbench/plugin/abi.h>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/hosted_suite.hpp>
#include <parbench/plugin/request.hpp>
#include <parbench/version.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace parbench::plugin {

// What a plugin provides; `name`, `backend_info`, `init`, `finalize` and `run` are required.
struct plugin_parts {
    const char* name = nullptr;  // "mpi": the plugin's name in `parbench list`
    const char* (*backend_info)() = nullptr;
    parbench_status (*init)(const parbench_init_args* args, char* error,
                            std::size_t error_size) = nullptr;
    parbench_status (*finalize)(char* error, std::size_t error_size) = nullptr;
    parbench_status (*run)(const char* request_json, const parbench_host* host, char* error,
                           std::size_t error_size) = nullptr;
    std::span<const parbench_suite> suites{};  // must outlive the descriptor
    const parbench_comm_service* (*comm_service)() = nullptr;  // only a plugin that offers one
    // ABI 1.1: value types of the suites' parameters (none: every parameter is text)
    std::span<const parbench_parameter_type> parameter_types{};
    const char* version = parbench::version;  // the project's, as every plugin here
};

// The descriptor of `parts`, for this build's ABI.
[[nodiscard]] inline parbench_plugin descriptor_of(const plugin_parts& parts) noexcept {
    return {
        PARBENCH_ABI_MAJOR,
        PARBENCH_ABI_MINOR,
        sizeof(parbench_plugin),
        parts.name,
        parts.version,
        parts.backend_info,
        parts.init,
        parts.finalize,
        parts.suites.data(),
        parts.suites.size(),
        parts.comm_service,
        parts.run,
        parts.parameter_types.empty() ? nullptr : parts.parameter_types.data(),
        parts.parameter_types.size(),
        {},
    };
}

// The body of a hosting plugin's run function: the request parsed, handed to the suite it
// names; every exception becomes the plugin's error status and message (plugin::guarded).
// `plugin_context` goes into every run_start's context (host_channel).
inline parbench_status run_hosted_suite(std::span<const hosted_suite* const> hosted,
                                        std::string_view plugin_name, const char* request_json,
                                        const parbench_host* host_ptr, char* error,
                                        std::size_t error_size,
                                        nlohmann::json plugin_context = nlohmann::json::object()) {
    return guarded(error, error_size, [&] {
        const run_request request =
            parse_run_request(request_json, std::string(plugin_name) + " plugin");
        const host_channel host(host_ptr, std::move(plugin_context));
        suite_named(hosted, request.suite, plugin_name).run(request, host);
    });
}

}  // namespace parbench::plugin
