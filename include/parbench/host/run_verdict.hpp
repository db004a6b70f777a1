// What a finished run measured: how many result rows arrived and which benchmarks the plugin
// skipped, and why. A run that measured nothing is an error, not an empty success.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
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

// Counts the events of one run as they pass (results arrive on rank 0 only; see run_verdict
// agreement in host.hpp).
class run_verdict {
public:
    void count(std::string_view kind, const nlohmann::json& event) {
        if (kind == "result") {
            ++results_;
        } else if (kind == "warning" && event.contains("skipped")) {
            auto s = event.at("skipped").get<skipped_benchmark>();
            if (std::find(skipped_.begin(), skipped_.end(), s) == skipped_.end())
                skipped_.push_back(std::move(s));
        }
    }

    [[nodiscard]] std::size_t results() const noexcept { return results_; }
    [[nodiscard]] bool measured() const noexcept { return results_ > 0; }
    [[nodiscard]] const std::vector<skipped_benchmark>& skipped() const noexcept {
        return skipped_;
    }
    // Every process learns rank 0's count (host.hpp broadcasts it).
    void agree_on_results(std::size_t results) noexcept { results_ = results; }

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
        return text + ": the plugin finished without a result";
    }

private:
    std::size_t results_ = 0;
    std::vector<skipped_benchmark> skipped_;
};

}  // namespace parbench
