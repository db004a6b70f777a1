// The overlap suite's options (catalogue B.4), as `-key value` on the command line or `key=value`
// lines of an options file (overlap/options_file.hpp); the command line wins. Each value is
// validated with one line naming where it came from ("-iterations x" or "options.ini:3:
// iterations=x"); a key the suite does not have is an error in either place.
//
//   -method      allreduce | barrier | broadcast | gather | allgather | scatter   (allreduce)
//   -allMethods  0 | 1: every method                                               (0)
//   -iterations  timed iterations per timing, capped by -time                      (10000)
//   -startSize   first communicator size, doubled after each run, then the whole   (all processes)
//   -verbose     0 | 1: print the work-time ramp under each row                    (0)
//   -threshold   work dominates once work_t >= threshold · overhead                (2)
//   -nohdr       0 | 1: no header                                                  (0)
//   -count       MPI_DOUBLEs per process and message (parbench's; the seed has none) (1)
//   -time        seconds one timing may take at most (parbench's runner cap)        (1)
//   -optionsFile the options file                                 (options.ini, when present)
#pragma once

#include "overlap/options_file.hpp"

#include <parbench/plugin/abi.h>
#include <parbench/plugin/request.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::overlap {

enum class method { allreduce, barrier, broadcast, gather, allgather, scatter };
enum class variant { blocking, nb_wait, nb_sleep, nb_active };

inline constexpr method all_methods[] = {method::allreduce, method::barrier,   method::broadcast,
                                         method::gather,    method::allgather, method::scatter};
inline constexpr variant all_variants[] = {variant::blocking, variant::nb_wait, variant::nb_sleep,
                                           variant::nb_active};

[[nodiscard]] std::string_view to_string(method m) noexcept;
[[nodiscard]] std::string_view to_string(variant v) noexcept;  // "Blocking", "NB_Wait", ...
[[nodiscard]] std::optional<method> method_named(std::string_view name) noexcept;

inline constexpr const char* default_options_file = "options.ini";

struct options {
    std::vector<method> methods{method::allreduce};
    std::uint64_t iterations = 10000;
    std::optional<int> start_size;  // none: the whole communicator only
    bool verbose = false;
    double threshold = 2.0;
    bool header = true;
    std::uint64_t count = 1;
    double time_s = 1.0;
    std::string file;  // the options file read, "" when none
};

// The file the run reads: -optionsFile's, else options.ini when it exists in the working
// directory; none otherwise.
[[nodiscard]] std::optional<std::string> options_file_path(const run_request& request);

// Validates the file's settings (read from `file_name`), then the request's options over them,
// and the positional method names (they replace -method). `world` bounds -startSize.
[[nodiscard]] options parse_options(const run_request& request,
                                    const std::vector<file_setting>& file,
                                    const std::string& file_name, int world);

// The parameter rows of the overlap suite (plugin/abi.h).
[[nodiscard]] std::span<const parbench_parameter> parameters() noexcept;

}  // namespace parbench::overlap
