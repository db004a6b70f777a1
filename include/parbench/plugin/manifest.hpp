// The plugin manifest: what probing the plugin files of one or more directories found out,
// written once when the plugins are built or installed (`parbench --write-manifest FILE DIR...`,
// run by the build and by `meson install`), so that a run does not have to dlopen every plugin
// file on every rank to learn which one hosts its suite. On a 10 000-rank job that probe is
// 10 000 processes each opening every plugin and every library it links on a shared file system.
//
// A manifest is JSON (one file, `parbench-plugins.json`, beside the plugins or, for the build
// tree, in the build root). Each plugin file is listed with its size and modification time;
// discovery trusts a directory's entries only when the manifest was written by a host of this
// plugin ABI, lists that directory, and every parbench_*.so file in it is listed with the size
// and time it has now (none added, none removed). Otherwise the directory is stale and its files
// are probed as without a manifest (registry.hpp).
#pragma once

#include <parbench/plugin/abi.h>

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

namespace parbench::plugin {

inline constexpr const char* manifest_file_name = "parbench-plugins.json";
inline constexpr const char* manifest_format = "parbench-plugin-manifest";
inline constexpr int manifest_format_version = 1;

// What tells a plugin file apart from the one a manifest describes: its size and modification
// time (nanoseconds). A rebuilt, reinstalled or replaced file changes at least the time.
struct file_stamp {
    std::uint64_t size = 0;
    std::int64_t mtime_ns = 0;
    friend bool operator==(const file_stamp&, const file_stamp&) = default;
};

[[nodiscard]] inline std::optional<file_stamp> stamp_of(const std::filesystem::path& file) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0) return {};
    return file_stamp{static_cast<std::uint64_t>(st.st_size),
                      static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 +
                          static_cast<std::int64_t>(st.st_mtim.tv_nsec)};
}

// The plugin files of `dir` (parbench_*.so, not directories), in name order.
[[nodiscard]] inline std::vector<std::filesystem::path> plugin_files_in(
    const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) return files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("parbench_") && name.ends_with(".so") && !entry.is_directory(ec))
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());  // a stable order, whatever readdir says
    return files;
}

namespace manifest_impl {

[[nodiscard]] inline std::filesystem::path canonical_or_self(const std::filesystem::path& p) {
    std::error_code ec;
    auto c = std::filesystem::weakly_canonical(p, ec);
    return ec ? p.lexically_normal() : c;
}

}  // namespace manifest_impl

// A manifest read for one directory: the probe reports of its plugin files (as
// registry::discover reads them), or why the directory must be probed instead.
struct manifest_reading {
    std::optional<std::vector<nlohmann::json>> reports;  // nothing: missing or stale
    bool present = false;                               // the manifest file exists
    std::string stale_reason;                           // "" when fresh or missing
};

// A parsed manifest file (read once, asked about each directory it may cover).
class manifest {
public:
    // Reads `file`; a missing file gives a manifest that covers nothing, an unreadable one a
    // manifest whose every directory is stale with the reason.
    static manifest read(const std::filesystem::path& file) {
        manifest m;
        m.file_ = file;
        std::ifstream in(file);
        if (!in) return m;
        m.present_ = true;
        try {
            m.json_ = nlohmann::json::parse(in);
        } catch (const std::exception&) {
            m.problem_ = "it is not valid JSON";
            return m;
        }
        if (!m.json_.is_object() || m.json_.value("format", std::string{}) != manifest_format ||
            m.json_.value("format_version", 0) != manifest_format_version) {
            m.problem_ = "it is not a version " + std::to_string(manifest_format_version) +
                         " parbench plugin manifest";
            return m;
        }
        if (m.json_.value("abi_major", 0u) != PARBENCH_ABI_MAJOR ||
            m.json_.value("abi_minor", 0u) != PARBENCH_ABI_MINOR) {
            m.problem_ = "it was written for plugin ABI " +
                         std::to_string(m.json_.value("abi_major", 0u)) + "." +
                         std::to_string(m.json_.value("abi_minor", 0u)) +
                         " and this parbench reads ABI " + std::to_string(PARBENCH_ABI_MAJOR) +
                         "." + std::to_string(PARBENCH_ABI_MINOR);
            return m;
        }
        return m;
    }

