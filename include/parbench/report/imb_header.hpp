// The IMB console layouts' run header ("imb", "imb-nbc", "imb-p2p"): one struct that every IMB
// component fills (plugins/mpi/imb/run_header.cpp for imb-mpi1 to imb-io and imb-mpi4,
// suites/imb_p2p.cpp, suites/imb_mt.cpp, suites/pair_rounds.hpp for pairs and links, and
// mpi/main.hpp for programs built on parbench::mpi::main) and the IMB consoles print
// (report/imb_console.hpp, imb_nbc_console.hpp, imb_p2p_console.hpp), so every field the one
// writes is one the other reads. It travels as run_start.header, and the JSON file keeps it under
// context.parbench.header with the same keys and values as before it was typed.
//
// The components do not all say the same: what every one says is required (a header without it
// is refused, not printed as "-"); a part that only some components have is std::optional and,
// when absent, leaves no key in the JSON. A part is whole or absent: half a part is refused.
#pragma once

#include <parbench/report/header_fields.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace parbench::report {

// The classic IMB component a header is of (IMB-MPI1 to IMB-MPI4, IMB-IO): what decides the
// lines its IMB 2021.11 run header prints (report/imb_console.hpp) and its title's part. It
// travels as IMB's name of the part, "MPI-1 part" (the JSON key "part"); IMB-P2P, IMB-MT, the
// pair suites and programs have none. A part of a name of a plugin's own (the test plugin's
// "fake part") is no IMB component: it reads as none, and the JSON file keeps its text.
enum class imb_part { mpi1, ext, rma, nbc, io, mpi4 };

[[nodiscard]] constexpr const char* to_string(imb_part p) noexcept {
    switch (p) {
        case imb_part::ext: return "MPI-2 part";
        case imb_part::rma: return "RMA part";
        case imb_part::nbc: return "NBC part";
        case imb_part::io: return "MPI-IO part";
        case imb_part::mpi4: return "MPI-4 part";
        case imb_part::mpi1: break;
    }
    return "MPI-1 part";
}

// The component of one of IMB's six part names; none for another text.
[[nodiscard]] inline std::optional<imb_part> imb_part_from_string(const std::string& text) {
    for (const imb_part p : {imb_part::mpi1, imb_part::ext, imb_part::rma, imb_part::nbc,
                             imb_part::io, imb_part::mpi4})
        if (text == to_string(p)) return p;
    return std::nullopt;
}

// IMB's datatype lines (IMB-MPI1 to IMB-MPI4 and programs; IMB-P2P, IMB-MT and the pair suites
// print none, and the console then prints IMB's defaults).
struct imb_header_datatypes {
    std::string datatype = "MPI_BYTE";             // "# MPI_Datatype"
    std::string reduction_datatype = "MPI_FLOAT";  // "# MPI_Datatype for reductions"
    std::string reduction_op = "MPI_SUM";          // "# MPI_Op"

    friend bool operator==(const imb_header_datatypes&, const imb_header_datatypes&) = default;
};

// IMB-IO's: its lengths are I/O portions, written into a directory the driver removes when it
// stops the run.
struct imb_header_io {
    std::string length_name = "io portion";  // "# Minimum io portion in bytes"
    std::string io_directory;
    // IMB 2021.11's "# performance of %7.2f MFlops" before the first table of a run with
    // nonblocking benchmarks (original_benchmark.h:180-188): the CPU work's rate on rank 0.
    std::optional<double> cpu_exploit_mflops{};

    friend bool operator==(const imb_header_io&, const imb_header_io&) = default;
};

// The imb-nbc layout's two lines more (imb-nbc, imb-mpi4): the CPU load's rate on rank 0, which
// IMB prints once at the start, and the MPI library's asynchronous progress.
struct imb_header_overlap {
    std::string cpu_load_kernel;   // "100x100 single-precision matrix-vector product"
    double cpu_load_rate_mflops = 0.0;
    std::string async_progress;    // mpi::describe(), one line

    friend bool operator==(const imb_header_overlap&, const imb_header_overlap&) = default;
};

