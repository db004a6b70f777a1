// The console reporters by layout name: a suite declares its layout in run_start.layout ("imb",
// "osu", ...) and the host renders it with the reporter registered here. A new layout is one
// line in console_layouts(); an undeclared or unknown layout is an error, never a fallback.
//
// Every console also shows the `note` events of a run (informational lines, "# text"), whatever
// its layout: notes_on_console (report/console.hpp) wraps the layout's reporter.
//
// A layout may also write files of its own beside the console (PAW's .dat files): those are
// file reporters (make_layout_files), made whether or not a console is shown.
#pragma once

#include <parbench/report/caf_console.hpp>
#include <parbench/report/console.hpp>
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

// The console reporter of `layout`; throws unknown_layout.
[[nodiscard]] inline std::unique_ptr<reporter> make_console(std::string_view layout,
                                                            std::string_view suite,
                                                            const console_target& target) {
    require_layout(layout, suite);
    return std::make_unique<notes_on_console>(target.out,
                                              console_layouts().find(layout)->second(target));
}

// The reporter of the files `layout` writes beside the console, or nullptr when it writes none.
[[nodiscard]] inline std::unique_ptr<reporter> make_layout_files(std::string_view layout,
                                                                 const layout_files_target& t) {
    if (layout == "paw") return std::make_unique<paw_dat_reporter>(t.directory, t.outputs);
    return nullptr;
}

// Every layout parbench knows, and their files: the driver's set.
[[nodiscard]] inline layout_set every_layout() noexcept {
    return {&require_layout, &make_console, &make_layout_files};
}

}  // namespace parbench::report
