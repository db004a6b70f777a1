// What an MPI suite's run context (run_start.context) says of the MPI library and of the run's
// processes, typed once: every MPI suite fills it (mpi::mpi_run_context in mpi/run_header.hpp
// for the imb-* suites and programs, suites/overlap.cpp, suites/imb_mt.cpp, suites/imb_p2p.cpp,
// suites/pair_rounds.hpp, osu/suite.cpp, the caf plugin's suite.cpp; suites/paw.cpp its
// library, report::paw_context its processes), so that no suite writes these keys by hand, and
// the consoles print it (report/overlap_console.hpp, and the IMB consoles through
// report/imb_context.hpp), so that no console looks them up by name. The context's other keys
// (timer, thread level, options, ...) travel beside them.
//
// Both fields are optional: a context of a test's own may leave them out (or null), and the
// consoles then print "-" (overlap) or no "# MPI Library" line (IMB). A field of another type
// is refused (nlohmann's type_error names it).
#pragma once

#include <parbench/report/header_fields.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace parbench::report {

struct mpi_suite_context {
    std::optional<std::string> mpi_library{};  // MPI_Get_library_version's text, every line
    std::optional<int> processes{};            // the size of MPI_COMM_WORLD

    // The library's first line ("MPICH Version:\t4.0.2"), as the consoles print it.
    [[nodiscard]] std::optional<std::string> library_first_line() const {
        if (!mpi_library) return std::nullopt;
        return mpi_library->substr(0, mpi_library->find('\n'));
    }

    friend bool operator==(const mpi_suite_context&, const mpi_suite_context&) = default;
};

inline void to_json(nlohmann::json& j, const mpi_suite_context& c) {
    j = nlohmann::json::object();
    header_fields::put(j, "mpi_library", c.mpi_library);
    header_fields::put(j, "processes", c.processes);
}

// A context that is no object (none given) has neither field.
inline void from_json(const nlohmann::json& j, mpi_suite_context& c) {
    c = {};
    if (!j.is_object()) return;
    const auto present = [&](const char* key) { return j.contains(key) && !j.at(key).is_null(); };
    if (present("mpi_library")) c.mpi_library = j.at("mpi_library").get<std::string>();
    if (present("processes")) c.processes = j.at("processes").get<int>();
}

}  // namespace parbench::report
