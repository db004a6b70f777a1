// Which benchmarks of a suite's catalogue one run measures, as IMB chooses them: the names given
// (positional and -input; a Multi- prefix selects multiple mode), else the suite's defaults, then
// -include and -exclude. Test-only benchmarks answer only when PARBENCH_TEST_KERNELS=1.
#pragma once

#include "imb/driver.hpp"
#include "imb/options.hpp"

#include <parbench/plugin/request.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::imb {

struct selected {
    bool run = false;
    bool multi_name = false;  // asked for as Multi-NAME
};

// One entry per catalogue entry. Throws input_error for an unknown name, or when -exclude leaves
// nothing to run.
[[nodiscard]] std::vector<selected> select(std::span<const benchmark> catalogue,
                                           std::string_view suite, const run_request& request,
                                           const options& o);

// The names as the run header lists them: "Multi-PingPong", "(Multi-)PingPong" under -multi.
[[nodiscard]] std::vector<std::string> listed_names(std::span<const benchmark> catalogue,
                                                    const std::vector<selected>& chosen,
                                                    const options& o);

}  // namespace parbench::imb
