// parbench — the single driver. It links no MPI: it runs suites through parbench::host
// (include/parbench/host/host.hpp), which finds the plugins, initialises the MPI plugin first
// when a run needs one and hands the chosen plugin the run request; the driver renders the
// events on rank 0 (console by the suite's layout, JSON, CSV).
//
//   parbench --version | --help
//   parbench list [--plugin-path DIR]
//   parbench run SUITE [BENCHMARK...] [suite options] [common options]
//   parbench compare OLD NEW [--format text|markdown] [--fail-above 5%]
//   parbench plot RUN.json... -o FIGURE.png|svg [--metric ...] [--imb-t] [--suite S]
//                 [--benchmark B]
//   parbench report RUN.json... -o REPORT.html [--title T] [--significance P]
//
// One file per job: list_command.hpp, run_command.hpp (the plugin's suite in a session),
// compare/plot/report_command.hpp. What `parbench run` shares with programs built on
// parbench::mpi::main is public, under include/parbench/driver/: command_line.hpp (pre-scan,
// suite options), run_options.hpp (the common options), session_run.hpp (orchestration),
// run_session.hpp (event routing), stop_run.hpp (stopping a run), exit_status.hpp and
// run_main.hpp (exit statuses and messages; `compare` exits 1 when --fail-above finds a
// regression).
#include "compare_command.hpp"
#include "list_command.hpp"
#include "plot_command.hpp"
#include "report_command.hpp"
#include "run_command.hpp"

#include <parbench/core/error.hpp>
#include <parbench/driver/command_line.hpp>
#include <parbench/driver/exit_status.hpp>
#include <parbench/driver/printable.hpp>
#include <parbench/driver/run_main.hpp>
#include <parbench/driver/run_options.hpp>
#include <parbench/host/host.hpp>
#include <parbench/plugin/loader.hpp>
#include <parbench/report/output_file.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#ifndef PARBENCH_VERSION
#define PARBENCH_VERSION "0.0.0"
#endif
#ifndef PARBENCH_BUILD_ROOT
#define PARBENCH_BUILD_ROOT ""
#endif
#ifndef PARBENCH_PLUGINDIR
#define PARBENCH_PLUGINDIR ""
#endif
#ifndef PARBENCH_DATADIR
#define PARBENCH_DATADIR ""
#endif
#ifndef PARBENCH_SOURCE_ROOT
#define PARBENCH_SOURCE_ROOT ""
#endif
#ifndef PARBENCH_PYTHON
#define PARBENCH_PYTHON "python3"
#endif
#ifndef PARBENCH_PLUGINDIR_FROM_EXECUTABLE
#define PARBENCH_PLUGINDIR_FROM_EXECUTABLE ""
#endif

namespace {

namespace fs = std::filesystem;
using namespace parbench::app;

// --verbose-discovery: how discovery read each plugin directory (one line each; rank 0 of a launch).
void print_note(const std::string& note) {
    parbench::driver::write_line("parbench: ", note);
}

// The suite named on the command line was not found: unavailable in this build, or unknown.
driver_exit no_such_suite(parbench::host& pb, const std::string& suite_name) {
    // Every process finds the same plugins: the launcher's rank 0 says what is wrong with them.
    if (parbench::launcher_rank() == 0)
        for (const auto& problem : pb.plugins().problems()) print_warning(problem.message);
    for (const auto& u : unavailable_suites())
        if (u.suite == suite_name)
            return driver_exit{exit_failure, "suite '" + suite_name + "' is unavailable: " +
                                                 u.file + " was not built: " + u.reason};
    std::string known;
    for (const auto& name : pb.plugins().known_suites()) known += (known.empty() ? "" : ", ") + name;
    if (known.empty())  // no plugin at all: say where parbench looked
        return driver_exit{exit_failure,
                           "unknown suite '" + suite_name + "': " + pb.no_plugins_text()};
    return driver_exit{exit_bad_input,
                       "unknown suite '" + suite_name + "' (available: " + known + ")"};
}

// `parbench --write-manifest FILE [DIR...]` (not in --help: the build and `meson install` run
// it): probes the plugin files of each DIR (default: FILE's directory) and writes their
// manifest to FILE (plugin/manifest.hpp), which later runs read instead of probing.
int write_manifest(const std::vector<std::string>& args) {
    if (args.size() < 2 || args[1].empty())
        throw driver_exit{exit_bad_input, "--write-manifest FILE [DIR...]: no FILE given"};
    const fs::path file = args[1];
    std::vector<fs::path> dirs(args.begin() + 2, args.end());
    if (dirs.empty()) dirs.push_back(fs::absolute(file).parent_path());
    for (const auto& dir : dirs) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec))
            throw driver_exit{exit_bad_input,
                              "--write-manifest: " + quote_value(dir.string()) + ": not a directory"};
    }
    try {
        (void)parbench::plugin::registry::write_manifest(file, dirs, "parbench " PARBENCH_VERSION);
    } catch (const std::runtime_error& e) {
        throw driver_exit{exit_failure, std::string("--write-manifest: ") + e.what()};
    }
    return exit_ok;
}

