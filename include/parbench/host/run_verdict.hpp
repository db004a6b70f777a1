// What a finished run measured: how many result rows arrived, which benchmarks the plugin
// skipped, and why, and which rows -check found defects in. A run that measured nothing is an
// error, not an empty success; a run with defects fails (the driver's exit status 5).
#pragma once

#include <parbench/report/result.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parbench {

// A benchmark the plugin did not run, from a warning event's "skipped" field
// (plugin::host_channel::skipped()).
struct skipped_benchmark {
    std::string benchmark;  // "PingPong"
    std::string reason;     // "needs 2 processes and the run has 1"

    friend bool operator==(const skipped_benchmark&, const skipped_benchmark&) = default;
};

inline void to_json(nlohmann::json& j, const skipped_benchmark& s) {
    j = {{"benchmark", s.benchmark}, {"reason", s.reason}};
}
inline void from_json(const nlohmann::json& j, skipped_benchmark& s) {
    s.benchmark = j.value("benchmark", std::string{});
    s.reason = j.value("reason", std::string{});
}

// How a row is named in a one-line summary: "PingPong 1024 B (2 processes)".
[[nodiscard]] inline std::string row_label(const std::string& benchmark, bool has_bytes,
                                           std::uint64_t bytes, int processes) {
    std::string label = benchmark;
    if (has_bytes) label += " " + std::to_string(bytes) + " B";
    return label + " (" + std::to_string(processes) +
           (processes == 1 ? " process)" : " processes)");
}

// The one line that says a check failed: "--check found defects in 2 of 8 rows: A 1 B (2
// processes), ...". At most `shown` rows are named; the rest are counted.
[[nodiscard]] inline std::string defects_message(const std::vector<std::string>& rows,
                                                 std::size_t defective, std::size_t total,
                                                 std::size_t shown = 8) {
    std::string text = "--check found defects in " + std::to_string(defective) + " of " +
                       std::to_string(total) + (total == 1 ? " row" : " rows");
    std::string names;
    for (std::size_t k = 0; k < rows.size() && k < shown; ++k)
        names += (names.empty() ? "" : ", ") + rows[k];
    if (!names.empty()) text += ": " + names;
    if (defective > std::min(rows.size(), shown))
        text += " and " + std::to_string(defective - std::min(rows.size(), shown)) + " more";
    return text;
}

// The one warning line of a --check run in which some benchmarks cannot verify their data.
[[nodiscard]] inline std::string cannot_verify_warning(const std::vector<std::string>& names) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    return "--check: " + list + (names.size() == 1 ? " has" : " have") + " no data verification; " +
           (names.size() == 1 ? "its" : "their") + " rows say '" + not_verified_cell + "'";
}

// The error of a --check run in which none of the chosen benchmarks can verify its data.
[[nodiscard]] inline std::string cannot_verify_refusal(const std::vector<std::string>& names) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    return "--check: " + list + (names.size() == 1 ? " has" : " have") +
           " no data verification (no verify_check in " + (names.size() == 1 ? "its" : "their") +
           " definition); run without --check";
}

// Counts the events of one run as they pass (results arrive on rank 0 only; see run_verdict
// agreement in host.hpp).
class run_verdict {
public:
    void count(std::string_view kind, const nlohmann::json& event) {
        if (kind == "result") {
            ++results_;
            if (!event.is_object()) return;  // counted; nothing more to read
            const auto defects = event.find("defects");
            if (defects != event.end() && defects->is_number_unsigned() &&
                defects->get<std::uint64_t>() > 0) {
                const nlohmann::json block = event.value("block", nlohmann::json::object());
                defective_rows_.push_back(row_label(
                    event.value("benchmark", std::string{}), event.value("has_bytes", true),
                    event.value("bytes", std::uint64_t{0}), block.value("processes", 1)));
                ++defective_;
            }
            if (event.value("not_verified", false)) {
                const std::string name = event.value("benchmark", std::string{});
                if (std::find(not_verified_.begin(), not_verified_.end(), name) ==
                    not_verified_.end())
                    not_verified_.push_back(name);
            }
        } else if (kind == "time_out") {
            // IMB 2021's time-out row: reported, not measured. Its out-of-mem. row (a size over
            // -mem ended the benchmark) is neither: a run of nothing else measured nothing.
            if (const auto need = event.find("over_memory_need_bytes");
                need != event.end() && !need->is_null())
                ++over_memory_;
            else
                ++time_outs_;
        } else if (kind == "warning" && event.contains("skipped")) {
            auto s = event.at("skipped").get<skipped_benchmark>();
            if (std::find(skipped_.begin(), skipped_.end(), s) == skipped_.end())
                skipped_.push_back(std::move(s));
        }
    }

