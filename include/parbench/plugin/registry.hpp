// Plugin discovery: where plugins are looked for, in which order, and which file wins when two
// offer the same plugin name. Loading is RTLD_LOCAL and initialises nothing; the driver decides
// afterwards which plugins a run needs and releases the others before any init.
#pragma once

#include <parbench/plugin/loader.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace parbench::plugin {

// The directories searched, in order. `build_root` is the build tree, used only when the running
// executable lives inside it (so an installed parbench never picks up a stale build);
// `install_dir` the installed plugindir; then PARBENCH_PLUGIN_PATH (colon-separated) and the
// directories given with --plugin-path. The current directory is never searched implicitly.
struct search_path {
    std::vector<std::filesystem::path> directories;

    static search_path standard(const std::filesystem::path& executable,
                                const std::filesystem::path& build_root,
                                const std::filesystem::path& install_dir,
                                const char* environment_path,
                                const std::vector<std::string>& extra) {
        search_path result;
        if (!build_root.empty() && inside(executable, build_root)) {
            // Build plugins live at <build>/plugins/<backend>/parbench_*.so.
            std::error_code ec;
            std::vector<std::filesystem::path> backends;
            for (const auto& entry :
                 std::filesystem::directory_iterator(build_root / "plugins", ec))
                if (entry.is_directory(ec)) backends.push_back(entry.path());
            std::sort(backends.begin(), backends.end());
            for (auto& b : backends) result.directories.push_back(std::move(b));
        }
        if (!install_dir.empty()) result.directories.push_back(install_dir);
        if (environment_path != nullptr) {
            std::string_view rest(environment_path);
            while (!rest.empty()) {
                const auto colon = rest.find(':');
                const std::string_view item = rest.substr(0, colon);
                if (!item.empty()) result.directories.emplace_back(std::string(item));
                if (colon == std::string_view::npos) break;
                rest.remove_prefix(colon + 1);
            }
        }
        for (const auto& dir : extra)
            if (!dir.empty()) result.directories.emplace_back(dir);
        return result;
    }

    // Whether `path` lies under `root` (both made canonical where they exist).
    static bool inside(const std::filesystem::path& path, const std::filesystem::path& root) {
        std::error_code ec;
        const auto p = std::filesystem::weakly_canonical(path, ec);
        if (ec) return false;
        const auto r = std::filesystem::weakly_canonical(root, ec);
        if (ec) return false;
        auto [root_end, path_it] = std::mismatch(r.begin(), r.end(), p.begin(), p.end());
        if (root_end == r.end()) return true;
        // A trailing empty element ("build/") still counts as the root itself.
        return std::next(root_end) == r.end() && root_end->empty();
    }
};

// A plugin file that could not be used, and why (the message names the file).
struct discovery_problem {
    std::filesystem::path file;
    std::string message;
};

// A plugin file that was loaded fine but hidden by an earlier one with the same name.
struct shadowed_plugin {
    std::filesystem::path file;
    std::string name;
    std::filesystem::path winner;
};

// Everything found on the search path: one loaded_plugin per plugin name (first wins).
class registry {
public:
    static registry discover(const search_path& where) {
        registry found;
        for (const auto& dir : where.directories) {
            std::error_code ec;
            if (!std::filesystem::is_directory(dir, ec)) continue;
            std::vector<std::filesystem::path> files;
            for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
                const std::string name = entry.path().filename().string();
                if (name.starts_with("parbench_") && name.ends_with(".so") &&
                    !entry.is_directory(ec))
                    files.push_back(entry.path());
            }
            std::sort(files.begin(), files.end());  // a stable order, whatever readdir says
            for (const auto& file : files) found.consider(file);
        }
        return found;
    }

    [[nodiscard]] std::vector<loaded_plugin>& plugins() noexcept { return plugins_; }
    [[nodiscard]] const std::vector<loaded_plugin>& plugins() const noexcept { return plugins_; }
    [[nodiscard]] const std::vector<discovery_problem>& problems() const noexcept {
        return problems_;
    }
    [[nodiscard]] const std::vector<shadowed_plugin>& shadowed() const noexcept {
        return shadowed_;
    }

    // The plugin that offers `suite`, or nullptr.
    [[nodiscard]] loaded_plugin* plugin_for_suite(std::string_view suite) noexcept {
        for (auto& p : plugins_)
            if (p.find_suite(suite) != nullptr) return &p;
        return nullptr;
    }

    // The plugin that offers the communication service (the MPI plugin), or nullptr.
    [[nodiscard]] loaded_plugin* comm_provider() noexcept {
        for (auto& p : plugins_)
            if (p.offers_comm()) return &p;
        return nullptr;
    }

    // dlcloses every plugin except those listed (by address); call before any init.
    void keep_only(const std::vector<const loaded_plugin*>& keep) {
        std::vector<loaded_plugin> kept;
        for (auto& p : plugins_)
            if (std::find(keep.begin(), keep.end(), &p) != keep.end()) kept.push_back(std::move(p));
        plugins_ = std::move(kept);  // the moved-from handles are empty; the rest close here
    }

private:
    void consider(const std::filesystem::path& file) {
        try {
            loaded_plugin candidate(file);
            for (const auto& p : plugins_) {
                if (p.name() == candidate.name()) {
                    shadowed_.push_back({file, std::string(candidate.name()), p.path()});
                    return;  // candidate closes here
                }
            }
            plugins_.push_back(std::move(candidate));
        } catch (const plugin_error& e) {
            problems_.push_back({file, e.what()});
        }
    }

    std::vector<loaded_plugin> plugins_;
    std::vector<discovery_problem> problems_;
    std::vector<shadowed_plugin> shadowed_;
};

}  // namespace parbench::plugin