int main_impl(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && args[0] == "--write-manifest") return write_manifest(args);
    const auto run_it = std::find(args.begin(), args.end(), "run");
    const bool is_run = run_it != args.end();
    const auto extra_dirs = prescan_plugin_paths(args);

    CLI::App app{"parbench — HPC micro-benchmarks (IMB, PAW, ...) with one driver", "parbench"};
    app.set_version_flag("--version", "parbench " PARBENCH_VERSION);
    app.require_subcommand(1);
    std::vector<std::string> top_plugin_paths;

    CLI::App* list = app.add_subcommand("list", "List plugins, suites and benchmarks");
    // One DIR per --plugin-path (a vector option would swallow the benchmark names after it).
    list->add_option("--plugin-path", top_plugin_paths, "Also search DIR for plugins")
        ->type_name("DIR")
        ->allow_extra_args(false);
    bool verbose = false;
    list->add_flag("--verbose-discovery", verbose,
                   "Say where each plugin directory was read from (its manifest, or probing)");

    CLI::App* run = app.add_subcommand(
        "run", "Run a suite: parbench run SUITE [BENCHMARK...] [options]");
    run_options o;
    run->add_option("suite", o.suite, "Suite to run (see parbench list)")->required();
    run->add_option("benchmarks", o.benchmarks, "Benchmarks to run (default: the suite's)");
    const run_option_handles common_handles(*run, o);
    run->add_flag("--verbose-discovery", verbose,
                  "Say which plugin directories had no fresh manifest and were probed");

    compare_options compare_o;
    CLI::App* compare = add_compare_command(app, compare_o);
    plot_options plot_o;
    CLI::App* plot = add_plot_command(app, plot_o);
    report_options report_o;
    CLI::App* report = add_report_command(app, report_o, significance_level);

    // Finds the plugins (from their manifests where fresh); nothing is loaded or initialised
    // until a run needs it.
    const auto discovery_started = std::chrono::steady_clock::now();
    parbench::host pb(argc, argv,
                      {.plugin_dirs = extra_dirs,
                       .executable = parbench::this_executable(argv[0]),
                       .build_root = PARBENCH_BUILD_ROOT,
                       .install_dir = PARBENCH_PLUGINDIR,
                       .install_dir_from_executable = PARBENCH_PLUGINDIR_FROM_EXECUTABLE,
                       .mpi = prescan_mpi(args)});
    startup_clock startup{discovery_started, std::chrono::steady_clock::now()};

    // The suite's own options become CLI11 options, so CLI11 does all the parsing.
    std::set<std::string> rewrite_names = single_dash_names();
    suite_options suite_parameters;
    std::vector<std::string> parse_args = args;
    if (is_run) {
        const std::string suite_name =
            prescan_suite(args, static_cast<std::size_t>(run_it - args.begin()));
        if (!suite_name.empty()) {
            const std::vector<std::string> words(run_it + 1, args.end());
            parbench::plugin::loaded_plugin* p = pb.plugins().plugin_for_suite(suite_name, words);
            if (p == nullptr) {
                // `run -iter 5 imb-mpi1`: the word taken for the suite is an option's value.
                const auto at = std::find(run_it + 1, args.end(), suite_name);
                const auto common = [](const std::string& word) {
                    const auto start = word.find_first_not_of('-');
                    if (start == std::string::npos) return true;  // "--": not an option name
                    const std::string name = word.substr(start);
                    return common_options().contains(name.substr(0, name.find('=')));
                };
                if (at != run_it + 1 && at != args.end() && (at - 1)->starts_with("-") &&
                    (at - 1)->size() > 1 && !common(*(at - 1)))
                    throw driver_exit{exit_bad_input,
                                      quote_value(*(at - 1)) +
                                          " is not an option of parbench run: a suite's "
                                          "options follow its name (parbench run SUITE " +
                                          *(at - 1) + " ...; see parbench run SUITE --help)"};
                throw no_such_suite(pb, suite_name);
            }
            suite_parameters.add_to(*run, *p->find_suite(suite_name),
                                    p->parameter_types(suite_name));
            o.timing_options = timing_advice(*p->find_suite(suite_name));
            rewrite_names.insert(suite_parameters.names().begin(), suite_parameters.names().end());
        }
        parse_args = rewrite_single_dash(args, rewrite_names, suite_parameters.attached_names());
    }

    std::vector<std::string> reversed(parse_args.rbegin(), parse_args.rend());
    try {
        app.parse(reversed);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ExtrasError& e) {
        throw driver_exit{
            exit_bad_input,
            not_an_option(e.what(),
                          is_run
                              ? prescan_suite(args, static_cast<std::size_t>(run_it - args.begin()))
                              : std::string{},
                          is_run)};
    } catch (const CLI::ParseError& e) {
        throw driver_exit{exit_bad_input, e.what()};
    }

    // A plugin directory that is not there is a mistake worth a word, not a silent no-op.
    for (const auto& dir : extra_dirs) {
        std::error_code ec;
        const auto kind = fs::status(dir, ec).type();
        if (dir.empty() || kind == fs::file_type::not_found)
            throw driver_exit{exit_bad_input,
                              "--plugin-path " + quote_value(dir) + ": no such directory"};
        if (kind != fs::file_type::directory)
            throw driver_exit{exit_bad_input,
                              "--plugin-path " + quote_value(dir) + ": not a directory"};
    }

    if (compare->parsed()) return run_compare(compare_o, STDOUT_FILENO, std::cerr);
    if (plot->parsed())
        return run_plot(plot_o,
                        find_tool_script("parbench_plot.py", "parbench plot",
                                         parbench::this_executable(argv[0]), PARBENCH_DATADIR,
                                         PARBENCH_BUILD_ROOT, PARBENCH_SOURCE_ROOT),
                        PARBENCH_PYTHON);
    if (report->parsed())
        return run_report(report_o,
                          find_tool_script("parbench_report.py", "parbench report",
                                           parbench::this_executable(argv[0]), PARBENCH_DATADIR,
                                           PARBENCH_BUILD_ROOT, PARBENCH_SOURCE_ROOT),
                          PARBENCH_PYTHON, PARBENCH_VERSION);
    if (verbose && parbench::launcher_rank() == 0)
        for (const auto& note : pb.plugins().notes()) print_note(note);
    if (list->parsed()) return list_plugins(pb);  // --plugin-path was taken into account

    common_handles.apply(o);

    if (parbench::launcher_rank() == 0)  // every process finds the same plugins
        for (const auto& problem : pb.plugins().problems())
            print_warning("ignoring " + problem.message);
    o.given_options = suite_parameters.as_given(o.check);
    return run_suite(pb, o, suite_parameters.values(o.check), startup);
}

}  // namespace

int main(int argc, char** argv) {
    return parbench::driver::run_main([&] { return main_impl(argc, argv); });
}
