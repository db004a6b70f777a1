// The options of the imb-* suites as the plugin ABI declares them (parbench help, the driver's
// parser), with each suite's defaults for -iter, -time and -msglog in the help text.
#pragma once

#include "imb/options.hpp"

#include <parbench/plugin/abi.h>

#include <span>
#include <string>
#include <vector>

namespace parbench::imb {

// Owns the default texts its entries point to: neither copied nor moved.
class parameter_table {
public:
    explicit parameter_table(const suite_defaults& defaults);
    parameter_table(const parameter_table&) = delete;
    parameter_table& operator=(const parameter_table&) = delete;

    [[nodiscard]] std::span<const parbench_parameter> entries() const noexcept { return entries_; }

private:
    std::string iter_default_;
    std::string time_default_;
    std::string msglog_default_;
    std::string npmin_default_;
    const char* methodology_default_;
    std::vector<parbench_parameter> entries_;
};

}  // namespace parbench::imb
