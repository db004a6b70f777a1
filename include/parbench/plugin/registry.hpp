// Plugin discovery: where plugins are looked for, in which order, and which file wins when two
// offer the same plugin name. What each directory holds is read from its plugin manifest
// (manifest.hpp) when one is there and fresh; otherwise its files are probed in a child process.
// The driver then loads (RTLD_LOCAL, initialising nothing) only the plugins a run needs.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/plugin/loader.hpp>
#include <parbench/plugin/manifest.hpp>
#include <parbench/plugin/mpi_header.hpp>

#include <nlohmann/json.hpp>

#include <dlfcn.h>
#include <link.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <deque>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace parbench::plugin {

// The directories searched, in order. `build_root` is the build tree, used only when the running
// executable lives inside it (so an installed parbench never picks up a stale build);
// `relative_install_dir` the plugindir relative to the executable's directory (the driver's
// `../lib/<arch>/parbench`: an install moved to another prefix finds its own plugins), used only
// when the executable is not in the build tree; `install_dir` the configured plugindir; then
// PARBENCH_PLUGIN_PATH (colon-separated) and the directories given with --plugin-path. The
// current directory is never searched implicitly; a directory already on the list is not added
// twice.
struct search_path {
    std::vector<std::filesystem::path> directories;
    // The manifest file that describes each directory (manifest.hpp), index for index: the build
    // tree's in its root, every other directory's inside it.
    std::vector<std::filesystem::path> manifests;

    void add(std::filesystem::path dir, std::filesystem::path manifest_file = {}) {
        for (const auto& known : directories)
            if (manifest_impl::canonical_or_self(known) == manifest_impl::canonical_or_self(dir))
                return;
        if (manifest_file.empty()) manifest_file = dir / manifest_file_name;
        directories.push_back(std::move(dir));
        manifests.push_back(std::move(manifest_file));
    }

