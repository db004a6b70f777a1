// The BLAS suite's settings: PAW's environment variables (table 2.1) give the defaults, the
// suite's options override them, and every value is validated here with a one-line message
// (input_error -> PARBENCH_BAD_INPUT). Pure: the environment comes in as a lookup function, so
// tests can feed any.
#pragma once

#include "kernels.hpp"

#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/core/sizes.hpp>
#include <parbench/plugin/paw_options.hpp>
#include <parbench/plugin/request.hpp>
#include <parbench/policy/paw_nloop.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::blas {

// PAW's shared parsers (plugin/paw_options.hpp), under the names the BLAS suite has used.
using paw::env_lookup;
using paw::process_environment;
using paw::size_progression;

struct blas_config {
    std::vector<kernel> kernels;
    std::vector<int> threads;  // one sweep per value
    std::uint64_t min_size = 8;
    std::uint64_t med_size = 1024;  // the warm-up size, clamped into [min, max]
    std::uint64_t max_size = 10000;
    std::string size_step = "x2";
    std::vector<std::uint64_t> sizes;  // the resolved progression
    policy::iterations::paw_nloop policy{};
    nlohmann::json sources = nlohmann::json::object();  // where each setting came from
};

[[nodiscard]] inline kernel parse_kernel(std::string_view name) {
    const std::string l = parbench::lowercase(name);
    for (kernel k : {kernel::dgemm, kernel::sgemm, kernel::dgemv, kernel::sgemv})
        if (name_of(k) == l) return k;
    throw input_error("paw: unknown benchmark '" + std::string(name) +
                      "'; available: dgemm, sgemm, dgemv, sgemv");
}

// `default_threads`: the thread count OpenBLAS started with (OPENBLAS_NUM_THREADS /
// OMP_NUM_THREADS / cores), used when --threads is not given.
[[nodiscard]] inline blas_config parse_config(const run_request& request, const env_lookup& env,
                                              int default_threads) {
    blas_config cfg;
    static const char* const known[] = {"threads", "min_size",  "med_size", "max_size",
                                        "sizes",   "size_step", "nreps",    "nloop_max",
                                        "nloop_min", "time",    "min_loop_time"};
    for (const auto& [name, value] : request.options) {
        if (std::find_if(std::begin(known), std::end(known),
                         [&](const char* k) { return name == k; }) == std::end(known))
            throw input_error("paw: unknown option --" + name);
        (void)value;
    }
    paw::settings_reader read(request, env, cfg.sources);

    if (request.benchmarks.empty()) {
        cfg.kernels = {kernel::dgemm, kernel::sgemm, kernel::dgemv, kernel::sgemv};
    } else {
        for (const auto& b : request.benchmarks) {
            const kernel k = parse_kernel(b);
            if (std::find(cfg.kernels.begin(), cfg.kernels.end(), k) == cfg.kernels.end())
                cfg.kernels.push_back(k);
        }
    }

    cfg.min_size = read.integer("min_size", "MIN_BLAS_SIZE", 8);
    cfg.med_size = read.integer("med_size", "MED_BLAS_SIZE", 1024);
    cfg.max_size = read.integer("max_size", "MAX_BLAS_SIZE", 10000);
    paw::read_loop_settings(read, cfg.policy, "NLOOP_MAX", 1000);

    if (auto step = read.option("size_step")) cfg.size_step = *step;
    cfg.sizes = paw::read_sizes(read, cfg.min_size, cfg.max_size, cfg.size_step);
    if (!cfg.sources.contains("sizes") && cfg.max_size > 46340)
        throw input_error("maximum size " + std::to_string(cfg.max_size) + " (" +
                          cfg.sources["max_size"].get<std::string>() +
                          ") is above 46340 (the largest matrix order whose N*N elements CBLAS "
                          "can index)");
    for (const auto n : cfg.sizes)
        if (n > 46340) {
            // Name where the number came from: an environment variable is easy to forget.
            const std::string source =
                cfg.sources.contains("sizes")       ? std::string("option --sizes")
                : n == cfg.max_size                 ? cfg.sources["max_size"].get<std::string>()
                : n == cfg.min_size                 ? cfg.sources["min_size"].get<std::string>()
                                                    : std::string("the size progression");
            throw input_error("matrix order " + std::to_string(n) + " (" + source +
                              ") is above 46340 (the largest whose N*N elements CBLAS can "
                              "index)");
        }
    cfg.med_size = std::clamp(cfg.med_size, cfg.min_size, cfg.max_size);

    if (auto list = read.option("threads")) {
        for (const auto& item : split_commas(*list)) {
            const auto t = paw::positive_integer("--threads", item);
            if (t > 4096) throw input_error("--threads " + item + ": more than 4096 threads");
            cfg.threads.push_back(static_cast<int>(t));
        }
        cfg.sources["threads"] = "option --threads";
    } else {
        cfg.threads = {std::max(1, default_threads)};
        cfg.sources["threads"] = "OpenBLAS default (OPENBLAS_NUM_THREADS / OMP_NUM_THREADS)";
    }
    return cfg;
}

}  // namespace parbench::blas
