// The IMB-P2P console layout (Intel MPI Benchmarks 2021.11, src_c/P2P/imb_p2p.c print_title and
// print_main_header): IMB-P2P's shorter run header — no -time paragraph and no datatype lines,
// always the minimum and maximum message length, which a -msglen file need not give in order —
// then IMB's tables (imb_console.hpp), whose figure columns the suite declares:
//
//   #bytes #repetitions t[usec] Mbytes/sec Msg/sec
#pragma once

#include <parbench/report/imb_console.hpp>
#include <parbench/report/imb_context.hpp>
#include <parbench/report/imb_header.hpp>
#include <parbench/report/reporter.hpp>

#include <fmt/format.h>

#include <ostream>
#include <string>
#include <vector>

namespace parbench::report {

class imb_p2p_console_reporter final : public reporter {
public:
    explicit imb_p2p_console_reporter(std::ostream& out) : out_(out), imb_(out) {}

    void on_run_start(const run_start& start, const nlohmann::json& driver_context) override {
        imb_.configure(start, driver_context, /*p2p_layout=*/true);
        const imb_header& h = imb_.header();
        // IMB-P2P's rules are 60 dashes (imb_p2p.c:140-142), IMB-MT's 66 (MT_suite.cpp:180-182):
        // IMB-MT's header is the one with threads per process.
        const imb_context& context = imb_.context();
        detail::imb_banner(out_, start, h, context, h.threads ? 66 : 60);
        // IMB-P2P's line has no level (imb_p2p.c:234), and no blank after its colon
        if (h.mpi_thread_environment.empty())
            out_ << "# MPI Thread Environment:\n";
        else
            detail::imb_header_line(out_, "MPI Thread Environment", h.mpi_thread_environment);
        out_ << "#\n# Calling sequence was:\n#\n";
        out_ << "# " << context.run.calling_sequence.value_or("") << "\n#\n";
        out_ << "# List of Benchmarks to run:\n#\n";
        for (const auto& name : h.benchmark_list) out_ << "# " << name << '\n';
        out_ << "#\n";
        out_ << "# Minimum message length in bytes:   " << h.min_bytes << '\n';
        out_ << "# Maximum message length in bytes:   " << h.max_bytes << '\n';
        out_ << "#\n";
        out_.flush();
    }

    void on_result(const result_record& r) override {
        imb_.on_result(r);
        table_open_ = true;
    }
    void on_warning(const std::string& message) override {
        imb_.on_warning(message);
        table_open_ = false;
    }
    // Before a note: IMB-P2P puts an empty line before each of its lines between tables, a
    // table's end or not (`\n# !! Benchmark %s is invalid for %d processes !!\n`,
    // imb_p2p_pingpong.c:43-44); IMB-MT's tables only end with one.
    void close_table() override {
        if (table_open_ || imb_.header().threads)
            imb_.close_table();
        else
            out_ << '\n';
        table_open_ = false;
    }
    void on_run_end(bool completed) override { imb_.on_run_end(completed); }

private:
    std::ostream& out_;
    imb_console_reporter imb_;
    bool table_open_ = false;  // a row since the last close_table() or warning
};

}  // namespace parbench::report
