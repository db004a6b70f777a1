// Where a host looks for plugins: the rules of plugin::search_path::standard() (build tree when
// the executable runs from it, the installed plugindir, PARBENCH_PLUGIN_PATH, extra directories)
// with this build's directories as defaults. A program built by the parbench build gets them as
// PARBENCH_BUILD_ROOT and PARBENCH_PLUGINDIR; an installed program sets PARBENCH_PLUGIN_PATH or
// names the directories in host_options.
#pragma once

#include <parbench/plugin/registry.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace parbench {

struct host_options {
    std::vector<std::string> plugin_dirs{};  // searched after the standard places
    std::filesystem::path executable{};    // "": this process's executable (/proc/self/exe)
#ifdef PARBENCH_BUILD_ROOT
    std::filesystem::path build_root = PARBENCH_BUILD_ROOT;
#else
    std::filesystem::path build_root{};
#endif
#ifdef PARBENCH_PLUGINDIR
    std::filesystem::path install_dir = PARBENCH_PLUGINDIR;
#else
    std::filesystem::path install_dir{};
#endif
    // Which MPI plugin a run loads, where several were built: "" lets the launcher decide (the
    // plugin of its MPI family); "mpich", "openmpi" or a plugin's name chooses
    // (host/mpi_choice.hpp; the driver's --mpi NAME).
    std::string mpi{};
};

[[nodiscard]] inline std::filesystem::path this_executable(const char* argv0) {
    std::error_code ec;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) return self;
    return std::filesystem::path(argv0 != nullptr ? argv0 : "parbench");
}

[[nodiscard]] inline plugin::search_path plugin_search(const host_options& o, const char* argv0) {
    return plugin::search_path::standard(
        o.executable.empty() ? this_executable(argv0) : o.executable, o.build_root,
        o.install_dir, std::getenv("PARBENCH_PLUGIN_PATH"), o.plugin_dirs);
}

}  // namespace parbench