    // The reports for the plugin files of `dir`, when this manifest covers it and is fresh.
    [[nodiscard]] manifest_reading for_directory(const std::filesystem::path& dir) const {
        manifest_reading r;
        r.present = present_;
        if (!present_) return r;
        const std::string where = file_.string() + ": ";
        if (!problem_.empty()) {
            r.stale_reason = where + problem_;
            return r;
        }
        const std::filesystem::path base = file_.parent_path();
        const std::filesystem::path wanted = manifest_impl::canonical_or_self(dir);
        bool covered = false;
        for (const auto& d : json_.value("directories", nlohmann::json::array()))
            if (d.is_string() &&
                manifest_impl::canonical_or_self(base / d.get<std::string>()) == wanted)
                covered = true;
        if (!covered) {
            r.stale_reason = where + "does not list " + dir.string();
            return r;
        }
        // The entries of this directory, by file name.
        std::map<std::string, const nlohmann::json*> listed;  // pointers into json_
        const auto plugins = json_.find("plugins");
        if (plugins == json_.end() || !plugins->is_array()) {
            r.stale_reason = where + "lists no plugins";
            return r;
        }
        for (const auto& p : *plugins) {
            if (!p.is_object() || !p.contains("file") || !p["file"].is_string()) continue;
            const std::filesystem::path f = base / p["file"].get<std::string>();
            if (manifest_impl::canonical_or_self(f.parent_path()) == wanted)
                listed[f.filename().string()] = &p;
        }
        std::vector<nlohmann::json> reports;
        const auto files = plugin_files_in(dir);
        for (const auto& f : files) {
            const auto it = listed.find(f.filename().string());
            if (it == listed.end()) {
                r.stale_reason = where + f.string() + " is not listed (added since it was written)";
                return r;
            }
            const auto now = stamp_of(f);
            const file_stamp then{it->second->value("size", std::uint64_t{0}),
                                  it->second->value("mtime_ns", std::int64_t{0})};
            if (!now || *now != then) {
                r.stale_reason = where + f.string() + " changed since it was written";
                return r;
            }
            nlohmann::json report = *it->second;
            report["file"] = f.string();  // the path a probe of `dir` would report
            reports.push_back(std::move(report));
        }
        if (listed.size() != files.size()) {
            r.stale_reason = where + "lists a plugin file of " + dir.string() +
                             " that is gone (removed since it was written)";
            return r;
        }
        r.reports = std::move(reports);
        return r;
    }

private:
    std::filesystem::path file_;
    nlohmann::json json_;
    bool present_ = false;
    std::string problem_;
};

// The manifest text for `directories` from the probe reports of their plugin files (each with
// its "file" path, as probed): paths relative to the manifest's own directory, so that an
// install moved to another prefix keeps its manifest.
[[nodiscard]] inline nlohmann::json manifest_json(
    const std::filesystem::path& manifest_file,
    const std::vector<std::filesystem::path>& directories,
    const std::vector<std::pair<nlohmann::json, file_stamp>>& reports,
    const std::string& written_by) {
    const std::filesystem::path base =
        manifest_impl::canonical_or_self(std::filesystem::absolute(manifest_file).parent_path());
    const auto relative = [&](const std::filesystem::path& p) {
        return manifest_impl::canonical_or_self(std::filesystem::absolute(p))
            .lexically_relative(base)
            .string();
    };
    nlohmann::json dirs = nlohmann::json::array();
    for (const auto& d : directories) dirs.push_back(relative(d));
    nlohmann::json plugins = nlohmann::json::array();
    for (const auto& [report, stamp] : reports) {
        nlohmann::json entry = report;
        entry["file"] = relative(report.at("file").get<std::string>());
        entry["size"] = stamp.size;
        entry["mtime_ns"] = stamp.mtime_ns;
        plugins.push_back(std::move(entry));
    }
    return {{"format", manifest_format},
            {"format_version", manifest_format_version},
            {"abi_major", PARBENCH_ABI_MAJOR},
            {"abi_minor", PARBENCH_ABI_MINOR},
            {"written_by", written_by},
            {"directories", dirs},
            {"plugins", plugins}};
}

// Writes `text` to `file` through a temporary file in the same directory and a rename, so that
// a run starting meanwhile reads the old manifest or the new one, never half of one. Throws
// std::runtime_error naming the file.
inline void write_file_atomically(const std::filesystem::path& file, const std::string& text) {
    const std::filesystem::path temporary = file.string() + ".tmp";
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << text << '\n';
        out.flush();
        if (!out) throw std::runtime_error(temporary.string() + ": cannot be written");
    }
    std::error_code ec;
    std::filesystem::rename(temporary, file, ec);
    if (ec) {
        std::filesystem::remove(temporary, ec);
        throw std::runtime_error(file.string() + ": cannot be written (" + ec.message() + ")");
    }
}

}  // namespace parbench::plugin
