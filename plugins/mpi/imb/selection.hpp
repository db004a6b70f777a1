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
// nothing to run. `default_names`, when not empty, is the default set in place of the
// catalogue's PARBENCH_BENCH_DEFAULT flags (IMB-IO under IMB 2021: suite_spec::imb2021_list).
// `named_order`, when given, receives the catalogue indices of the names the user gave, each
// once, in IMB 2021's order: -include's names, then the positional ones, then -input's
// (src_cpp/imb.cpp:157-176 collects positional then -input names, :224-232 puts -include's
// first; the vectors keep their order, utils.h:42-44).
[[nodiscard]] std::vector<selected> select(std::span<const benchmark> catalogue,
                                           std::string_view suite, const run_request& request,
                                           const options& o,
                                           std::span<const std::string_view> default_names = {},
                                           std::vector<std::size_t>* named_order = nullptr);

// The order the catalogue's entries run in: the entries of `first` in their order, then the
// others in catalogue order.
[[nodiscard]] std::vector<std::size_t> run_order(std::span<const benchmark> catalogue,
                                                 std::span<const std::size_t> first);

// The order the catalogue's entries run in: the names of `first` in their order, then the others
// in catalogue order (`first` empty: catalogue order).
[[nodiscard]] std::vector<std::size_t> run_order(std::span<const benchmark> catalogue,
                                                 std::span<const std::string_view> first);

// The names as the run header lists them, in run order: "Multi-PingPong", "(Multi-)PingPong"
// under -multi.
[[nodiscard]] std::vector<std::string> listed_names(std::span<const benchmark> catalogue,
                                                    const std::vector<selected>& chosen,
                                                    const options& o,
                                                    std::span<const std::size_t> order);

}  // namespace parbench::imb
