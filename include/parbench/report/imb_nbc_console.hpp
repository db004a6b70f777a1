// The IMB-NBC console layout: IMB's (report/imb_console.hpp) with two header lines more — the CPU
// load's rate, which IMB prints once at the start of a run, and whether the MPI library
// progresses communication asynchronously (the figure overlap depends on most). The tables are
// IMB's: the overlap benchmarks declare their figure columns in run_start (catalogue A.7.2,
// inferred layout)
//
//   #bytes #repetitions t_ovrl[usec] t_pure[usec] t_CPU[usec] overlap[%]
//
// and the _pure benchmarks are collectives (t_min/t_max/t_avg).
#pragma once

#include <parbench/report/imb_console.hpp>
#include <parbench/report/imb_header.hpp>
#include <parbench/report/reporter.hpp>

#include <fmt/format.h>

#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>

namespace parbench::report {

class imb_nbc_console_reporter final : public reporter {
public:
    explicit imb_nbc_console_reporter(std::ostream& out) : out_(out), imb_(out) {}

    void on_run_start(const run_start& start, const nlohmann::json& driver_context) override {
        // The imb-nbc layout's two lines need the header's overlap part (report/imb_header.hpp):
        // refused before a line is printed.
        const std::optional<imb_header_overlap> overlap = start.header.get<imb_header>().overlap;
        if (!overlap)
            throw std::invalid_argument("suite '" + start.suite +
                                        "' declares the imb-nbc console layout but its run header "
                                        "has no cpu_load and async_progress");
        imb_.on_run_start(start, driver_context);
        out_ << "#\n";
        out_ << fmt::format("# CPU load: {}, {:.0f} Mflop/s (rank 0)\n", overlap->cpu_load_kernel,
                            overlap->cpu_load_rate_mflops);
        out_ << "# Asynchronous progress: " << overlap->async_progress << '\n';
        out_.flush();
    }

    void on_result(const result_record& r) override { imb_.on_result(r); }
    void on_time_out(const result_record& r) override { imb_.on_time_out(r); }
    void on_warning(const std::string& message) override { imb_.on_warning(message); }
    void close_table() override { imb_.close_table(); }
    void on_run_end(bool completed) override { imb_.on_run_end(completed); }

private:
    std::ostream& out_;
    imb_console_reporter imb_;
};

}  // namespace parbench::report
