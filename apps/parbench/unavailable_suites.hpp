// Suites whose plugin this build of parbench could not build, and why (decided by Meson at
// configure time: a missing compiler or library). `parbench list` shows them as unavailable and
// `parbench run` names the reason instead of "unknown suite", unless a plugin for the suite was
// found on the search path after all.
#pragma once

#include <string>
#include <vector>

namespace parbench::app {

struct unavailable_suite {
    std::string suite;
    std::string plugin;  // the file that was not built
    std::string reason;
};

[[nodiscard]] inline const std::vector<unavailable_suite>& unavailable_suites() {
    static const std::vector<unavailable_suite> suites = {
#ifndef PARBENCH_CAF_BUILT
        {"caf", "parbench_caf.so", PARBENCH_CAF_UNAVAILABLE_REASON},
#endif
    };
    return suites;
}

}  // namespace parbench::app
