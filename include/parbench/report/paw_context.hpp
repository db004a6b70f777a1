// The PAW console layout's typed run context: what the PAW console (report/paw.hpp) prints or
// obeys of a PAW component's run_start.context, filled by the components (the BLAS plugin,
// plugins/blas/suite.cpp; the MPI plugin's paw suite, plugins/mpi/suites/paw.cpp; the GPU and
// offload transfer plugins, plugins/cuda/cuda_plugin.cpp and plugins/offload/offload_plugin.cpp)
// and read back once, so that the console looks no key of the context up by its name.
//
// A context records more than the console prints (the environment, the options, CUDA's device
// properties): those keys stay the component's own JSON, written beside the typed ones (at the
// top level by the component, after it assigned this struct; inside a part, as the part's
// `recorded` object), and the console never reads them. The keys and values are those the JSON
// file has always had.
//
// The components say different things (only the BLAS plugin knows OpenBLAS, the CPU and its peak;
// only the GPU plugin lists devices), so every part is optional: the console prints the lines of
// the parts there, "unknown" for the processes where none are recorded. A part is whole or
// absent: half of one is refused.
#pragma once

#include <parbench/report/header_fields.hpp>
#include <parbench/report/stability.hpp>

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace parbench::report {

// "openblas": the console's "BLAS" and "BLAS core" lines.
struct paw_context_blas_library {
    std::string config;    // openblas_get_config()
    std::string corename;  // openblas_get_corename()
    int num_threads = 0;   // OpenBLAS's own thread count at start
    nlohmann::json recorded = nlohmann::json::object();  // further keys: the JSON file's only

    friend bool operator==(const paw_context_blas_library&,
                           const paw_context_blas_library&) = default;
};

// "cpu": the console's "CPU" and "vector flags" lines.
struct paw_context_cpu {
    std::string model_name;
    int physical_cores = 0;
    std::optional<double> clock_mhz{};  // none: "unknown" (JSON too)
    std::string vector_flags;
    nlohmann::json recorded = nlohmann::json::object();

    friend bool operator==(const paw_context_cpu&, const paw_context_cpu&) = default;
};

// "peak": the console's "theoretical peak" line.
struct paw_context_peak {
    std::optional<double> dp_gflops{};  // none: "unknown" (JSON too)
    std::optional<double> sp_gflops{};
    std::string basis;  // how the peak was found, or why it is unknown
    nlohmann::json recorded = nlohmann::json::object();

    friend bool operator==(const paw_context_peak&, const paw_context_peak&) = default;
};

// One of "devices": a console line "device <id>: <summary>".
struct paw_context_device {
    int id = 0;
    std::string summary;
    nlohmann::json recorded = nlohmann::json::object();  // the plugin's further properties

    friend bool operator==(const paw_context_device&, const paw_context_device&) = default;
};

struct paw_context {
    std::optional<int> processes{};  // the console's "processes" line; none: "unknown"
    // timer_resolution_s and timer_overhead_s: the clock's limits, which the rows' stability
    // verdicts obey (report/stability.hpp); none: no limit.
    std::optional<timer_limits> timer{};
    std::optional<paw_context_blas_library> openblas{};
    std::optional<paw_context_cpu> cpu{};
    std::optional<paw_context_peak> peak{};
    std::optional<std::vector<paw_context_device>> devices{};

    friend bool operator==(const paw_context&, const paw_context&) = default;
};

namespace detail {

inline constexpr const char* paw_context_owner = "PAW run context";

// A figure the machine may not know: a number, or "unknown" (null read as unknown too).
inline nlohmann::json paw_context_figure(const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json("unknown");
}
inline std::optional<double> paw_context_figure(const nlohmann::json& j, const char* key) {
    const nlohmann::json& v = j.at(key);
    if (v.is_number()) return v.get<double>();
    if (v.is_null() || v == "unknown") return std::nullopt;
    throw std::invalid_argument(std::string(paw_context_owner) + ": " + key +
                                " must be a number or \"unknown\"");
}

// A part's keys other than its typed ones.
inline nlohmann::json paw_context_recorded(const nlohmann::json& part,
                                           std::initializer_list<const char*> typed) {
    nlohmann::json rest = nlohmann::json::object();
    for (const auto& [key, value] : part.items()) {
        bool is_typed = false;
        for (const char* t : typed) is_typed = is_typed || key == t;
        if (!is_typed) rest[key] = value;
    }
    return rest;
}

inline constexpr std::initializer_list<const char*> paw_blas_library_keys = {"config", "corename",
                                                                              "num_threads"};
inline constexpr std::initializer_list<const char*> paw_cpu_keys = {
    "model_name", "physical_cores", "clock_mhz", "vector_flags"};
inline constexpr std::initializer_list<const char*> paw_peak_keys = {"dp_gflops", "sp_gflops",
                                                                      "basis"};
inline constexpr std::initializer_list<const char*> paw_device_keys = {"id", "summary"};

}  // namespace detail

// A part: its recorded keys, then its typed ones.
inline void to_json(nlohmann::json& j, const paw_context_blas_library& b) {
    j = b.recorded.is_object() ? b.recorded : nlohmann::json::object();
    j["config"] = b.config;
    j["corename"] = b.corename;
    j["num_threads"] = b.num_threads;
}
inline void from_json(const nlohmann::json& j, paw_context_blas_library& b) {
    header_fields::require_whole_part(j, detail::paw_context_owner, "openblas",
                                      detail::paw_blas_library_keys);
    b.config = j.at("config").get<std::string>();
    b.corename = j.at("corename").get<std::string>();
    b.num_threads = j.at("num_threads").get<int>();
    b.recorded = detail::paw_context_recorded(j, detail::paw_blas_library_keys);
}

inline void to_json(nlohmann::json& j, const paw_context_cpu& c) {
    j = c.recorded.is_object() ? c.recorded : nlohmann::json::object();
    j["model_name"] = c.model_name;
    j["physical_cores"] = c.physical_cores;
    j["clock_mhz"] = detail::paw_context_figure(c.clock_mhz);
    j["vector_flags"] = c.vector_flags;
}
inline void from_json(const nlohmann::json& j, paw_context_cpu& c) {
    header_fields::require_whole_part(j, detail::paw_context_owner, "cpu", detail::paw_cpu_keys);
    c.model_name = j.at("model_name").get<std::string>();
    c.physical_cores = j.at("physical_cores").get<int>();
    c.clock_mhz = detail::paw_context_figure(j, "clock_mhz");
    c.vector_flags = j.at("vector_flags").get<std::string>();
    c.recorded = detail::paw_context_recorded(j, detail::paw_cpu_keys);
}

inline void to_json(nlohmann::json& j, const paw_context_peak& p) {
    j = p.recorded.is_object() ? p.recorded : nlohmann::json::object();
    j["dp_gflops"] = detail::paw_context_figure(p.dp_gflops);
    j["sp_gflops"] = detail::paw_context_figure(p.sp_gflops);
    j["basis"] = p.basis;
}
inline void from_json(const nlohmann::json& j, paw_context_peak& p) {
    header_fields::require_whole_part(j, detail::paw_context_owner, "peak", detail::paw_peak_keys);
    p.dp_gflops = detail::paw_context_figure(j, "dp_gflops");
    p.sp_gflops = detail::paw_context_figure(j, "sp_gflops");
    p.basis = j.at("basis").get<std::string>();
    p.recorded = detail::paw_context_recorded(j, detail::paw_peak_keys);
}

inline void to_json(nlohmann::json& j, const paw_context_device& d) {
    j = d.recorded.is_object() ? d.recorded : nlohmann::json::object();
    j["id"] = d.id;
    j["summary"] = d.summary;
}
inline void from_json(const nlohmann::json& j, paw_context_device& d) {
    header_fields::require_whole_part(j, detail::paw_context_owner, "device",
                                      detail::paw_device_keys);
    d.id = j.at("id").get<int>();
    d.summary = j.at("summary").get<std::string>();
    d.recorded = detail::paw_context_recorded(j, detail::paw_device_keys);
}

// The typed keys only; a component adds its others after assigning the result.
inline void to_json(nlohmann::json& j, const paw_context& c) {
    j = nlohmann::json::object();
    header_fields::put(j, "processes", c.processes);
    if (c.timer) {
        j["timer_resolution_s"] = c.timer->resolution_s;
        j["timer_overhead_s"] = c.timer->overhead_s;
    }
    header_fields::put(j, "openblas", c.openblas);
    header_fields::put(j, "cpu", c.cpu);
    header_fields::put(j, "peak", c.peak);
    header_fields::put(j, "devices", c.devices);
}

// Each part where present, each whole; keys of no part are ignored (and a context that is no
// object, as a test's run_start leaves it, reads as one of no parts).
inline void from_json(const nlohmann::json& j, paw_context& c) {
    c = paw_context{};
    c.processes = header_fields::optional<int>(j, "processes");
    if (header_fields::has_part_of(j, detail::paw_context_owner, "timer",
                                   {"timer_resolution_s", "timer_overhead_s"}))
        c.timer = timer_limits{.resolution_s = j.at("timer_resolution_s").get<double>(),
                               .overhead_s = j.at("timer_overhead_s").get<double>()};
    c.openblas = header_fields::optional<paw_context_blas_library>(j, "openblas");
    c.cpu = header_fields::optional<paw_context_cpu>(j, "cpu");
    c.peak = header_fields::optional<paw_context_peak>(j, "peak");
    c.devices = header_fields::optional<std::vector<paw_context_device>>(j, "devices");
}

}  // namespace parbench::report
