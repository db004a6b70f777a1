// The caf console layout's run header: one struct that the coarray plugin fills
// (plugins/caf/suite.cpp) and the caf console prints (report/caf_console.hpp), so every field
// the one writes is one the other reads. It travels as run_start.header, and the JSON file keeps
// it under context.parbench.header.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace parbench::report {

struct caf_header {
    int images = 0;                // coarray images (MPI processes)
    std::string coarray_runtime;   // "OpenCoarrays 2.10.1"
    std::string compiler;          // the Fortran compiler of the kernels
    std::string mpi_version;       // the MPI standard version, "4.0"
    bool check = false;            // -check: the tables have a defects column

    friend bool operator==(const caf_header&, const caf_header&) = default;
};

inline void to_json(nlohmann::json& j, const caf_header& h) {
    j = {{"images", h.images},
         {"coarray_runtime", h.coarray_runtime},
         {"compiler", h.compiler},
         {"mpi_version", h.mpi_version},
         {"check", h.check}};
}

// Every field is required: a caf run_start whose header lacks one is refused, not printed as "-".
inline void from_json(const nlohmann::json& j, caf_header& h) {
    h.images = j.at("images").get<int>();
    h.coarray_runtime = j.at("coarray_runtime").get<std::string>();
    h.compiler = j.at("compiler").get<std::string>();
    h.mpi_version = j.at("mpi_version").get<std::string>();
    h.check = j.at("check").get<bool>();
}

}  // namespace parbench::report
