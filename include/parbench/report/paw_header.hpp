// The PAW console layout's run header ("paw"): one struct that every PAW component fills (the
// BLAS plugin, plugins/blas/suite.cpp; the MPI plugin's paw suite, plugins/mpi/suites/paw.cpp;
// the GPU and offload transfer plugins, plugins/cuda/cuda_plugin.cpp and
// plugins/offload/offload_plugin.cpp, through plugin/paw_transfer_settings.hpp's transfer_header)
// and the PAW console prints (report/paw.hpp), so every field the one writes is one the other
// reads. It travels as run_start.header, and the JSON file keeps it under
// context.parbench.header with the same keys and values as before it was typed.
//
// The components say different things, and the console renders what is there (a field it prints
// and the header lacks shows as "unknown"), so every field is optional and, when absent, leaves no
// key in the JSON. A part is whole or absent: half a part is refused.
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

// The size progression's bounds (BLAS: matrix orders; transfers: bytes); the GPU plugin has none.
struct paw_header_size_range {
    std::uint64_t min_size = 0;
    std::uint64_t med_size = 0;  // the warm-up size
    std::uint64_t max_size = 0;

    friend bool operator==(const paw_header_size_range&, const paw_header_size_range&) = default;
};

// PAW's NLOOP/NREPS settings (policy/paw_nloop.hpp) and the timer threshold they calibrate
// against: the console's "timer threshold" and "loops" lines.
struct paw_header_loops {
    std::uint64_t nreps = 0;
    std::uint64_t nloop_max = 0;
    std::uint64_t nloop_min = 0;
    double threshold_factor = 0.0;
    double timer_threshold_s = 0.0;
    double budget_s = 0.0;

    friend bool operator==(const paw_header_loops&, const paw_header_loops&) = default;
};

// The MPI paw suite's collectives, where point-to-point tests run beside them (the header's
// sizes are then the point-to-point ones).
struct paw_header_collectives {
    std::vector<std::uint64_t> col_sizes{};
    std::uint64_t col_med_size = 0;

    friend bool operator==(const paw_header_collectives&,
                           const paw_header_collectives&) = default;
};

// The offload plugin's devices: the one every test runs on, those run on at once, their kind.
struct paw_header_offload {
    int device = 0;
    std::vector<int> concurrent_devices{};
    std::string device_kind;

    friend bool operator==(const paw_header_offload&, const paw_header_offload&) = default;
};

struct paw_header {
    std::optional<std::string> family{};  // "blas", "gpu", "offload", "mpi"
    // Which kinds of rows follow: "blas", "gemm", "transfer", "message_rate", "collective";
    // none: BLAS rows (the BLAS plugin names none).
    std::optional<std::vector<std::string>> row_kinds{};
    std::optional<std::vector<std::uint64_t>> sizes{};
    std::optional<paw_header_size_range> size_range{};
    std::optional<std::vector<int>> threads{};  // BLAS: one sweep per thread count
    std::optional<paw_header_loops> loops{};
    std::optional<std::string> size_meaning{};    // "bytes per message"
    std::optional<std::string> flop_count{};      // BLAS and GEMM rows: PAW's and the usual count
    std::optional<std::string> bandwidth_unit{};  // transfer rows: "GB/s = 10^9 bytes/s"
    std::optional<std::vector<std::uint64_t>> gemm_sizes{};  // GPU: the GEMMs' matrix orders
    std::optional<std::vector<int>> devices{};               // GPU: the devices used
    std::optional<paw_header_offload> offload{};
    std::optional<paw_header_collectives> collectives{};
    std::optional<int> window_size{};      // MPI p2p_mrate*: messages per window and pair
    std::optional<std::string> pairing{};  // MPI: "task i <-> task i + n/2"
    std::optional<std::string> method{};   // the timing method (GPU, MPI)

    // The row kinds, BLAS's where none are named.
    [[nodiscard]] std::vector<std::string> kinds() const {
        return row_kinds.value_or(std::vector<std::string>{"blas"});
    }

    friend bool operator==(const paw_header&, const paw_header&) = default;
};