    static search_path standard(const std::filesystem::path& executable,
                                const std::filesystem::path& build_root,
                                const std::filesystem::path& install_dir,
                                const char* environment_path,
                                const std::vector<std::string>& extra,
                                const std::filesystem::path& relative_install_dir = {}) {
        search_path result;
        const bool in_build_tree = !build_root.empty() && inside(executable, build_root);
        if (in_build_tree) {
            // Build plugins live at <build>/plugins/<backend>/parbench_*.so; the build writes
            // their manifest at <build>/parbench-plugins.json.
            std::error_code ec;
            std::vector<std::filesystem::path> backends;
            for (const auto& entry :
                 std::filesystem::directory_iterator(build_root / "plugins", ec))
                if (entry.is_directory(ec)) backends.push_back(entry.path());
            std::sort(backends.begin(), backends.end());
            for (auto& b : backends) result.add(std::move(b), build_root / manifest_file_name);
        }
        if (!in_build_tree && !relative_install_dir.empty() && !executable.empty())
            result.add((executable.parent_path() / relative_install_dir).lexically_normal());
        if (!install_dir.empty()) result.add(install_dir);
        if (environment_path != nullptr) {
            std::string_view rest(environment_path);
            while (!rest.empty()) {
                const auto colon = rest.find(':');
                const std::string_view item = rest.substr(0, colon);
                if (!item.empty()) result.add(std::string(item));
                if (colon == std::string_view::npos) break;
                rest.remove_prefix(colon + 1);
            }
        }
        for (const auto& dir : extra)
            if (!dir.empty()) result.add(dir);
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

// What probing one plugin file found out, without keeping it loaded.
struct plugin_manifest {
    std::filesystem::path file;
    std::string name;
    std::vector<std::string> suites;
    bool offers_comm = false;
    // Each suite's benchmark names (hidden test kernels included): one suite may be offered by
    // several plugins (PAW's BLAS, GPU and offload tests), and the names pick the plugin.
    std::map<std::string, std::vector<std::string>> benchmarks;
    // An MPI plugin's library, the first line of its backend_info (MPI_Get_library_version,
    // which MPI allows before MPI_Init): which MPI it was built for (host/mpi_family.hpp).
    std::string mpi_library;
    // The mpi.h it was compiled against ("MPICH 4.0.2"; "" when its backend_info does not say):
    // the ABI its calls were built for, which a preloaded libmpi of another MPI cannot serve.
    std::string mpi_header;
};

namespace detail {

// The libraries a loaded plugin file names as its DT_NEEDED entries ("libmpich.so.12"): what it
// needs on every node, recorded in the manifest for people (discovery does not read it).
inline std::vector<std::string> needed_libraries(const std::filesystem::path& file) {
    std::vector<std::string> names;
    void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_LOCAL);
    if (handle == nullptr) return names;
    struct link_map* map = nullptr;
    if (::dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr && map->l_ld != nullptr) {
        // The loader relocates the string table's address in place on most targets; where it
        // does not, the address is still relative to the load base.
        const char* strings = nullptr;
        for (const ElfW(Dyn)* d = map->l_ld; d->d_tag != DT_NULL; ++d)
            if (d->d_tag == DT_STRTAB)
                strings = reinterpret_cast<const char*>(
                    d->d_un.d_ptr < map->l_addr ? d->d_un.d_ptr + map->l_addr : d->d_un.d_ptr);
        if (strings != nullptr)
            for (const ElfW(Dyn)* d = map->l_ld; d->d_tag != DT_NULL; ++d)
                if (d->d_tag == DT_NEEDED) names.emplace_back(strings + d->d_un.d_val);
    }
    ::dlclose(handle);
    return names;
}

// Opens every file in a forked child and reports each one's manifest (or problem) as a JSON line
// through a pipe. The driver's own process therefore maps only the plugins a run needs: a BLAS run
// never has libmpich loaded because the MPI plugin sat beside it on the search path. It also
// turns a plugin that crashes while loading into a message instead of a dead driver. When the
// child dies on a file, that file is reported and probing resumes after it.
inline std::vector<nlohmann::json> probe_in_child(const std::vector<std::filesystem::path>& files) {
    std::vector<nlohmann::json> reports;
    std::size_t next = 0;
    while (next < files.size()) {
        int fds[2];
        if (::pipe(fds) != 0) throw plugin_error("cannot probe plugins: pipe() failed");
        std::fflush(nullptr);  // nothing buffered may be written twice
        const pid_t child = ::fork();
        if (child < 0) {
            ::close(fds[0]);
            ::close(fds[1]);
            throw plugin_error("cannot probe plugins: fork() failed");
        }
        if (child == 0) {
            ::close(fds[0]);
            for (std::size_t i = next; i < files.size(); ++i) {
                nlohmann::json report{{"file", files[i].string()}};
                try {
                    const loaded_plugin candidate(files[i]);
                    const parbench_plugin& d = candidate.descriptor();
                    report["name"] = std::string(candidate.name());
                    report["version"] = std::string(candidate.version());
                    report["offers_comm"] = candidate.offers_comm();
                    report["needs"] = needed_libraries(files[i]);
                    if (candidate.offers_comm()) {
                        const std::string info = candidate.backend_info();
                        report["mpi_library"] = info.substr(0, info.find('\n'));
                        report["mpi_header"] = mpi_header_of_backend_info(info);
                    }
                    std::vector<std::string> suites;
                    nlohmann::json benchmarks = nlohmann::json::object();
                    nlohmann::json parameters = nlohmann::json::object();
                    for (std::size_t k = 0; k < d.suite_count; ++k) {
                        const parbench_suite& suite = d.suites[k];
                        suites.emplace_back(suite.name);
                        auto& names = benchmarks[suite.name];
                        names = nlohmann::json::array();
                        for (std::size_t b = 0; b < suite.benchmark_count; ++b)
                            names.push_back(suite.benchmarks[b].name);
                        auto& options = parameters[suite.name];
                        options = nlohmann::json::array();
                        for (std::size_t q = 0; q < suite.parameter_count; ++q)
                            options.push_back(suite.parameters[q].name);
                    }
                    report["suites"] = suites;
                    report["benchmarks"] = benchmarks;
                    report["parameters"] = parameters;
                } catch (const std::exception& e) {
                    report["problem"] = e.what();
                }
                const std::string line = report.dump() + "\n";
                std::size_t written = 0;
                while (written < line.size()) {
                    const ssize_t n = ::write(fds[1], line.data() + written, line.size() - written);
                    if (n <= 0) ::_exit(1);
                    written += static_cast<std::size_t>(n);
                }
            }
            ::_exit(0);  // no atexit handlers, no stdio flush: the child only reports
        }
        ::close(fds[1]);
        std::string text;
        char buffer[4096];
        for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) != 0;) {
            if (n < 0) {
                if (errno == EINTR) continue;
                break;
            }
            text.append(buffer, static_cast<std::size_t>(n));
        }
        ::close(fds[0]);
        int status = 0;
        while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
        std::size_t line_start = 0;
        for (std::size_t nl; (nl = text.find('\n', line_start)) != std::string::npos;
             line_start = nl + 1) {
            reports.push_back(nlohmann::json::parse(text.substr(line_start, nl - line_start)));
            ++next;
        }
        if (next < files.size() && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
            const std::string how = files[next].string() + ": " +
                                    (WIFSIGNALED(status)
                                        ? "crashed while loading (signal " +
                                              std::to_string(WTERMSIG(status)) + ")"
                                        : std::string("made the plugin probe exit while loading"));
            reports.push_back({{"file", files[next].string()}, {"problem", how}});
            ++next;
        }
    }
    return reports;
}

}  // namespace detail

