// The typed outcome of host::run(): the plugin's run-start header, every result row, the
// warnings and notes, the benchmarks skipped and whether the run finished.
#pragma once

#include <parbench/core/names.hpp>
#include <parbench/host/run_verdict.hpp>
#include <parbench/report/result.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace parbench {

class run_result {
public:
    run_start start;                       // header and context the plugin declared
    std::vector<result_record> records;    // one per table row, in the order measured
    std::vector<std::string> warnings;     // this rank's and (on rank 0) the run's
    std::vector<std::string> notes;        // informational lines
    // Sizes that IMB 2021's -time budget of their block ended ("time-out." rows): where each
    // row would have been, without figures; the benchmark measured nothing after it.
    std::vector<result_record> time_outs;
    std::vector<skipped_benchmark> skipped;
    bool finished = false;                 // the plugin's run returned success

    // Finished with at least one row and without skipping a requested benchmark (one named in
    // the request, or of the suite's default set when it named none). host::run() throws
    // instead of returning a run that measured nothing, so a test cannot pass on no data; with
    // run_settings::strict it throws on a skipped benchmark too.
    [[nodiscard]] bool completed() const noexcept {
        return finished && !records.empty() && skipped.empty();
    }

    // Mismatching elements over every row that was checked (run with .check = true).
    [[nodiscard]] std::uint64_t total_defects() const noexcept {
        std::uint64_t sum = 0;
        for (const auto& r : records) sum += r.defects.value_or(0);
        return sum;
    }

    // The rows in which -check found defects, in the order measured.
    [[nodiscard]] std::vector<const result_record*> rows_with_defects() const {
        std::vector<const result_record*> found;
        for (const auto& r : records)
            if (r.defects.value_or(0) > 0) found.push_back(&r);
        return found;
    }
    [[nodiscard]] bool defects_found() const { return total_defects() > 0; }
    // The driver's line for them ("--check found defects in 2 of 8 rows: ..."); "" when none.
    [[nodiscard]] std::string defects_text() const {
        std::vector<std::string> labels;
        for (const auto* r : rows_with_defects())
            labels.push_back(row_label(r->benchmark, r->has_bytes, r->bytes, r->block.processes));
        return labels.empty() ? std::string{}
                              : defects_message(labels, labels.size(), records.size());
    }
    // Finished with rows and without defects: what the driver's exit status 0 means.
    [[nodiscard]] bool passed() const { return completed() && !defects_found(); }
    // The benchmarks whose rows a run with .check = true could not verify (no verification in
    // their definitions): their rows say not_verified.
    [[nodiscard]] std::vector<std::string> not_verified() const {
        std::vector<std::string> names;
        for (const auto& r : records)
            if (r.not_verified && std::find(names.begin(), names.end(), r.benchmark) == names.end())
                names.push_back(r.benchmark);
        return names;
    }

    // The row of `benchmark` (case-insensitive) at `bytes`, the first such row measured (at
    // the largest process count when `processes` is 0). Throws std::out_of_range naming what
    // is missing.
    [[nodiscard]] const result_record& at(std::string_view benchmark, std::uint64_t bytes,
                                          int processes = 0) const {
        const result_record* best = nullptr;
        for (const auto& r : records) {
            if (!same_name(r.benchmark, benchmark) || r.bytes != bytes) continue;
            if (processes > 0 && r.block.processes != processes) continue;
            if (best == nullptr || r.block.processes > best->block.processes) best = &r;
        }
        if (best == nullptr)
            throw std::out_of_range("no result for " + std::string(benchmark) + " at " +
                                    std::to_string(bytes) + " bytes" +
                                    (processes > 0 ? " on " + std::to_string(processes) +
                                                         " processes"
                                                   : std::string{}) +
                                    " (" + std::to_string(records.size()) + " rows in the run)");
        return *best;
    }

    // Every row of `benchmark`, in the order measured.
    [[nodiscard]] std::vector<const result_record*> rows(std::string_view benchmark) const {
        std::vector<const result_record*> found;
        for (const auto& r : records)
            if (same_name(r.benchmark, benchmark)) found.push_back(&r);
        return found;
    }

};

inline void to_json(nlohmann::json& j, const run_result& r) {
    j = {{"start", r.start},       {"records", r.records}, {"warnings", r.warnings},
         {"notes", r.notes},       {"skipped", r.skipped}, {"finished", r.finished},
         {"time_outs", r.time_outs}};
}
inline void from_json(const nlohmann::json& j, run_result& r) {
    r.start = j.at("start").get<run_start>();
    r.records = j.at("records").get<std::vector<result_record>>();
    r.warnings = j.at("warnings").get<std::vector<std::string>>();
    r.notes = j.at("notes").get<std::vector<std::string>>();
    r.skipped = j.at("skipped").get<std::vector<skipped_benchmark>>();
    r.finished = j.at("finished").get<bool>();
    r.time_outs = j.value("time_outs", std::vector<result_record>{});
}

}  // namespace parbench
