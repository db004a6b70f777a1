// PAW's .dat files (their names and rows: report/paw_rows.hpp), written for every run of the "paw"
// layout whatever the console shows (--quiet included): a reporter of files, like JSON and CSV.
//
// Their names are known only when a test's first size arrives, so the run reserves them before
// it starts (reserve_paw_dat_files): every name ending in ".dat" in the directory belongs to
// these files, no --json/--csv may take one, and the entries of that kind already there must be
// regular files (or links to one) that are no other output of the run. Each file is claimed
// again in the run's output_set when it is opened, and written row-whole (output_file.hpp).
#pragma once

#include <parbench/report/output_file.hpp>
#include <parbench/report/paw_rows.hpp>
#include <parbench/report/reporter.hpp>

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <string>
#include <system_error>
#include <utility>

namespace parbench::report {

// The owner of PAW's files in an output_set.
inline constexpr const char* paw_dat_owner = "--dat-dir";

// Before the run: reserves the .dat names of `directory` (checked by check_output_directory)
// in `outputs`, after the run's other files are claimed, and claims each such entry already
// there. Throws output_error naming the entry or the colliding option.
inline void reserve_paw_dat_files(output_set& outputs, const output_path& directory) {
    outputs.reserve_family(directory.real, ".dat", paw_dat_owner,
                           "PAW writes its .dat files under such names in " + directory.label);
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(directory.given, ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.ends_with(".dat")) continue;
        output_path file{entry.path().string(), entry.path(), detail::resolved(entry.path())};
        detail::require_regular_or_new(file);
        // A link from one such name to another would make two of the run's files one.
        if (file.real.parent_path() == directory.real && file.real.filename() != name &&
            file.real.filename().string().ends_with(".dat"))
            throw output_error(file.label + ": is a link to " + file.real.filename().string() +
                               ", another of PAW's .dat files; the two would be one file");
        outputs.claim(file, paw_dat_owner);
    }
    if (ec)
        throw output_error(directory.label + ": cannot list the directory: " + ec.message());
}

class paw_dat_reporter final : public reporter {
public:
    // `run_outputs`: the run's output_set (the driver's), or none (a set of the reporter's own,
    // which still keeps two .dat names from being one file).
    explicit paw_dat_reporter(std::filesystem::path directory, output_set* run_outputs = nullptr)
        : directory_(std::move(directory)),
          outputs_(run_outputs != nullptr ? run_outputs : &own_outputs_) {}

    void on_run_start(const run_start&, const nlohmann::json&) override {}
    void on_result(const result_record& r) override { write_dat(r); }

    // Flushes every file to disk (fsync) and closes it, each checked; the first error is thrown
    // after every file was closed.
    void on_run_end(bool) override {
        std::string first_error;
        for (auto& [key, files] : files_)
            for (output_file* f : {&files.time, &files.rate}) {
                try {
                    f->close();
                } catch (const output_error& e) {
                    if (first_error.empty()) first_error = e.what();
                }
            }
        files_.clear();
        if (!first_error.empty()) throw output_error(first_error);
    }

private:
    struct dat_pair {
        output_file time;
        output_file rate;
    };

    // Opens one file of the directory (truncating it) once the run's outputs allow it.
    output_file open(const std::string& name) {
        const std::filesystem::path path = directory_ / name;
        output_path file{path.string(), path, detail::resolved(path)};
        detail::require_regular_or_new(file);
        outputs_->claim(file, paw_dat_owner);
        return output_file(path, file.label);
    }

    // Opens (truncating) a test's files on its first size and appends one flushed line per size.
    void write_dat(const result_record& r) {
        const paw_row kind = paw_row_of(r);
        const bool transfer = kind != paw_row::blas;
        const bool mpi = paw_mpi_row(r);
        const auto [time_name, rate_name] = paw_dat_names(r);
        auto it = files_.find(time_name);
        if (it == files_.end()) {
            std::error_code ignored;  // a directory that cannot be made fails the open below
            std::filesystem::create_directories(directory_, ignored);
            dat_pair files;
            files.time = open(time_name);
            if (!rate_name.empty()) files.rate = open(rate_name);
            if (mpi) {
                files.time.write(fmt::format(
                    "# {} time per iteration [s], {} tasks: bytes min max mean stddev\n",
                    r.block.title, r.block.processes));
                if (kind == paw_row::message_rate)
                    files.rate.write(fmt::format(
                        "# {} message rate [messages/s], {} tasks: bytes min max mean\n",
                        r.block.title, r.block.processes));
                else if (kind == paw_row::bandwidth)
                    files.rate.write(fmt::format(
                        "# {} bandwidth [GB/s = 10^9 bytes/s], {} tasks: bytes min max mean\n",
                        r.block.title, r.block.processes));
            } else if (transfer) {
                files.time.write(fmt::format("# {} time per transfer [s]: bytes min max mean\n",
                                             r.block.title));
                files.rate.write(fmt::format(
                    "# {} bandwidth [GB/s = 10^9 bytes/s]: bytes min max mean\n", r.block.title));
            } else {
                files.time.write(fmt::format(
                    "# {} time per call [s], {} thread(s): N min max mean\n", r.benchmark,
                    r.block.threads));
                files.rate.write(fmt::format(
                    "# {} rate [GFlop/s, PAW count], {} thread(s): N min max mean\n", r.benchmark,
                    r.block.threads));
            }
            it = files_.emplace(time_name, std::move(files)).first;
        }
        const double t_min = r.t_min_us * 1e-6;
        const double t_max = r.t_max_us * 1e-6;
        const double t_mean = r.t_avg_us * 1e-6;
        if (mpi)
            it->second.time.write(fmt::format("{:>8} {:.6e} {:.6e} {:.6e} {:.6e}\n", r.bytes, t_min,
                                              t_max, t_mean, r.distribution_us.stddev * 1e-6));
        else
            it->second.time.write(fmt::format("{:>8} {:.6e} {:.6e} {:.6e}\n", r.bytes, t_min,
                                              t_max, t_mean));
        if (rate_name.empty()) return;
        // Work per call: PAW's flop count (GFlop/s), the bytes one transfer iteration moves
        // (GB/s), or its messages (messages/s); the row's kind says which it has.
        const repetition_figures per = r.repetitions.value_or(repetition_figures{});
        const double work = kind == paw_row::blas
                                ? r.paw_rates.value_or(paw_rate_figures{}).flops_paw.value_or(0.0)
                            : kind == paw_row::message_rate
                                ? per.messages_per_iteration.value_or(0.0)
                                : per.bytes_per_iteration.value_or(0.0);
        const double unit = kind == paw_row::message_rate ? 1.0 : 1e9;
        const auto rate = [&](double t) { return t > 0.0 ? work / t / unit : 0.0; };
        it->second.rate.write(fmt::format("{:>8} {:.6e} {:.6e} {:.6e}\n", r.bytes, rate(t_max),
                                          rate(t_min), rate(t_mean)));
    }

    std::filesystem::path directory_;
    output_set own_outputs_;
    output_set* outputs_;
    std::map<std::string, dat_pair> files_;
};

}  // namespace parbench::report
