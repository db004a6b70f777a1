// The caf suite's figures of one row (EPCC CAF_BENCH), typed by the table the row belongs to:
// a point-to-point ping-pong's data geometry, a synchronisation's overhead, or the halo swap's
// cube and grid. The coarray plugin fills them (plugins/caf/families/), the caf console picks a
// row's table by `table` (report/caf_console.hpp), and the JSON and CSV files list them among
// the row's metrics under the keys add_named_figures() gives, the keys they always had.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace parbench {

struct caf_figures {
    enum class kind { point_to_point, synchronisation, halo };
    kind table = kind::point_to_point;

    // point_to_point (plugins/caf/point_to_point.hpp's data_geometry)
    std::int64_t count = 0;    // blocks per transfer
    std::int64_t blksize = 0;  // elements (double precision) per block
    std::int64_t stride = 0;   // distance of block starts, in blocks (1: contiguous)
    std::int64_t ndata = 0;    // elements moved: count * blksize
    std::int64_t nextent = 0;  // from the first to the last element moved

    // synchronisation: overhead = t(delay + sync) - t(delay) from the medians, and the widest
    // interval the two medians' intervals allow
    int neighbours = 0;  // image 1's
    double t_delay_sync_us = 0.0;
    double t_delay_us = 0.0;
    double overhead_us = 0.0;
    double overhead_ci_low_us = 0.0;
    double overhead_ci_high_us = 0.0;

    // halo
    int halo_size = 0;          // the local cube's edge, cells
    std::array<int, 3> grid{};  // images per dimension, x y z

    // The overhead's interval reaches zero: the console's note "within noise".
    [[nodiscard]] bool overhead_within_noise() const noexcept { return overhead_ci_low_us <= 0.0; }

    friend bool operator==(const caf_figures&, const caf_figures&) = default;
};

[[nodiscard]] constexpr std::string_view to_string(caf_figures::kind k) noexcept {
    switch (k) {
        case caf_figures::kind::synchronisation: return "synchronisation";
        case caf_figures::kind::halo: return "halo";
        case caf_figures::kind::point_to_point: break;
    }
    return "point_to_point";
}

// The figures of the row's table, as the outputs' metrics name them.
inline void add_named_figures(std::map<std::string, double>& out, const caf_figures& f) {
    switch (f.table) {
        case caf_figures::kind::point_to_point:
            out["count"] = static_cast<double>(f.count);
            out["blksize"] = static_cast<double>(f.blksize);
            out["stride"] = static_cast<double>(f.stride);
            out["ndata"] = static_cast<double>(f.ndata);
            out["nextent"] = static_cast<double>(f.nextent);
            return;
        case caf_figures::kind::synchronisation:
            out["neighbours"] = static_cast<double>(f.neighbours);
            out["t_delay_sync_us"] = f.t_delay_sync_us;
            out["t_delay_us"] = f.t_delay_us;
            out["overhead_us"] = f.overhead_us;
            out["overhead_ci_low_us"] = f.overhead_ci_low_us;
            out["overhead_ci_high_us"] = f.overhead_ci_high_us;
            out["overhead_within_noise"] = f.overhead_within_noise() ? 1.0 : 0.0;
            return;
        case caf_figures::kind::halo:
            out["halo_size"] = static_cast<double>(f.halo_size);
            out["grid_x"] = static_cast<double>(f.grid[0]);
            out["grid_y"] = static_cast<double>(f.grid[1]);
            out["grid_z"] = static_cast<double>(f.grid[2]);
            return;
    }
}

// In the event (the C ABI): {"table": KIND, and the fields of that table alone}.
inline void to_json(nlohmann::json& j, const caf_figures& f) {
    j = {{"table", std::string(to_string(f.table))}};
    switch (f.table) {
        case caf_figures::kind::point_to_point:
            j["count"] = f.count;
            j["blksize"] = f.blksize;
            j["stride"] = f.stride;
            j["ndata"] = f.ndata;
            j["nextent"] = f.nextent;
            return;
        case caf_figures::kind::synchronisation:
            j["neighbours"] = f.neighbours;
            j["t_delay_sync_us"] = f.t_delay_sync_us;
            j["t_delay_us"] = f.t_delay_us;
            j["overhead_us"] = f.overhead_us;
            j["overhead_ci_low_us"] = f.overhead_ci_low_us;
            j["overhead_ci_high_us"] = f.overhead_ci_high_us;
            return;
        case caf_figures::kind::halo:
            j["halo_size"] = f.halo_size;
            j["grid"] = f.grid;
            return;
    }
}

// A table this parbench does not know, or a field of the table missing, is refused.
inline void from_json(const nlohmann::json& j, caf_figures& f) {
    const std::string table = j.at("table").get<std::string>();
    if (table == "point_to_point") {
        f.table = caf_figures::kind::point_to_point;
        f.count = j.at("count").get<std::int64_t>();
        f.blksize = j.at("blksize").get<std::int64_t>();
        f.stride = j.at("stride").get<std::int64_t>();
        f.ndata = j.at("ndata").get<std::int64_t>();
        f.nextent = j.at("nextent").get<std::int64_t>();
    } else if (table == "synchronisation") {
        f.table = caf_figures::kind::synchronisation;
        f.neighbours = j.at("neighbours").get<int>();
        f.t_delay_sync_us = j.at("t_delay_sync_us").get<double>();
        f.t_delay_us = j.at("t_delay_us").get<double>();
        f.overhead_us = j.at("overhead_us").get<double>();
        f.overhead_ci_low_us = j.at("overhead_ci_low_us").get<double>();
        f.overhead_ci_high_us = j.at("overhead_ci_high_us").get<double>();
    } else if (table == "halo") {
        f.table = caf_figures::kind::halo;
        f.halo_size = j.at("halo_size").get<int>();
        f.grid = j.at("grid").get<std::array<int, 3>>();
    } else {
        throw std::invalid_argument("caf figures: unknown table '" + table +
                                    "' (known: point_to_point, synchronisation, halo)");
    }
}

}  // namespace parbench