struct imb_header {
    // Every component's.
    std::string mpi_version;                  // "# MPI Version", MPI_Get_version: "4.0"
    std::string mpi_thread_environment;       // "MPI_THREAD_SINGLE"
    std::uint64_t min_bytes = 0;              // "# Minimum message length in bytes"
    std::uint64_t max_bytes = 0;
    std::vector<std::string> benchmark_list;  // "# List of Benchmarks to run:", as printed
    // The classic components', the pair suites' and programs' (not IMB-P2P's nor IMB-MT's).
    std::optional<bool> lengths_user_defined{};  // -msglen: "# Message lengths were user defined"
    std::optional<bool> check{};                 // -check: the tables have a defects column
    std::optional<imb_header_datatypes> datatypes{};
    // The imb-* suites of the MPI plugin: the catalogue's part (imb_part: "MPI-1 part") and
    // the methodology's label ("IMB 2021.11" lays the console out as IMB 2021.11 prints it).
    std::optional<imb_part> part{};
    std::optional<std::string> methodology{};
    std::optional<imb_header_io> io{};            // imb-io
    std::optional<imb_header_overlap> overlap{};  // the imb-nbc layout
    std::optional<int> threads{};                 // imb-mt: threads per process (its tables'
                                                  // "(threads: T)" and 66-dash banner)

    friend bool operator==(const imb_header&, const imb_header&) = default;
};

inline void to_json(nlohmann::json& j, const imb_header& h) {
    j = {{"mpi_version", h.mpi_version},
         {"mpi_thread_environment", h.mpi_thread_environment},
         {"min_bytes", h.min_bytes},
         {"max_bytes", h.max_bytes},
         {"benchmark_list", h.benchmark_list}};
    if (h.lengths_user_defined) j["lengths_user_defined"] = *h.lengths_user_defined;
    if (h.check) j["check"] = *h.check;
    if (h.datatypes) {
        j["datatype"] = h.datatypes->datatype;
        j["reduction_datatype"] = h.datatypes->reduction_datatype;
        j["reduction_op"] = h.datatypes->reduction_op;
    }
    if (h.part) j["part"] = to_string(*h.part);
    if (h.methodology) j["methodology"] = *h.methodology;
    if (h.io) {
        j["length_name"] = h.io->length_name;
        j["io_directory"] = h.io->io_directory;
        if (h.io->cpu_exploit_mflops) j["cpu_exploit_mflops"] = *h.io->cpu_exploit_mflops;
    }
    if (h.overlap) {
        j["cpu_load"] = {{"kernel", h.overlap->cpu_load_kernel},
                         {"rate_mflops", h.overlap->cpu_load_rate_mflops}};
        j["async_progress"] = h.overlap->async_progress;
    }
    if (h.threads) j["threads"] = *h.threads;
}

// The fields every component has are required (nlohmann's out_of_range names the key); the
// optional parts are read where present. Keys of no part (a test plugin's extras) are ignored.
inline void from_json(const nlohmann::json& j, imb_header& h) {
    h.mpi_version = j.at("mpi_version").get<std::string>();
    h.mpi_thread_environment = j.at("mpi_thread_environment").get<std::string>();
    h.min_bytes = j.at("min_bytes").get<std::uint64_t>();
    h.max_bytes = j.at("max_bytes").get<std::uint64_t>();
    h.benchmark_list = j.at("benchmark_list").get<std::vector<std::string>>();
    h.lengths_user_defined = header_fields::optional<bool>(j, "lengths_user_defined");
    h.check = header_fields::optional<bool>(j, "check");
    h.datatypes.reset();
    if (header_fields::has_part(j, "IMB", "datatype",
                                {"datatype", "reduction_datatype", "reduction_op"}))
        h.datatypes = imb_header_datatypes{
            .datatype = j.at("datatype").get<std::string>(),
            .reduction_datatype = j.at("reduction_datatype").get<std::string>(),
            .reduction_op = j.at("reduction_op").get<std::string>()};
    h.part.reset();
    if (const auto part = header_fields::optional<std::string>(j, "part"))
        h.part = imb_part_from_string(*part);  // none for a part of no IMB component
    h.methodology = header_fields::optional<std::string>(j, "methodology");
    h.io.reset();
    if (header_fields::has_part(j, "IMB", "IMB-IO", {"length_name", "io_directory"}))
        h.io = imb_header_io{
            .length_name = j.at("length_name").get<std::string>(),
            .io_directory = j.at("io_directory").get<std::string>(),
            .cpu_exploit_mflops = header_fields::optional<double>(j, "cpu_exploit_mflops")};
    h.overlap.reset();
    if (header_fields::has_part(j, "IMB", "imb-nbc", {"cpu_load", "async_progress"})) {
        const nlohmann::json& load = j.at("cpu_load");
        h.overlap = imb_header_overlap{
            .cpu_load_kernel = load.at("kernel").get<std::string>(),
            .cpu_load_rate_mflops = load.at("rate_mflops").get<double>(),
            .async_progress = j.at("async_progress").get<std::string>()};
    }
    h.threads = header_fields::optional<int>(j, "threads");
}

}  // namespace parbench::report