// Everything found on the search path. Discovery probes the files (see detail::probe_in_child)
// and loads nothing; a plugin is loaded (RTLD_LOCAL, not initialised) the first time it is asked
// for, so a run maps only the plugins it uses. One plugin per name: the first file wins.
// Several plugins may offer the communication service, one per MPI library built (they host the
// same suites): one of them is in use (the first found, or the one use_comm_provider() names),
// and the others are invisible to the questions below, so that a process never maps two MPIs.
class registry {
public:
    // Reads each directory's manifest, probing (in one child process) the files of the
    // directories that have none or a stale one. The reports are considered in search order, so
    // the first file of a name wins whichever way it was found.
    static registry discover(const search_path& where) {
        registry found;
        std::map<std::filesystem::path, manifest> manifests;  // the build tree's covers several
        std::vector<std::optional<std::vector<nlohmann::json>>> from_manifest;
        std::vector<std::vector<std::filesystem::path>> to_probe;
        std::vector<std::filesystem::path> probe_list;
        for (std::size_t i = 0; i < where.directories.size(); ++i) {
            const auto& dir = where.directories[i];
            std::error_code ec;
            from_manifest.emplace_back();
            to_probe.emplace_back();
            if (!std::filesystem::is_directory(dir, ec)) continue;
            const std::filesystem::path file = i < where.manifests.size()
                                                   ? where.manifests[i]
                                                   : dir / manifest_file_name;
            auto it = manifests.find(file);
            if (it == manifests.end()) it = manifests.emplace(file, manifest::read(file)).first;
            manifest_reading reading = it->second.for_directory(dir);
            if (reading.reports) {
                found.manifest_plugins_ += reading.reports->size();
                from_manifest.back() = std::move(reading.reports);
                continue;
            }
            to_probe.back() = plugin_files_in(dir);
            if (to_probe.back().empty()) continue;
            found.notes_.push_back(dir.string() + ": " +
                                   (reading.present ? "stale plugin manifest (" +
                                                          reading.stale_reason + ")"
                                                    : std::string("no plugin manifest")) +
                                   "; probing its " + std::to_string(to_probe.back().size()) +
                                   (to_probe.back().size() == 1 ? " plugin file" : " plugin files"));
            probe_list.insert(probe_list.end(), to_probe.back().begin(), to_probe.back().end());
        }
        found.probed_files_ = probe_list.size();
        const std::vector<nlohmann::json> probed =
            probe_list.empty() ? std::vector<nlohmann::json>{} : detail::probe_in_child(probe_list);
        std::size_t next = 0;
        for (std::size_t i = 0; i < where.directories.size(); ++i) {
            if (from_manifest[i])
                for (const auto& report : *from_manifest[i]) found.consider(report);
            for (std::size_t k = 0; k < to_probe[i].size() && next < probed.size(); ++k)
                found.consider(probed[next++]);
        }
        return found;
    }

