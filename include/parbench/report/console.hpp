// What every console layout has around it, whichever it is: where a console writes
// (console_target), where a layout's own files go (layout_files_target), the refusal of a layout
// this parbench does not know (unknown_layout), the note lines every console shows between its
// rows (notes_on_console) and the set of layouts a host renders (layout_set). The layouts
// themselves, by name: report/console_layouts.hpp (every_layout(), the driver's set). A program
// that renders one layout (parbench::mpi::main: IMB's) includes this and that layout's reporter,
// and so compiles no other layout's reporter nor its header's reader.
#pragma once

#include <parbench/report/output_file.hpp>
#include <parbench/report/reporter.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace parbench::report {

// Where a console reporter writes: the terminal stream.
struct console_target {
    std::ostream& out;
};

// A suite declared a layout no reporter is registered for (a plugin newer than the host, or a
// typing error in the plugin).
class unknown_layout : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Where a layout's own files go: their directory (--dat-dir) and the run's outputs, which they
// are claimed in (output_file.hpp); nullptr: a set of the reporter's own.
struct layout_files_target {
    std::filesystem::path directory = ".";
    output_set* outputs = nullptr;
};

// Shows note events as "# text" lines between the rows of any layout.
class notes_on_console final : public reporter {
public:
    notes_on_console(std::ostream& out, std::unique_ptr<reporter> layout)
        : out_(out), layout_(std::move(layout)) {}

    void on_run_start(const run_start& start, const nlohmann::json& driver_context) override {
        layout_->on_run_start(start, driver_context);
    }
    void on_result(const result_record& record) override { layout_->on_result(record); }
    void on_warning(const std::string& message) override { layout_->on_warning(message); }
    void on_time_out(const result_record& row) override { layout_->on_time_out(row); }
    void on_note(const std::string& message) override {
        layout_->close_table();
        out_ << "# " << message << '\n';
    }
    void on_run_end(bool completed) override { layout_->on_run_end(completed); }

private:
    std::ostream& out_;
    std::unique_ptr<reporter> layout_;
};

// The console layouts a host renders, and the files a layout writes beside the console: every
// one parbench knows (every_layout(), the driver's: report/console_layouts.hpp), or a program's
// own few (parbench::mpi::main renders IMB's alone).
struct layout_set {
    // Throws unknown_layout unless the layout is one of them.
    void (*require)(std::string_view layout, std::string_view suite) = nullptr;
    std::unique_ptr<reporter> (*console)(std::string_view layout, std::string_view suite,
                                         const console_target& target) = nullptr;
    // nullptr from it: the layout writes no files of its own.
    std::unique_ptr<reporter> (*files)(std::string_view layout,
                                       const layout_files_target& target) = nullptr;
};

}  // namespace parbench::report
