// The common options of a run — `parbench run`'s and those of a program built on
// parbench::mpi::main — as CLI11 options, and what every output file records about them.
#pragma once

#include <parbench/driver/command_line.hpp>
#include <parbench/driver/exit_status.hpp>
#include <parbench/report/run_context.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace parbench::driver {

struct run_options {
    std::string suite;
    std::vector<std::string> benchmarks;
    std::string json_file;
    bool json_given = false;  // --json '' is an error, not "no JSON"
    std::string csv_file;
    bool csv_given = false;
    double timeout_s = 300.0;
    bool check = false;
    bool strict = false;  // a skipped benchmark fails the run (exit_skipped)
    std::vector<std::string> plugin_paths;
    std::string dat_dir = ".";
    bool dat_dir_given = false;
    bool quiet = false;
    std::string progress = "auto";
    std::string mpi = "auto";
    std::string timing_options;  // the stability advice's options (command_line.hpp)
    // The suite's options as typed on the command line (strings): what the context records,
    // while the plugin receives typed values (ABI 1.1).
    std::map<std::string, nlohmann::json> given_options;
};

// Which of the common options a command has: a program built on parbench::mpi::main loads no
// plugin, writes no PAW .dat file and owns its MPI.
struct run_option_set {
    bool plugins = true;  // --plugin-path, --dat-dir, --mpi
};

// The common options registered on `run` (a subcommand, or a program's own CLI::App). After
// parsing, apply() reads what CLI11 cannot say by itself: which files were given, --timeout.
class run_option_handles {
public:
    run_option_handles(CLI::App& run, run_options& o, run_option_set which = {}) {
        json_ = run.add_option("--json", o.json_file,
                               "Write results as JSON (Google Benchmark layout)")
                    ->type_name("FILE");
        csv_ = run.add_option("--csv", o.csv_file, "Write results as CSV")->type_name("FILE");
        // parsed by parse_timeout: one message for every bad value
        timeout_ = run.add_option("--timeout", timeout_text_,
                                  "Per-measurement time limit in seconds (0: none)")
                       ->default_str("300")
                       ->type_name("SECONDS");
        run.add_flag("--check", o.check, "Validate transferred data (IMB -check)");
        run.add_flag("--strict", o.strict,
                     "Fail the run (exit status 6) when a requested benchmark is skipped");
        if (which.plugins) {
            run.add_option("--plugin-path", o.plugin_paths, "Also search DIR for plugins")
                ->type_name("DIR")
                ->allow_extra_args(false);
            dat_dir_ = run.add_option("--dat-dir", o.dat_dir, "Directory for PAW .dat files")
                           ->capture_default_str()
                           ->type_name("DIR");
        }
        run.add_flag("--quiet", o.quiet, "No console tables (files only)");
        run.add_option("--progress", o.progress,
                       "Progress line on stderr: auto (when it reaches a terminal, also through "
                       "mpiexec), on or off")
            ->capture_default_str()
            ->check(CLI::IsMember({"auto", "on", "off"}));
        if (which.plugins)
            run.add_option("--mpi", o.mpi,
                           "Load the MPI plugin: auto (when the suite needs it or a launcher "
                           "started parbench), on or off; or name the MPI whose plugin runs: "
                           "mpich or openmpi (auto picks the launcher's)")
                ->capture_default_str()
                ->type_name("auto|on|off|NAME")
                ->check(CLI::Validator(
                    [](const std::string& value) {
                        return value.empty()
                                   ? std::string("expected auto, on, off or an MPI's name")
                                   : std::string{};
                    },
                    "", "non-empty"));
    }

    void apply(run_options& o) const {
        o.json_given = json_->count() > 0;
        o.csv_given = csv_->count() > 0;
        o.dat_dir_given = dat_dir_ != nullptr && dat_dir_->count() > 0;
        if (timeout_->count() > 0) o.timeout_s = parse_timeout(timeout_text_);
    }

private:
    CLI::Option* json_ = nullptr;
    CLI::Option* csv_ = nullptr;
    CLI::Option* timeout_ = nullptr;
    CLI::Option* dat_dir_ = nullptr;
    std::string timeout_text_;
};

// What every process can judge alone, before MPI starts (all of them reach the same answer; the
// launcher's rank 0 prints it). The file system is asked later, by rank 0 for all.
inline void check_output_names(const run_options& o) {
    if (o.json_given && o.json_file.empty())
        throw driver_exit{exit_bad_input, "--json '': empty file name"};
    if (o.csv_given && o.csv_file.empty())
        throw driver_exit{exit_bad_input, "--csv '': empty file name"};
    if (o.dat_dir_given && o.dat_dir.empty())
        throw driver_exit{exit_bad_input, "--dat-dir '': empty directory name"};
}

// What the driver records about itself in every file's context: the run context of this
// program (report/run_context.hpp), the suite, the benchmarks and options asked for, and the
// plugins (none for a program built on parbench::mpi::main).
[[nodiscard]] inline nlohmann::json driver_context(int argc, const char* const* argv,
                                                   const run_options& o, int processes,
                                                   nlohmann::json plugins) {
    nlohmann::json context = report::run_context(argc, argv);
    context["suite"] = o.suite;
    context["requested_benchmarks"] = o.benchmarks;
    context["options"] = o.given_options;
    context["check"] = o.check;
    context["strict"] = o.strict;
    context["timeout_s"] = o.timeout_s;
    context["processes"] = processes;
    context["plugins"] = std::move(plugins);
    return context;
}

}  // namespace parbench::driver