    [[nodiscard]] std::size_t results() const noexcept { return results_; }
    // A run that reported a row: a measurement, or a size IMB 2021's -time budget ended (IMB
    // prints its time-out row and ends normally; only a run without any row is an error).
    [[nodiscard]] bool measured() const noexcept { return results_ > 0 || time_outs_ > 0; }
    [[nodiscard]] std::size_t time_outs() const noexcept { return time_outs_; }
    [[nodiscard]] const std::vector<skipped_benchmark>& skipped() const noexcept {
        return skipped_;
    }
    // Every process learns rank 0's counts (host.hpp broadcasts them).
    void agree_on_results(std::size_t results) noexcept { results_ = results; }
    void agree_on_time_outs(std::size_t time_outs) noexcept { time_outs_ = time_outs; }
    void agree_on_skipped(std::size_t skipped) noexcept { skipped_count_ = skipped; }
    // How many benchmarks were skipped: rank 0's count on every process once agreed (the names,
    // skipped(), may be known on rank 0 only).
    [[nodiscard]] std::size_t skipped_count() const noexcept {
        return std::max(skipped_count_, skipped_.size());
    }
    // The line of a strict run (--strict, run_settings::strict) that skipped a benchmark.
    [[nodiscard]] std::string strict_message() const {
        const std::string names = skipped_text();
        return "--strict: not every requested benchmark was measured: " +
               (names.empty() ? std::to_string(skipped_count()) + " skipped" : names);
    }
    void agree_on_defects(std::size_t defective) noexcept { defective_ = defective; }

    // Rows in which -check found defects (their number on every process; their names on rank 0).
    [[nodiscard]] std::size_t defective_rows() const noexcept { return defective_; }
    [[nodiscard]] bool defects_found() const noexcept { return defective_ > 0; }
    // "--check found defects in 2 of 8 rows: ..."; "" when there are none.
    [[nodiscard]] std::string defects_text() const {
        return defective_ == 0 ? std::string{}
                               : defects_message(defective_rows_, defective_, results_);
    }
    // Benchmarks whose rows a --check run could not verify (rank 0).
    [[nodiscard]] const std::vector<std::string>& not_verified() const noexcept {
        return not_verified_;
    }

    // "PingPong (needs 2 processes and the run has 1), PingPing (...)"; "" when none.
    [[nodiscard]] std::string skipped_text() const {
        std::string text;
        for (const auto& s : skipped_)
            text += (text.empty() ? "" : ", ") + s.benchmark + " (" + s.reason + ")";
        return text;
    }

    // The error of a run that measured nothing, naming what was skipped.
    [[nodiscard]] std::string nothing_measured_message(std::string_view suite) const {
        std::string text = "nothing was measured in suite '" + std::string(suite) + "'";
        if (!skipped_.empty()) return text + ": every benchmark was skipped: " + skipped_text();
        if (over_memory_ > 0)
            return text + ": every benchmark ended at a size above the -mem limit (its "
                          "out-of-mem. row says how much it needs)";
        return text + ": the plugin finished without a result";
    }

private:
    std::size_t results_ = 0;
    std::size_t time_outs_ = 0;
    std::size_t over_memory_ = 0;  // out-of-mem. rows (rank 0)
    std::vector<skipped_benchmark> skipped_;
    std::size_t skipped_count_ = 0;
    std::size_t defective_ = 0;
    std::vector<std::string> defective_rows_;
    std::vector<std::string> not_verified_;
};

}  // namespace parbench
