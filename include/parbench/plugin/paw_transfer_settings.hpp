// Settings of PAW's host-device transfer tests (GPU: catalogue C.8; Phi/offload: C.9), shared by
// every plugin that offers them. PAW's environment variables (table 2.1) give the defaults, the
// suite's options override them; every value is validated with a one-line message naming the
// option or variable (input_error -> PARBENCH_BAD_INPUT). Pure: the environment comes in as a
// lookup function, so tests can feed any.
//
// PAW leaves the size progression and the unit open; parbench's: sizes are bytes, doubling from
// MIN to MAX with MAX always last (as the BLAS tests), or an explicit --sizes list.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/sizes.hpp>
#include <parbench/plugin/paw_options.hpp>
#include <parbench/plugin/paw_run_header.hpp>
#include <parbench/plugin/request.hpp>
#include <parbench/policy/paw_nloop.hpp>
#include <parbench/report/paw_header.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::paw {

// Which family of PAW variables a plugin reads, and their defaults.
struct transfer_family {
    const char* min_variable;    // "MIN_GPU_SIZE"
    const char* med_variable;    // "MED_GPU_SIZE"
    const char* max_variable;    // "MAX_GPU_SIZE"
    const char* nloop_variable;  // "NLOOP_MAX" or "NLOOP_PHI_MAX"
    std::uint64_t min_bytes;
    std::uint64_t med_bytes;
    std::uint64_t max_bytes;
    std::uint64_t nloop_max;
};

inline constexpr transfer_family gpu_family{"MIN_GPU_SIZE", "MED_GPU_SIZE", "MAX_GPU_SIZE",
                                            "NLOOP_MAX",    128,            20000,
                                            200000000,      1000};
inline constexpr transfer_family phi_family{"MIN_PHI_SIZE", "MED_PHI_SIZE", "MAX_PHI_SIZE",
                                            "NLOOP_PHI_MAX", 256,           8192,
                                            614400000,       100};

// The options every transfer suite declares (names without dashes), for the plugin's parameter
// table and for the unknown-option check.
inline const std::vector<std::string>& transfer_option_names() {
    static const std::vector<std::string> names = {"min_size", "med_size", "max_size", "sizes",
                                                   "nreps",    "nloop_max", "nloop_min", "time",
                                                   "min_loop_time"};
    return names;
}

struct transfer_settings {
    std::uint64_t min_bytes = 0;
    std::uint64_t med_bytes = 0;  // the warm-up size, clamped into [min, max]
    std::uint64_t max_bytes = 0;
    std::vector<std::uint64_t> sizes;  // the resolved progression, ascending
    policy::iterations::paw_nloop policy{};
    nlohmann::json sources = nlohmann::json::object();  // where each setting came from
};

// `plugin_options`: the names of the plugin's own further options (e.g. "device"), accepted and
// left to the plugin. Anything else is an unknown option.
[[nodiscard]] inline transfer_settings parse_transfer_settings(
    const run_request& request, const env_lookup& env, const transfer_family& family,
    const std::vector<std::string>& plugin_options = {}) {
    transfer_settings cfg;
    for (const auto& [name, value] : request.options) {
        (void)value;
        const auto& shared = transfer_option_names();
        if (std::find(shared.begin(), shared.end(), name) == shared.end() &&
            std::find(plugin_options.begin(), plugin_options.end(), name) == plugin_options.end())
            throw input_error("paw: unknown option --" + name);
    }
    settings_reader read(request, env, cfg.sources);
    cfg.min_bytes = read.integer("min_size", family.min_variable, family.min_bytes);
    cfg.med_bytes = read.integer("med_size", family.med_variable, family.med_bytes);
    cfg.max_bytes = read.integer("max_size", family.max_variable, family.max_bytes);
    read_loop_settings(read, cfg.policy, family.nloop_variable, family.nloop_max);

    cfg.sizes = read_sizes(read, cfg.min_bytes, cfg.max_bytes, "x2");
    // A transfer buffer above 1 TiB is a typo, not a benchmark.
    constexpr std::uint64_t largest = std::uint64_t{1} << 40;
    if (cfg.max_bytes > largest)
        throw input_error("transfer size " + std::to_string(cfg.max_bytes) + " (" +
                          (cfg.sources.contains("sizes") ? std::string("option --sizes")
                                                         : cfg.sources["max_size"].get<std::string>()) +
                          ") is out of range (at most 2^40 bytes)");
    cfg.med_bytes = std::clamp(cfg.med_bytes, cfg.min_bytes, cfg.max_bytes);
    return cfg;
}

// "--device 0,1" / "all": the device ids to use, validated against the count present.
[[nodiscard]] inline std::vector<int> parse_devices(const run_request& request, int device_count) {
    const auto it = request.options.find("device");
    if (it == request.options.end()) return {0};
    const std::string text = option_text("device", it->second);
    std::vector<int> devices;
    if (text == "all") {
        for (int d = 0; d < device_count; ++d) devices.push_back(d);
        return devices;
    }
    std::set<int> seen;
    std::string_view rest = text;
    while (true) {
        const auto comma = rest.find(',');
        const std::string item(parbench::trim(rest.substr(0, comma)));
        std::uint64_t id = 0;
        if (!parbench::parse_unsigned(item, id))
            throw input_error("--device '" + text + "': expected device ids (0,1,...) or 'all'");
        if (id >= static_cast<std::uint64_t>(device_count))
            throw input_error("--device '" + text + "': device " + item + " is out of range (" +
                              std::to_string(device_count) + " device" +
                              (device_count == 1 ? "" : "s") + " present)");
        if (!seen.insert(static_cast<int>(id)).second)
            throw input_error("--device '" + text + "': device " + item + " named twice");
        devices.push_back(static_cast<int>(id));
        if (comma == std::string_view::npos) break;
        rest = rest.substr(comma + 1);
    }
    return devices;
}

// The run header fields every PAW transfer family shares (console and JSON): the size
// progression and the NLOOP/NREPS settings (paw::header_loops, plugin/paw_run_header.hpp); a
// plugin adds its own (devices, pairing, method).
[[nodiscard]] inline report::paw_header transfer_header(std::string_view family,
                                                        const transfer_settings& cfg,
                                                        double timer_threshold_s,
                                                        std::string_view size_meaning) {
    return {.family = std::string(family),
            .row_kinds = std::vector<std::string>{"transfer"},
            .sizes = cfg.sizes,
            .size_range = report::paw_header_size_range{.min_size = cfg.min_bytes,
                                                        .med_size = cfg.med_bytes,
                                                        .max_size = cfg.max_bytes},
            .loops = header_loops(cfg.policy, timer_threshold_s),
            .size_meaning = std::string(size_meaning),
            .bandwidth_unit = "GB/s = 10^9 bytes/s"};
}

}  // namespace parbench::paw
