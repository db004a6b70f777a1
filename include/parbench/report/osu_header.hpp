// The OSU console layout's run header ("osu"): one struct that the osu suite fills
// (plugins/mpi/osu/suite.cpp) and the OSU console prints (report/osu_console.hpp), so every field
// the one writes is one the other reads. It travels as run_start.header, and the JSON file keeps
// it under context.parbench.header with the same keys and values as before it was typed.
//
// The header is the OSU release the layout follows and one block per benchmark: the '#' lines
// OSU prints around that benchmark's banner. A benchmark without a block is printed with its
// name as banner and OSU's default datatype line. In a block, the banner is required; a part that
// only some benchmarks have (the one-sided tests' window lines, -V's matrix) is std::optional and
// whole or absent: half a part is refused. Fields a block leaves out take OSU's defaults (the
// MPI_CHAR datatype line, no empty line before the banner, no further lines).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace parbench::report {

// The one-sided tests' two lines after the banner (osu_put_latency ... osu_get_acc_latency).
struct osu_header_window {
    std::string creation;         // "# Window creation: MPI_Win_allocate"
    std::string synchronization;  // "# Synchronization: MPI_Win_flush"

    friend bool operator==(const osu_header_window&, const osu_header_window&) = default;
};

// osu_mbw_mr -V: a matrix of MB/s by size and window instead of columns (osu_mbw_mr.c:244-325).
struct osu_header_window_matrix {
    std::vector<std::uint64_t> windows{};  // the heading's windows, in the records' order
    bool rate_profile = true;              // "# Message Rate Profile" after each datatype's rows

    friend bool operator==(const osu_header_window_matrix&,
                           const osu_header_window_matrix&) = default;
};

// One benchmark's lines, in the order the console prints them (report/osu_console.hpp).
struct osu_header_block {
    std::vector<std::string> lines_before{};    // '#' lines before the banner (latency_mt, _mp)
    bool empty_line_before = false;             // OSU's print_preamble starts with an empty line
    std::string banner;                         // "OSU MPI Latency Test" (" v7.5": the version's)
    std::optional<osu_header_window> window{};  // the one-sided tests
    std::vector<std::string> lines{};           // further '#' lines after it ("": an empty line)
    // The datatype line's type until a record names its own (-T); none: no datatype line at all
    // (osu_barrier).
    std::optional<std::string> datatype = "MPI_CHAR";
    // '#' lines after the datatype line, before the heading of each of its tables (the
    // one-sided tests' buffer placement under -d: "# Rank 0 Memory on DEVICE (D) and ...")
    std::vector<std::string> lines_after_datatype{};
    // OSU's start-up programs: each record one line, these pieces of text with the declared
    // columns between them; such a block has no datatype line and no heading.
    std::vector<std::string> row_text{};
    std::optional<osu_header_window_matrix> window_matrix{};  // osu_mbw_mr -V

    friend bool operator==(const osu_header_block&, const osu_header_block&) = default;
};

struct osu_header {
    std::string osu_version;                           // "7.5": the banners' " v7.5"
    std::map<std::string, osu_header_block> blocks{};  // benchmark name -> its lines

    // The block of `benchmark`, or the one a benchmark without a block is printed with.
    [[nodiscard]] osu_header_block block_of(const std::string& benchmark) const {
        if (const auto it = blocks.find(benchmark); it != blocks.end()) return it->second;
        return osu_header_block{.banner = benchmark};
    }

    friend bool operator==(const osu_header&, const osu_header&) = default;
};

// Keys as the plugin wrote them before the header was typed: "banner", "datatype" (null: none)
// and "empty_line_before" always; the lists only when they have lines; a part's keys only when
// it is there.
inline void to_json(nlohmann::json& j, const osu_header_block& b) {
    j = {{"banner", b.banner},
         {"datatype", b.datatype ? nlohmann::json(*b.datatype) : nlohmann::json(nullptr)},
         {"empty_line_before", b.empty_line_before}};
    if (!b.lines_before.empty()) j["lines_before"] = b.lines_before;
    if (!b.lines.empty()) j["lines"] = b.lines;
    if (!b.lines_after_datatype.empty()) j["lines_after_datatype"] = b.lines_after_datatype;
    if (!b.row_text.empty()) j["row_text"] = b.row_text;
    if (b.window) {
        j["window_creation"] = b.window->creation;
        j["synchronization"] = b.window->synchronization;
    }
    if (b.window_matrix)
        j["window_matrix"] = {{"windows", b.window_matrix->windows},
                              {"rate_profile", b.window_matrix->rate_profile}};
}

// The banner is required; the rest takes the defaults above where it is left out. The window
// part needs both of its keys, the matrix both of its fields.
inline void from_json(const nlohmann::json& j, osu_header_block& b) {
    b = osu_header_block{};
    b.banner = j.at("banner").get<std::string>();
    b.empty_line_before = j.value("empty_line_before", false);
    b.lines_before = j.value("lines_before", std::vector<std::string>{});
    b.lines = j.value("lines", std::vector<std::string>{});
    b.lines_after_datatype = j.value("lines_after_datatype", std::vector<std::string>{});
    b.row_text = j.value("row_text", std::vector<std::string>{});
    if (j.contains("datatype"))
        b.datatype = j.at("datatype").is_null()
                         ? std::nullopt
                         : std::optional<std::string>(j.at("datatype").get<std::string>());
    const bool creation = j.contains("window_creation");
    if (creation != j.contains("synchronization"))
        throw std::invalid_argument(
            "OSU run header: block '" + b.banner +
            "': the one-sided part needs both window_creation and synchronization");
    if (creation)
        b.window = osu_header_window{
            .creation = j.at("window_creation").get<std::string>(),
            .synchronization = j.at("synchronization").get<std::string>()};
    if (j.contains("window_matrix")) {
        const nlohmann::json& matrix = j.at("window_matrix");
        b.window_matrix = osu_header_window_matrix{
            .windows = matrix.at("windows").get<std::vector<std::uint64_t>>(),
            .rate_profile = matrix.at("rate_profile").get<bool>()};
    }
}

inline void to_json(nlohmann::json& j, const osu_header& h) {
    j = {{"osu_version", h.osu_version}, {"blocks", h.blocks}};
}

// Both fields are required (nlohmann's out_of_range names the key), each block as above.
inline void from_json(const nlohmann::json& j, osu_header& h) {
    h.osu_version = j.at("osu_version").get<std::string>();
    h.blocks = j.at("blocks").get<std::map<std::string, osu_header_block>>();
}

}  // namespace parbench::report
