// The overlap console layout's run header: one struct that the overlap suite fills
// (plugins/mpi/suites/overlap.cpp) and the overlap console prints (report/overlap_console.hpp),
// so every field the one writes is one the other reads. It travels as run_start.header, and the
// JSON file keeps it under context.parbench.header.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace parbench::report {

struct overlap_header {
    bool show = true;                         // false under -nohdr 1: no header is printed
    bool verbose = false;                     // -verbose 1: each row's work-time ramp follows it
    std::vector<std::string> methods;         // "allreduce", ...
    std::vector<std::string> variants;        // "Blocking", "NB_Sleep", ...
    std::vector<int> communicator_sizes;      // processes of each communicator measured
    std::uint64_t iterations = 0;             // timed iterations per timing
    double time_s = 0.0;                      // at most this long per timing
    double threshold = 0.0;                   // work dominates once work_t >= threshold * overhead
    std::string datatype;                     // "MPI_DOUBLE"
    std::uint64_t count = 0;                  // elements per process and message
    std::string reduction;                    // "MPI_SUM"
    int root = 0;
    std::string options_file;                 // "" when none was read
    nlohmann::json async_progress;            // mpi/async_progress.hpp's record
    std::string async_progress_text;          // its header line

    friend bool operator==(const overlap_header&, const overlap_header&) = default;
};

inline void to_json(nlohmann::json& j, const overlap_header& h) {
    j = {{"show", h.show},
         {"verbose", h.verbose},
         {"methods", h.methods},
         {"variants", h.variants},
         {"communicator_sizes", h.communicator_sizes},
         {"iterations", h.iterations},
         {"time_s", h.time_s},
         {"threshold", h.threshold},
         {"datatype", h.datatype},
         {"count", h.count},
         {"reduction", h.reduction},
         {"root", h.root},
         {"options_file", h.options_file},
         {"async_progress", h.async_progress},
         {"async_progress_text", h.async_progress_text}};
}

// Every field is required: an overlap run_start whose header lacks one is refused.
inline void from_json(const nlohmann::json& j, overlap_header& h) {
    h.show = j.at("show").get<bool>();
    h.verbose = j.at("verbose").get<bool>();
    h.methods = j.at("methods").get<std::vector<std::string>>();
    h.variants = j.at("variants").get<std::vector<std::string>>();
    h.communicator_sizes = j.at("communicator_sizes").get<std::vector<int>>();
    h.iterations = j.at("iterations").get<std::uint64_t>();
    h.time_s = j.at("time_s").get<double>();
    h.threshold = j.at("threshold").get<double>();
    h.datatype = j.at("datatype").get<std::string>();
    h.count = j.at("count").get<std::uint64_t>();
    h.reduction = j.at("reduction").get<std::string>();
    h.root = j.at("root").get<int>();
    h.options_file = j.at("options_file").get<std::string>();
    h.async_progress = j.at("async_progress");
    h.async_progress_text = j.at("async_progress_text").get<std::string>();
}

}  // namespace parbench::report
