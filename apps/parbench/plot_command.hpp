// `parbench plot RUN.json... -o FIGURE.png|svg`: the driver hands the work to parbench_plot.py
// (tools/, installed under DATADIR/parbench), which draws with matplotlib. The driver only finds
// the script and an interpreter and checks the obvious mistakes, so that a bad input gets the
// driver's one-line error whichever side finds it.
#pragma once

#include <parbench/core/error.hpp>

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace parbench::app {

struct plot_options {
    std::vector<std::string> inputs;
    std::string output;
    std::string metric = "auto";
    bool imb_t = false;
    std::string title;
};

inline CLI::App* add_plot_command(CLI::App& app, plot_options& o) {
    CLI::App* p = app.add_subcommand(
        "plot", "Plot runs against message size: parbench plot RUN.json... -o FIGURE.png|svg");
    p->add_option("runs", o.inputs, "parbench JSON files (several are overlaid)")->required();
    p->add_option("-o,--output", o.output, "The figure: .png or .svg")->required()->type_name(
        "FILE");
    p->add_option("--metric", o.metric,
                  "What to plot: latency, bandwidth, gflops, or auto (latency, plus bandwidth "
                  "where rows have it, or GFlop/s for PAW)")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "latency", "bandwidth", "gflops"}));
    p->add_flag("--imb-t", o.imb_t, "Also draw the suite's own headline figure (IMB's t_max, PAW's mean)");
    p->add_option("--title", o.title, "Figure title");
    return p;
}

// The script next to an installed driver (PREFIX/bin -> PREFIX/share/parbench), at the configured
// data directory, or in the source tree when the driver runs from its build tree.
[[nodiscard]] inline std::filesystem::path find_plot_script(const std::filesystem::path& executable,
                                                            const std::string& datadir,
                                                            const std::string& build_root,
                                                            const std::string& source_root) {
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates = {
        executable.parent_path().parent_path() / "share" / "parbench" / "parbench_plot.py"};
    if (!datadir.empty()) candidates.push_back(fs::path(datadir) / "parbench" / "parbench_plot.py");
    std::error_code ec;
    const fs::path exe_dir = fs::weakly_canonical(executable.parent_path(), ec);
    const fs::path build = build_root.empty() ? fs::path() : fs::weakly_canonical(build_root, ec);
    if (!build.empty() && exe_dir.string().starts_with(build.string()) && !source_root.empty())
        candidates.insert(candidates.begin(), fs::path(source_root) / "tools" / "parbench_plot.py");
    for (const auto& c : candidates)
        if (fs::is_regular_file(c, ec)) return c;
    throw input_error("parbench plot: parbench_plot.py not found (looked in " +
                      candidates.front().parent_path().string() + "); reinstall parbench");
}

// Replaces this process with the plotting script; returns only by throwing.
[[noreturn]] inline void exec_plot(const plot_options& o, const std::filesystem::path& script,
                                   const std::string& python) {
    namespace fs = std::filesystem;
    for (const auto& input : o.inputs) {
        std::error_code ec;
        if (!fs::exists(input, ec)) throw input_error(input + ": no such file");
    }
    const std::string extension = fs::path(o.output).extension().string();
    if (extension != ".png" && extension != ".svg")
        throw input_error("-o " + o.output + ": the figure must end in .png or .svg");
    std::vector<std::string> args = {python, script.string(), "--output", o.output,
                                     "--metric", o.metric};
    if (o.imb_t) args.emplace_back("--imb-t");
    if (!o.title.empty()) args.insert(args.end(), {"--title", o.title});
    args.emplace_back("--");
    args.insert(args.end(), o.inputs.begin(), o.inputs.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    throw std::runtime_error("parbench plot: cannot run " + python + ": " + std::strerror(errno) +
                             " (install python3-matplotlib, see scripts/setup.sh)");
}

}  // namespace parbench::app
