// The interface every output format implements. Reporters only render records; they never
// measure. The driver feeds them events in order, on rank 0 only.
#pragma once

#include <parbench/report/result.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace parbench::report {

class reporter {
public:
    virtual ~reporter() = default;
    // `driver_context` holds what the driver knows (date, host, uname, calling sequence,
    // parbench version, plugins: report/run_context.hpp; a console reads it through
    // report/console_run_context.hpp); `start.context` what the plugin knows.
    virtual void on_run_start(const run_start& start, const nlohmann::json& driver_context) = 0;
    virtual void on_result(const result_record& record) = 0;
    virtual void on_warning(const std::string& /*message*/) {}
    // A size that IMB 2021's -time budget ended (a `time_out` event): where its row would have
    // been, no figures (plugin/export.hpp, host_channel::time_out). Not a result: a reporter of
    // measured rows ignores it.
    virtual void on_time_out(const result_record& /*row*/) {}
    // An informational line from the plugin (a `note` event); consoles show it, files need not.
    virtual void on_note(const std::string& /*message*/) {}
    // A console is about to print a line of its own between rows (a note): a layout whose
    // tables readers take up to an empty line (IMB's) ends the open table here.
    virtual void close_table() {}
    // `completed` is false when the run stopped early (time limit, error, interrupt).
    virtual void on_run_end(bool completed) = 0;
};

}  // namespace parbench::report
