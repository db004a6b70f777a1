// What OpenBLAS says about itself: its version, configuration and core, and the thread count it
// started with. For the backend line (plugin.cpp) and the run context (suite.cpp).
#pragma once

#include <cblas.h>

#include <sstream>
#include <string>

namespace parbench::blas {

// OpenBLAS's thread count before parbench changed it: the default of --threads.
[[nodiscard]] inline int initial_threads() {
    static const int threads = openblas_get_num_threads();
    return threads;
}

[[nodiscard]] inline std::string openblas_config_text() {
    const char* c = openblas_get_config();
    return c != nullptr ? std::string(c) : std::string{};
}

[[nodiscard]] inline std::string openblas_version() {
    // openblas_get_config() starts "OpenBLAS 0.3.21 ..."
    std::istringstream words(openblas_config_text());
    std::string first, second;
    words >> first >> second;
    return first == "OpenBLAS" ? second : std::string("unknown");
}

[[nodiscard]] inline std::string openblas_corename() {
    const char* c = openblas_get_corename();
    return c != nullptr ? std::string(c) : std::string("unknown");
}

}  // namespace parbench::blas
