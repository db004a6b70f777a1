// The files a plugin writes during a run (imb-io's MPI-IO files) live in one directory of the
// run's own, which the plugin names in its run header ("io_directory") and removes when it
// finishes. When the driver stops a run itself — --timeout, SIGINT/SIGTERM/SIGHUP, an output
// error — the plugin is aborted mid-measurement and cannot; the driver removes the directory
// then, on rank 0, before the abort. Only a directory named like the plugin's
// (parbench-io-<host>-<pid>-XXXXXX) is removed: a header can never make the driver delete
// anything else.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <string_view>

namespace parbench::driver {

// The run's file directory announced in a run header, or "" when there is none (or it is not
// one of ours).
[[nodiscard]] inline std::string run_file_directory(const nlohmann::json& header) {
    if (!header.is_object()) return {};
    const auto it = header.find("io_directory");
    if (it == header.end() || !it->is_string()) return {};
    const std::filesystem::path path(it->get<std::string>());
    const std::string name = path.filename().string();
    if (!path.is_absolute() || !name.starts_with("parbench-io-")) return {};
    return path.string();
}

// Removes it and everything in it; nothing when it is already gone.
inline void remove_run_files(const std::string& directory) noexcept {
    if (directory.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(directory, ignored);
}

}  // namespace parbench::driver
