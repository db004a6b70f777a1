// The host's end of the channel a suite talks through (plugin/abi.h parbench_host): every event
// a suite emits is read, counted for the run's verdict and handed to an event_sink; progress
// reaches the sink's on_progress. parbench::host runs a plugin's suite through it, and
// parbench::mpi::main the definitions compiled into a program, so that both are rendered,
// counted and judged by the same code.
#pragma once

#include <parbench/host/event_sink.hpp>
#include <parbench/host/run_error.hpp>
#include <parbench/host/run_verdict.hpp>
#include <parbench/plugin/abi.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

namespace parbench {

class event_delivery {
public:
    // `check`: the run validates data (--check), so a result without defects is "not verified".
    event_delivery(event_sink& sink, bool check) : sink_(&sink), check_(check) {}
    event_delivery(const event_delivery&) = delete;
    event_delivery& operator=(const event_delivery&) = delete;

    // The C channel to hand the suite; points into this object.
    [[nodiscard]] parbench_host channel(const parbench_comm_service* comm) {
        parbench_host c{};
        c.struct_size = sizeof c;
        c.context = this;
        c.emit = &deliver_event;
        c.progress = &deliver_progress;
        c.comm = comm;
        return c;
    }

    // After the suite returned: what was measured, agreed on every process (results arrive on
    // rank 0 only, so every process learns its counts, and all agree on the exit status of a run
    // with defects). Throws run_error (nothing_measured) when nothing was.
    [[nodiscard]] run_verdict agreed_verdict(const parbench_comm_service* comm,
                                             std::string_view suite, int rank) {
        if (comm != nullptr && comm->size() > 1) {
            std::uint64_t counts[4] = {verdict_.results(), verdict_.defective_rows(),
                                       verdict_.skipped_count(), verdict_.time_outs()};
            comm->broadcast(counts, sizeof counts, 0);
            verdict_.agree_on_results(counts[0]);
            verdict_.agree_on_defects(counts[1]);
            verdict_.agree_on_skipped(counts[2]);
            verdict_.agree_on_time_outs(counts[3]);
        }
        if (!verdict_.measured())
            throw run_error(run_error::kind::nothing_measured,
                            verdict_.nothing_measured_message(suite), rank);
        return verdict_;
    }

private:
    // No exception may cross back into the suite: problems go to the sink.
    static void deliver_event(void* context, const char* text) {
        auto& d = *static_cast<event_delivery*>(context);
        nlohmann::json event;
        try {
            event = nlohmann::json::parse(text != nullptr ? text : "");
        } catch (const std::exception&) {
            d.sink_->on_event_problem("a plugin emitted an event that is not JSON");
            return;
        }
        try {
            const std::string kind = event.value("event", std::string{});
            if (d.check_ && kind == "result" &&
                event.value("defects", nlohmann::json()).is_null())
                event["not_verified"] = true;
            d.verdict_.count(kind, event);
            d.sink_->on_event(kind, event);
        } catch (const std::exception& e) {
            d.sink_->on_event_problem(std::string("cannot handle an event: ") + e.what());
        }
    }

    static void deliver_progress(void* context, const char* benchmark, std::uint64_t bytes,
                                 int processes) {
        try {
            static_cast<event_delivery*>(context)->sink_->on_progress(
                benchmark != nullptr ? benchmark : "?", bytes, processes);
        } catch (...) {  // progress is best effort; the run goes on
        }
    }

    event_sink* sink_;
    bool check_ = false;
    run_verdict verdict_;
};

}  // namespace parbench
