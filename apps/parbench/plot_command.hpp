// `parbench plot RUN.json... -o FIGURE.png|svg`: the driver hands the drawing to parbench_plot.py
// (tools/, installed under DATADIR/parbench), which draws with matplotlib and sends the figure's
// bytes back on a pipe; the driver writes the file through the output layer
// (report/output_file.hpp), like every file parbench writes: never into a device or a FIFO,
// replaced atomically, every write checked. The driver checks the obvious mistakes first (inputs
// that are not regular files of bounded size, a target that is not a regular file, a title with
// control characters), so that a bad input gets the driver's one-line error whichever side
// finds it.
#pragma once

#include "tool_script.hpp"

#include <parbench/core/error.hpp>
#include <parbench/driver/printable.hpp>
#include <parbench/report/output_file.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace parbench::app {

using namespace parbench::driver;

struct plot_options {
    std::vector<std::string> inputs;
    std::string output;
    std::string metric = "auto";
    bool imb_t = false;
    std::string title;
    std::vector<std::string> suites;      // --suite: only these suites' rows
    std::vector<std::string> benchmarks;  // --benchmark: only these benchmarks' rows
};

// A --suite or --benchmark value: a name, no control characters (it reaches the script's
// messages).
inline void check_filter_names(const std::string& option, const std::vector<std::string>& names) {
    for (const auto& name : names)
        if (name.empty() || std::any_of(name.begin(), name.end(), [](char c) {
                return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
            }))
            throw input_error(option + " " + quote_value(name) +
                              ": expected a suite or benchmark name");
}

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
    p->add_option("--suite", o.suites, "Only rows of this suite (repeatable)")
        ->type_name("SUITE")
        ->allow_extra_args(false);
    p->add_option("--benchmark", o.benchmarks,
                  "Only rows of this benchmark, as the suite names it: PingPong, osu_bw "
                  "(repeatable)")
        ->type_name("NAME")
        ->allow_extra_args(false);
    return p;
}

// Draws the figure with the plotting script and writes it to -o; returns the exit status (the
// script's own when it failed: it has printed the one error line).
inline int run_plot(const plot_options& o, const std::filesystem::path& script,
                    const std::string& python) {
    namespace fs = std::filesystem;
    for (const auto& input : o.inputs) check_script_input(input);
    check_filter_names("--suite", o.suites);
    check_filter_names("--benchmark", o.benchmarks);
    const std::string extension = fs::path(o.output).extension().string();
    if (extension != ".png" && extension != ".svg")
        throw input_error("-o " + o.output + ": the figure must end in .png or .svg");
    if (std::any_of(o.title.begin(), o.title.end(), [](char c) {
            return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
        }))
        throw input_error("--title " + quote_value(o.title) +
                          ": control characters have no place in a title");
    report::output_path target;
    try {
        target = report::check_output_file("-o", o.output);
    } catch (const report::output_error& e) {
        throw input_error(e.what());  // found before anything is drawn: bad input
    }

    std::vector<std::string> args = {python, script.string(), "--format", extension.substr(1),
                                     "--metric", o.metric};
    if (o.imb_t) args.emplace_back("--imb-t");
    if (!o.title.empty()) args.insert(args.end(), {"--title", o.title});
    for (const auto& suite : o.suites) args.insert(args.end(), {"--suite", suite});
    for (const auto& benchmark : o.benchmarks) args.insert(args.end(), {"--benchmark", benchmark});
    args.emplace_back("--");
    args.insert(args.end(), o.inputs.begin(), o.inputs.end());
    return run_script_into(std::move(args), "parbench plot", target);
}

}  // namespace parbench::app
