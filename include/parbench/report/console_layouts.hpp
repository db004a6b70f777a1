// The console reporters by layout name: a suite declares its layout in run_start.layout ("imb",
// "osu", ...) and the host renders it with the reporter registered here. A new layout is one
// line in console_layouts(); an undeclared or unknown layout is an error, never a fallback.
//
// Every console also shows the `note` events of a run (informational lines, "# text"), whatever
// its layout: notes_on_console wraps the layout's reporter.
//
// A layout may also write files of its own beside the console (PAW's .dat files): those are
// file reporters (make_layout_files), made whether or not a console is shown.
#pragma once

#include <parbench/report/caf_console.hpp>
#include <parbench/report/imb_console.hpp>
#include <parbench/report/imb_nbc_console.hpp>
#include <parbench/report/imb_p2p_console.hpp>
#include <parbench/report/osu_console.hpp>
#include <parbench/report/overlap_console.hpp>
#include <parbench/report/output_file.hpp>
#include <parbench/report/paw.hpp>
#include <parbench/report/paw_dat.hpp>
#include <parbench/report/reporter.hpp>

#include <filesystem>
#include <functional>
#include <map>
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

using console_factory = std::function<std::unique_ptr<reporter>(const console_target&)>;

// The factory of a reporter built from (out).
template <class Reporter>
[[nodiscard]] console_factory console_of() {
    return [](const console_target& t) -> std::unique_ptr<reporter> {
        return std::make_unique<Reporter>(t.out);
    };
}

// Layout name -> console reporter. One line per layout.
[[nodiscard]] inline const std::map<std::string, console_factory, std::less<>>& console_layouts() {
    static const std::map<std::string, console_factory, std::less<>> layouts = {
        {"caf", console_of<caf_console_reporter>()},
        {"imb", console_of<imb_console_reporter>()},
        {"imb-nbc", console_of<imb_nbc_console_reporter>()},
        {"imb-p2p", console_of<imb_p2p_console_reporter>()},
        {"osu", console_of<osu_console_reporter>()},
        {"overlap", console_of<overlap_console_reporter>()},
        {"paw", console_of<paw_reporter>()},
    };
    return layouts;
}

// A suite declared a layout no reporter is registered for (a plugin newer than the host, or a
// typing error in the plugin).
class unknown_layout : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// "caf, imb, osu, paw"
[[nodiscard]] inline std::string known_layouts() {
    std::string text;
    for (const auto& [name, factory] : console_layouts()) text += (text.empty() ? "" : ", ") + name;
    return text;
}

// Throws unknown_layout unless `layout` is registered. A suite that declares none is an error
// too: no layout is assumed (IMB's was, once, and rendered other suites' rows as IMB tables).
inline void require_layout(std::string_view layout, std::string_view suite) {
    if (console_layouts().contains(layout)) return;
    if (layout.empty())
        throw unknown_layout("suite '" + std::string(suite) +
                             "' declares no console layout (run_start.layout; known: " +
                             known_layouts() + ")");
    throw unknown_layout("suite '" + std::string(suite) + "' declares console layout '" +
                         std::string(layout) + "', which this parbench does not know (known: " +
                         known_layouts() + ")");
}

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

// The console reporter of `layout`; throws unknown_layout.
[[nodiscard]] inline std::unique_ptr<reporter> make_console(std::string_view layout,
                                                            std::string_view suite,
                                                            const console_target& target) {
    require_layout(layout, suite);
    return std::make_unique<notes_on_console>(target.out,
                                              console_layouts().find(layout)->second(target));
}

// Where a layout's own files go: their directory (--dat-dir) and the run's outputs, which they
// are claimed in (output_file.hpp); nullptr: a set of the reporter's own.
struct layout_files_target {
    std::filesystem::path directory = ".";
    output_set* outputs = nullptr;
};

// The reporter of the files `layout` writes beside the console, or nullptr when it writes none.
[[nodiscard]] inline std::unique_ptr<reporter> make_layout_files(std::string_view layout,
                                                                 const layout_files_target& t) {
    if (layout == "paw") return std::make_unique<paw_dat_reporter>(t.directory, t.outputs);
    return nullptr;
}

}  // namespace parbench::report