inline void to_json(nlohmann::json& j, const paw_header& h) {
    j = nlohmann::json::object();
    header_fields::put(j, "family", h.family);
    header_fields::put(j, "row_kinds", h.row_kinds);
    header_fields::put(j, "sizes", h.sizes);
    if (h.size_range) {
        j["min_size"] = h.size_range->min_size;
        j["med_size"] = h.size_range->med_size;
        j["max_size"] = h.size_range->max_size;
    }
    header_fields::put(j, "threads", h.threads);
    if (h.loops) {
        j["nreps"] = h.loops->nreps;
        j["nloop_max"] = h.loops->nloop_max;
        j["nloop_min"] = h.loops->nloop_min;
        j["threshold_factor"] = h.loops->threshold_factor;
        j["timer_threshold_s"] = h.loops->timer_threshold_s;
        j["budget_s"] = h.loops->budget_s;
    }
    header_fields::put(j, "size_meaning", h.size_meaning);
    header_fields::put(j, "flop_count", h.flop_count);
    header_fields::put(j, "bandwidth_unit", h.bandwidth_unit);
    header_fields::put(j, "gemm_sizes", h.gemm_sizes);
    header_fields::put(j, "devices", h.devices);
    if (h.offload) {
        j["device"] = h.offload->device;
        j["concurrent_devices"] = h.offload->concurrent_devices;
        j["device_kind"] = h.offload->device_kind;
    }
    if (h.collectives) {
        j["col_sizes"] = h.collectives->col_sizes;
        j["col_med_size"] = h.collectives->col_med_size;
    }
    header_fields::put(j, "window_size", h.window_size);
    header_fields::put(j, "pairing", h.pairing);
    header_fields::put(j, "method", h.method);
}

// Each field where present, each part whole; keys of no field are ignored.
inline void from_json(const nlohmann::json& j, paw_header& h) {
    h = paw_header{};
    h.family = header_fields::optional<std::string>(j, "family");
    h.row_kinds = header_fields::optional<std::vector<std::string>>(j, "row_kinds");
    h.sizes = header_fields::optional<std::vector<std::uint64_t>>(j, "sizes");
    if (header_fields::has_part(j, "PAW", "size range", {"min_size", "med_size", "max_size"}))
        h.size_range = paw_header_size_range{.min_size = j.at("min_size").get<std::uint64_t>(),
                                             .med_size = j.at("med_size").get<std::uint64_t>(),
                                             .max_size = j.at("max_size").get<std::uint64_t>()};
    h.threads = header_fields::optional<std::vector<int>>(j, "threads");
    if (header_fields::has_part(j, "PAW", "loops",
                                {"nreps", "nloop_max", "nloop_min", "threshold_factor",
                                 "timer_threshold_s", "budget_s"}))
        h.loops = paw_header_loops{
            .nreps = j.at("nreps").get<std::uint64_t>(),
            .nloop_max = j.at("nloop_max").get<std::uint64_t>(),
            .nloop_min = j.at("nloop_min").get<std::uint64_t>(),
            .threshold_factor = j.at("threshold_factor").get<double>(),
            .timer_threshold_s = j.at("timer_threshold_s").get<double>(),
            .budget_s = j.at("budget_s").get<double>()};
    h.size_meaning = header_fields::optional<std::string>(j, "size_meaning");
    h.flop_count = header_fields::optional<std::string>(j, "flop_count");
    h.bandwidth_unit = header_fields::optional<std::string>(j, "bandwidth_unit");
    h.gemm_sizes = header_fields::optional<std::vector<std::uint64_t>>(j, "gemm_sizes");
    h.devices = header_fields::optional<std::vector<int>>(j, "devices");
    if (header_fields::has_part(j, "PAW", "offload",
                                {"device", "concurrent_devices", "device_kind"}))
        h.offload = paw_header_offload{
            .device = j.at("device").get<int>(),
            .concurrent_devices = j.at("concurrent_devices").get<std::vector<int>>(),
            .device_kind = j.at("device_kind").get<std::string>()};
    if (header_fields::has_part(j, "PAW", "collectives", {"col_sizes", "col_med_size"}))
        h.collectives = paw_header_collectives{
            .col_sizes = j.at("col_sizes").get<std::vector<std::uint64_t>>(),
            .col_med_size = j.at("col_med_size").get<std::uint64_t>()};
    h.window_size = header_fields::optional<int>(j, "window_size");
    h.pairing = header_fields::optional<std::string>(j, "pairing");
    h.method = header_fields::optional<std::string>(j, "method");
}

}  // namespace parbench::report