    // Probes the plugin files of `directories` and writes what they offer to `manifest_file`
    // (manifest.hpp; `parbench --write-manifest`). Returns the number of files described;
    // throws std::runtime_error when the file cannot be written.
    static std::size_t write_manifest(const std::filesystem::path& manifest_file,
                                      const std::vector<std::filesystem::path>& directories,
                                      const std::string& written_by) {
        std::vector<std::filesystem::path> files;
        std::vector<file_stamp> stamps;
        for (const auto& dir : directories)
            for (auto& f : plugin_files_in(dir)) {
                // Taken before the probe: a file replaced meanwhile makes the manifest stale.
                stamps.push_back(stamp_of(f).value_or(file_stamp{}));
                files.push_back(std::move(f));
            }
        const std::vector<nlohmann::json> reports =
            files.empty() ? std::vector<nlohmann::json>{} : detail::probe_in_child(files);
        std::vector<std::pair<nlohmann::json, file_stamp>> described;
        for (std::size_t i = 0; i < reports.size() && i < stamps.size(); ++i)
            described.emplace_back(reports[i], stamps[i]);
        write_file_atomically(manifest_file,
                              manifest_json(manifest_file, directories, described, written_by)
                                  .dump(1));
        return described.size();
    }

    // One line per directory whose plugin files were probed rather than read from a manifest,
    // and why (no manifest, or which file made it stale): what --verbose-discovery prints.
    [[nodiscard]] const std::vector<std::string>& notes() const noexcept { return notes_; }
    // How many plugin files were probed (dlopened in the child), and how many were described by
    // fresh manifests instead.
    [[nodiscard]] std::size_t probed_files() const noexcept { return probed_files_; }
    [[nodiscard]] std::size_t manifest_plugins() const noexcept { return manifest_plugins_; }

    // Loads every plugin found (for `parbench list`) and returns them.
    [[nodiscard]] std::deque<loaded_plugin>& load_all() {
        for (const auto& m : manifests_) load(m);
        return plugins_;
    }

    // The plugins loaded so far.
    [[nodiscard]] std::deque<loaded_plugin>& plugins() noexcept { return plugins_; }
    [[nodiscard]] const std::deque<loaded_plugin>& plugins() const noexcept { return plugins_; }
    [[nodiscard]] const std::vector<discovery_problem>& problems() const noexcept {
        return problems_;
    }
    [[nodiscard]] const std::vector<shadowed_plugin>& shadowed() const noexcept {
        return shadowed_;
    }

    // Every suite some plugin offers, in discovery order.
    [[nodiscard]] std::vector<std::string> known_suites() const {
        std::vector<std::string> suites;
        for (const auto& m : manifests_)
            if (!set_aside(m)) suites.insert(suites.end(), m.suites.begin(), m.suites.end());
        return suites;
    }

    // The plugins that offer the communication service (the MPI plugins, one per MPI library
    // built), in discovery order.
    [[nodiscard]] std::vector<const plugin_manifest*> comm_providers() const {
        std::vector<const plugin_manifest*> found;
        for (const auto& m : manifests_)
            if (m.offers_comm) found.push_back(&m);
        return found;
    }

