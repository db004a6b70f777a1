// `parbench list`: every plugin found, its suites and benchmarks, the suites this build could
// not build, shadowed files and unusable ones. Finding no plugin at all is an error that names
// the directories searched.
#pragma once

#include "unavailable_suites.hpp"

#include <parbench/driver/exit_status.hpp>
#include <parbench/host/host.hpp>
#include <parbench/host/launcher.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::app {

using namespace parbench::driver;

inline std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

inline void list_suite(const parbench_suite& suite) {
    std::cout << "  suite " << suite.name;
    if (suite.description != nullptr) std::cout << " - " << suite.description;
    if ((suite.flags & PARBENCH_SUITE_NEEDS_MPI) != 0u) std::cout << " [needs MPI]";
    std::cout << '\n';
    std::size_t width = 4;
    for (std::size_t b = 0; b < suite.benchmark_count; ++b)
        width = std::max(width, std::string_view(suite.benchmarks[b].name).size());
    for (std::size_t b = 0; b < suite.benchmark_count; ++b) {
        const parbench_benchmark& bench = suite.benchmarks[b];
        if ((bench.flags & PARBENCH_BENCH_TEST_ONLY) != 0u) continue;
        const bool by_default = (bench.flags & PARBENCH_BENCH_DEFAULT) != 0u;
        std::cout << fmt::format("    {:<{}}  {:<17}  {:<11}  {}\n", bench.name, width,
                                 bench.klass, by_default ? "default" : "non-default",
                                 bench.description != nullptr ? bench.description : "");
    }
}

inline int list_plugins(parbench::host& pb) {
    auto& found = pb.plugins();
    for (const auto& p : found.load_all()) {
        const auto& d = p.descriptor();
        std::cout << "plugin " << p.name() << ' ' << p.version() << "  (" << p.path().string()
                  << ")\n";
        const std::string info = first_line(p.backend_info());
        if (!info.empty()) std::cout << "  " << info << '\n';
        for (std::size_t s = 0; s < d.suite_count; ++s) list_suite(d.suites[s]);
    }
    for (const auto& u : unavailable_suites()) {
        // Keyed by plugin, not suite: several plugins offer `paw`, each its own benchmarks.
        const bool found_elsewhere =
            std::any_of(found.plugins().begin(), found.plugins().end(),
                        [&](const auto& p) { return p.name() == u.plugin; });
        if (found_elsewhere) continue;  // another build of the plugin is on the search path
        std::cout << "suite " << u.suite << " - unavailable: " << u.file << " was not built: "
                  << u.reason << '\n';
    }
    for (const auto& s : found.shadowed())
        std::cout << "shadowed: " << s.file.string() << " (plugin '" << s.name
                  << "' is already provided by " << s.winner.string() << ")\n";
    // Every process of an MPI launch finds the same plugins: its rank 0 says what is wrong.
    const bool speaks = parbench::launcher_rank() == 0;
    if (speaks)
        for (const auto& problem : found.problems()) print_error(problem.message);
    if (found.plugins().empty() && found.problems().empty()) {
        if (speaks) print_error(pb.no_plugins_text());
        return exit_failure;
    }
    return found.problems().empty() ? exit_ok : exit_failure;
}

}  // namespace parbench::app
