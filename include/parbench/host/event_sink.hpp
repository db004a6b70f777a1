// Where a host run delivers what the plugin emits: one call per event (already parsed, in the
// order emitted) and one per measurement started. The driver renders events; host::run()
// collects them into a run_result.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace parbench {

class event_sink {
public:
    virtual ~event_sink() = default;
    // kind: "run_start", "result", "time_out", "warning" or "note" (docs/plugin-authors.md).
    // Results and time-outs arrive on rank 0 only; warnings on the rank that met them.
    virtual void on_event(std::string_view kind, const nlohmann::json& event) = 0;
    // Called on every rank before each measurement (time limits, progress lines).
    virtual void on_progress(std::string_view /*benchmark*/, std::uint64_t /*bytes*/,
                             int /*processes*/) {}
    // An event that is not JSON, or one on_event could not handle (what() of its exception).
    // Events are delivered from a C callback: nothing may propagate out of it.
    virtual void on_event_problem(const std::string& problem) = 0;
};

}  // namespace parbench
