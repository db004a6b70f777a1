// The overlap of communication and computation, as IMB-NBC and IMB-IO's nonblocking benchmarks
// report it (catalogue A.3.4, A.6.10-11):
//
//   t_pure    the nonblocking operation and its wait, nothing else
//   t_CPU     the calibrated CPU work alone
//   t_ovrl    operation started, the same work, then the wait
//
//   overlap[%] = 100 · max(0, min(1, (t_pure + t_CPU − t_ovrl) / min(t_pure, t_CPU)))
//
// 100 % when t_ovrl = max(t_pure, t_CPU) (the shorter of the two hides entirely behind the
// longer), 0 % when t_ovrl ≥ t_pure + t_CPU (nothing hidden). Without work or without
// communication (min(t_pure, t_CPU) = 0) there is nothing to hide: 0 %, never a division by
// zero. MPI-free.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace parbench {

[[nodiscard]] inline double overlap_percent(double t_ovrl, double t_pure, double t_cpu) noexcept {
    const double shorter = std::min(t_pure, t_cpu);
    if (!(shorter > 0.0) || !std::isfinite(t_ovrl) || !std::isfinite(t_pure + t_cpu)) return 0.0;
    const double hidden = (t_pure + t_cpu - t_ovrl) / shorter;
    return 100.0 * std::clamp(hidden, 0.0, 1.0);
}

// The typed overlap figures of one record, µs per iteration, all from one process (IMB-NBC: the
// process with the largest t_ovrl).
struct overlap_figures {
    double t_ovrl_us = 0.0;
    double t_pure_us = 0.0;
    double t_cpu_us = 0.0;
    double overlap_percent = 0.0;

    friend bool operator==(const overlap_figures&, const overlap_figures&) = default;
};

// The figures with overlap[%] computed from the three times.
[[nodiscard]] inline overlap_figures make_overlap_figures(double t_ovrl_us, double t_pure_us,
                                                          double t_cpu_us) noexcept {
    return {t_ovrl_us, t_pure_us, t_cpu_us, overlap_percent(t_ovrl_us, t_pure_us, t_cpu_us)};
}

inline void to_json(nlohmann::json& j, const overlap_figures& o) {
    j = {{"t_ovrl_us", o.t_ovrl_us},
         {"t_pure_us", o.t_pure_us},
         {"t_cpu_us", o.t_cpu_us},
         {"overlap_percent", o.overlap_percent}};
}

inline void from_json(const nlohmann::json& j, overlap_figures& o) {
    o.t_ovrl_us = j.at("t_ovrl_us").get<double>();
    o.t_pure_us = j.at("t_pure_us").get<double>();
    o.t_cpu_us = j.at("t_cpu_us").get<double>();
    o.overlap_percent = j.at("overlap_percent").get<double>();
}

}  // namespace parbench
