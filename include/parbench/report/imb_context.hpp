// The IMB console layouts' typed run context: what the IMB consoles (report/imb_console.hpp,
// imb_nbc_console.hpp, imb_p2p_console.hpp) print or obey from the run's two contexts, read once
// by read_imb_context, so that no console looks an option or a machine line up by its key.
//
// - The driver's context (report/run_context.hpp, the reporters' `driver_context`): the banner's
//   date and uname lines, the calling sequence, --check, as every console reads them
//   (report/console_run_context.hpp, which says what is required of it).
// - The suite's run_start.context: the MPI library's version text (report/mpi_suite_context.hpp),
//   the timer's limits
//   (report/stability.hpp) and, of its effective options, IMB's -multi (imb-* suites) and
//   IMB-MT's -window_size. Nothing of it is required: a context without a key prints what the
//   console printed before it was typed (no MPI Library line, no Group column, no window_size
//   line).
#pragma once

#include <parbench/report/console_run_context.hpp>
#include <parbench/report/mpi_suite_context.hpp>
#include <parbench/report/result.hpp>
#include <parbench/report/stability.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace parbench::report {

// The options block of an IMB suite's context (context.options) as the IMB consoles read it:
// IMB's -multi (the imb-* suites' plugins/mpi/imb/run_header.cpp writes it, null where not
// given) and -window_size (IMB-MT's suites/imb_mt.cpp, and the imb-* suites under IMB 2021).
// The block's other options travel beside them. to_json writes a field only where it is set.
struct imb_options_context {
    std::optional<int> multi{};                 // -multi 0|1; none where not given
    std::optional<std::uint64_t> window_size{};  // -window_size; none where the suite has none

    // IMB's -multi 1: every group reported, a Group column.
    [[nodiscard]] bool group_mode() const noexcept { return multi == 1; }

    friend bool operator==(const imb_options_context&, const imb_options_context&) = default;
};

inline void to_json(nlohmann::json& j, const imb_options_context& o) {
    j = nlohmann::json::object();
    if (o.multi) j["multi"] = *o.multi;
    if (o.window_size) j["window_size"] = *o.window_size;
}

// A block that is no object has neither field; a -multi that is no integer (null) is none.
inline void from_json(const nlohmann::json& j, imb_options_context& o) {
    o = {};
    if (!j.is_object()) return;
    if (const auto multi = j.find("multi"); multi != j.end() && multi->is_number_integer())
        o.multi = multi->get<int>();
    if (j.contains("window_size")) o.window_size = j.at("window_size").get<std::uint64_t>();
}

struct imb_context {
    // The driver's: "# Date", "# Machine", "# System", "# Release", "# Version" (uname), the
    // calling sequence and --check (the tables' defects column).
    console_run_context run;
    // The suite's: the first line of MPI_Get_library_version, tabs as blanks ("# MPI Library");
    // none where the suite recorded no library.
    std::optional<std::string> mpi_library{};
    timer_limits timer{};
    bool group_mode = false;        // options.multi is 1: IMB's -multi 1, a Group column
    std::uint64_t window_size = 0;  // options.window_size (IMB-MT): "# window_size = N"; 0: none
};

[[nodiscard]] inline imb_context read_imb_context(const run_start& start,
                                                  const nlohmann::json& driver_context) {
    imb_context c;
    c.run = read_console_run_context(driver_context);  // report/console_run_context.hpp
    const nlohmann::json& suite = start.context;
    std::optional<std::string> library = suite.get<mpi_suite_context>().library_first_line();
    if (library) {
        std::replace(library->begin(), library->end(), '\t', ' ');  // "MPICH Version:\t4.0.2"
        c.mpi_library = std::move(*library);
    }
    c.timer = timer_limits::from_context(suite);
    const auto options = suite.is_object() ? suite.find("options") : suite.end();
    if (options != suite.end()) {
        const auto typed = options->get<imb_options_context>();
        c.window_size = typed.window_size.value_or(0);
        c.group_mode = typed.group_mode();
    }
    return c;
}

}  // namespace parbench::report
