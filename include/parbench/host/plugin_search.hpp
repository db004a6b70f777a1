// Where a host looks for plugins, in this order (plugin::search_path::standard()), the first
// plugin of a name winning:
//   1. the build tree's plugins/*/, only when the executable runs from that build tree;
//   2. install_dir_from_executable, relative to the executable's directory (the driver's
//      ../lib/<arch>/parbench: an install moved to another prefix finds its own plugins);
//   3. install_dir, the configured plugindir: PARBENCH_PLUGINDIR when the program defines it
//      (CMake's parbench::parbench target does; with pkg-config, pass
//      -DPARBENCH_PLUGINDIR="\"$(pkg-config --variable=plugindir parbench)\"");
//   4. each directory of the PARBENCH_PLUGIN_PATH environment variable (colon-separated);
//   5. plugin_dirs, the program's own (the driver's --plugin-path).
// A program built by the parbench build gets 1 and 3 as PARBENCH_BUILD_ROOT and
// PARBENCH_PLUGINDIR; the driver also gets 2. A host that finds no plugin names these
// directories in its error (host::no_plugins_text()).
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
    // The plugin directory relative to the executable's directory; "" for none (a program
    // outside the parbench install: its executable says nothing about where plugins are).
#ifdef PARBENCH_PLUGINDIR_FROM_EXECUTABLE
    std::filesystem::path install_dir_from_executable = PARBENCH_PLUGINDIR_FROM_EXECUTABLE;
#else
    std::filesystem::path install_dir_from_executable{};
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
        o.install_dir, std::getenv("PARBENCH_PLUGIN_PATH"), o.plugin_dirs,
        o.install_dir_from_executable);
}

}  // namespace parbench
