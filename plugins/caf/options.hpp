// The caf suite's options: what EPCC fixes at compile time in cafparams.f90, given at run time.
// Each is parsed here, once, into caf::options; a bad value is one input_error line naming it.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/options.hpp>
#include <parbench/plugin/abi.h>
#include <parbench/plugin/request.hpp>
#include <parbench/policy/iterations.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::caf {

// Who takes part in a ping-pong (EPCC's three modes).
enum class ping_pong_mode { single, multiple, crossing };
// How the two images of a ping-pong step wait for each other.
enum class step_sync { all, images };

[[nodiscard]] constexpr std::string_view to_string(ping_pong_mode m) noexcept {
    switch (m) {
        case ping_pong_mode::single: return "single";
        case ping_pong_mode::multiple: return "multiple";
        case ping_pong_mode::crossing: return "crossing";
    }
    return "single";
}
[[nodiscard]] constexpr std::string_view to_string(step_sync s) noexcept {
    return s == step_sync::all ? "sync all" : "sync images";
}

struct options {
    std::vector<int> counts{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};  // blocks per transfer
    int blksize = 1;  // elements (double precision) per block
    int stride = 2;   // distance of block starts, in blocks (strided patterns)
    std::vector<ping_pong_mode> modes{ping_pong_mode::single};
    bool modes_given = false;  // an impossible mode is refused only when asked for
    std::vector<step_sync> syncs{step_sync::all, step_sync::images};
    int syncmaxneigh = 12;
    std::uint64_t seed = 1;
    double delay_us = 2.0;
    std::vector<int> halo_sizes{8, 16, 32};
    policy::iterations::imb_volume iterations{.msgs_per_sample = 200,
                                              .overall_vol_bytes = 40ull << 20,
                                              .msgs_nonaggr = 200,
                                              .secs_per_sample = 0.2};
    bool check = false;
};

// The largest array one image allocates for a point-to-point pattern: 2^27 doubles (1 GiB).
inline constexpr std::uint64_t max_extent_elements = 1ull << 27;

namespace detail {

// "N" or "MIN:MAX": N alone, or MIN, 2 MIN, 4 MIN, ... up to MAX.
[[nodiscard]] inline std::vector<int> doubling_range(std::string_view option, std::string_view text,
                                                     int high) {
    const auto colon = text.find(':');
    const std::int64_t low = parbench::parse_whole_number(option, text.substr(0, colon), 1, high);
    if (colon == std::string_view::npos) return {static_cast<int>(low)};
    const std::int64_t top = parbench::parse_whole_number(option, text.substr(colon + 1), 1, high);
    if (top < low)
        throw input_error("-" + std::string(option) + " " + std::string(text) + ": minimum " +
                          std::to_string(low) + " is larger than maximum " + std::to_string(top));
    std::vector<int> values;
    for (std::int64_t v = low; v <= top; v *= 2) values.push_back(static_cast<int>(v));
    return values;
}

}  // namespace detail

// The suite's parameters, as the driver shows and parses them.
inline constexpr parbench_parameter parameters[] = {
    {"count", "N|MIN:MAX", "Blocks per transfer: N, or MIN, 2 MIN, ... MAX (ndata = count * blksize)",
     "1:1024", PARBENCH_ARITY_ONE},
    {"blksize", "N", "Elements (double precision) per block", "1", PARBENCH_ARITY_ONE},
    {"stride", "N", "Strided patterns: distance between block starts, in blocks", "2",
     PARBENCH_ARITY_ONE},
    {"mode", "single|multiple|crossing", "Ping-pong modes to run", "single", PARBENCH_ARITY_LIST},
    {"sync", "all|images", "Ping-pong synchronisation: sync all, sync images", "all images",
     PARBENCH_ARITY_LIST},
    {"syncmaxneigh", "N", "Largest neighbour count of the random and ring sync rows", "12",
     PARBENCH_ARITY_ONE},
    {"seed", "N", "Seed of the random sync pattern", "1", PARBENCH_ARITY_ONE},
    {"delay", "USEC", "Delay loop of the synchronisation benchmarks, microseconds", "2",
     PARBENCH_ARITY_ONE},
    {"halosize", "N...", "Halo benchmark: local cube edges (cells per dimension)", "8 16 32",
     PARBENCH_ARITY_LIST},
    {"iter", "N", "Repetitions per measurement (fewer when -time would be exceeded)", "200",
     PARBENCH_ARITY_ONE},
    {"time", "SECONDS", "Time budget of one measurement", "0.2", PARBENCH_ARITY_ONE},
};

[[nodiscard]] inline options parse_options(const run_request& request) {
    options o;
    o.check = request.check || request.options.contains("check");
    for (const auto& [name, value] : request.options) {
        const std::string text = parbench::option_text(name, value);
        if (name == "count") {
            o.counts = detail::doubling_range(name, text, std::numeric_limits<int>::max());
        } else if (name == "blksize") {
            o.blksize = static_cast<int>(parbench::parse_whole_number(name, text, 1, max_extent_elements));
        } else if (name == "stride") {
            o.stride = static_cast<int>(parbench::parse_whole_number(name, text, 1, max_extent_elements));
        } else if (name == "mode") {
            o.modes.clear();
            o.modes_given = true;
            for (const auto& word : parbench::option_words(name, value)) {
                if (word == "single") o.modes.push_back(ping_pong_mode::single);
                else if (word == "multiple") o.modes.push_back(ping_pong_mode::multiple);
                else if (word == "crossing") o.modes.push_back(ping_pong_mode::crossing);
                else
                    throw input_error("-mode " + word + ": expected single, multiple or crossing");
            }
            if (o.modes.empty()) throw input_error("-mode: expected single, multiple or crossing");
        } else if (name == "sync") {
            o.syncs.clear();
            for (const auto& word : parbench::option_words(name, value)) {
                if (word == "all") o.syncs.push_back(step_sync::all);
                else if (word == "images") o.syncs.push_back(step_sync::images);
                else throw input_error("-sync " + word + ": expected all or images");
            }
            if (o.syncs.empty()) throw input_error("-sync: expected all or images");
        } else if (name == "syncmaxneigh") {
            o.syncmaxneigh = static_cast<int>(parbench::parse_whole_number(name, text, 2, 1 << 20));
        } else if (name == "seed") {
            o.seed = static_cast<std::uint64_t>(
                parbench::parse_whole_number(name, text, 0, std::numeric_limits<std::int64_t>::max()));
        } else if (name == "delay") {
            o.delay_us = parbench::parse_microseconds("-delay", text, 1e6, "1000000 microseconds");
        } else if (name == "halosize") {
            o.halo_sizes.clear();
            for (const auto& word : parbench::option_words(name, value))
                o.halo_sizes.push_back(static_cast<int>(parbench::parse_whole_number(name, word, 1, 512)));
            if (o.halo_sizes.empty()) throw input_error("-halosize: expected edge lengths");
        } else if (name == "iter") {
            o.iterations.msgs_per_sample = o.iterations.msgs_nonaggr =
                static_cast<std::uint64_t>(parbench::parse_whole_number(name, text, 1, 1ll << 40));
        } else if (name == "time") {
            o.iterations.secs_per_sample = parbench::parse_seconds("-time", text);
        }
    }
    return o;
}

}  // namespace parbench::caf