    // From now on the MPI plugin in `file` (one of comm_providers()) hosts the MPI suites and
    // offers the communication service; call it before any plugin is loaded.
    void use_comm_provider(const std::filesystem::path& file) { comm_file_ = file; }

    // The plugin that runs `suite`, loaded on first use; nullptr when none offers it. Several
    // plugins may offer one suite, each with its own benchmarks: `words` (the command line after
    // the suite name) picks the one whose benchmarks they name; with no name among them, the
    // first plugin found runs the suite's defaults. Names from two plugins cannot share a run
    // (each plugin's run has its own header and context): that is an input_error.
    [[nodiscard]] loaded_plugin* plugin_for_suite(std::string_view suite,
                                                  std::span<const std::string> words = {}) {
        const plugin_manifest* first = nullptr;
        const plugin_manifest* chosen = nullptr;
        std::string chosen_word;
        for (const auto& m : manifests_) {
            if (set_aside(m)) continue;
            if (std::find(m.suites.begin(), m.suites.end(), suite) == m.suites.end()) continue;
            if (first == nullptr) first = &m;
            const auto it = m.benchmarks.find(std::string(suite));
            if (it == m.benchmarks.end()) continue;
            for (const auto& word : words) {
                const bool named = std::any_of(it->second.begin(), it->second.end(),
                                               [&](const std::string& b) { return same_name(b, word); });
                if (!named) continue;
                if (chosen != nullptr && chosen != &m)
                    throw input_error("'" + chosen_word + "' (plugin " + chosen->name + ") and '" +
                                      word + "' (plugin " + m.name + ") of suite '" +
                                      std::string(suite) +
                                      "' are run by different plugins: run them separately");
                chosen = &m;
                chosen_word = word;
            }
        }
        if (chosen == nullptr) chosen = first;
        return chosen != nullptr ? load(*chosen) : nullptr;
    }

    // The plugin that offers the communication service (the MPI plugin), loaded on first use.
    [[nodiscard]] loaded_plugin* comm_provider() {
        for (const auto& m : manifests_)
            if (m.offers_comm && !set_aside(m)) return load(m);
        return nullptr;
    }

private:
    // An MPI plugin other than the one in use (the first found, unless use_comm_provider()).
    [[nodiscard]] bool set_aside(const plugin_manifest& m) const {
        if (!m.offers_comm) return false;
        if (!comm_file_.empty()) return m.file != comm_file_;
        const auto providers = comm_providers();
        return providers.front() != &m;
    }

    void consider(const nlohmann::json& report) {
        const std::filesystem::path file = report.at("file").get<std::string>();
        if (report.contains("problem")) {
            problems_.push_back({file, report.at("problem").get<std::string>()});
            return;
        }
        plugin_manifest m{file, report.at("name").get<std::string>(),
                          report.at("suites").get<std::vector<std::string>>(),
                          report.at("offers_comm").get<bool>(),
                          report.value("benchmarks",
                                       std::map<std::string, std::vector<std::string>>{}),
                          report.value("mpi_library", std::string{}),
                          report.value("mpi_header", std::string{})};
        for (const auto& earlier : manifests_) {
            if (earlier.name == m.name) {
                shadowed_.push_back({file, m.name, earlier.file});
                return;
            }
        }
        manifests_.push_back(std::move(m));
    }

    loaded_plugin* load(const plugin_manifest& m) {
        for (auto& p : plugins_)
            if (p.path() == m.file) return &p;
        plugins_.emplace_back(m.file);  // a deque: earlier pointers stay valid
        return &plugins_.back();
    }

    std::vector<plugin_manifest> manifests_;
    std::filesystem::path comm_file_;  // the MPI plugin in use; empty: the first found
    std::deque<loaded_plugin> plugins_;
    std::vector<discovery_problem> problems_;
    std::vector<shadowed_plugin> shadowed_;
    std::vector<std::string> notes_;
    std::size_t probed_files_ = 0;
    std::size_t manifest_plugins_ = 0;
};

}  // namespace parbench::plugin
