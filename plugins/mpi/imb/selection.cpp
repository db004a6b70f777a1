#include "imb/selection.hpp"

#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/core/text.hpp>

#include <algorithm>
#include <cstdlib>

namespace parbench::imb {
namespace selection_impl {
namespace {

[[nodiscard]] bool test_kernels_enabled() {
    const char* v = std::getenv("PARBENCH_TEST_KERNELS");
    return v != nullptr && std::string_view(v) == "1";
}

struct resolved {
    std::size_t index = 0;
    bool multi_name = false;
};

[[nodiscard]] resolved resolve(std::span<const benchmark> catalogue, std::string_view suite,
                               const std::string& typed) {
    std::string_view name = typed;
    resolved r;
    constexpr std::string_view multi_prefix = "multi-";
    if (name.size() >= multi_prefix.size() &&
        same_name(name.substr(0, multi_prefix.size()), multi_prefix)) {
        name.remove_prefix(multi_prefix.size());
        r.multi_name = true;
    }
    for (std::size_t k = 0; k < catalogue.size(); ++k) {
        const auto& info = catalogue[k].info;
        if ((info.flags & PARBENCH_BENCH_TEST_ONLY) != 0 && !test_kernels_enabled()) continue;
        if (same_name(info.name, name)) {
            r.index = k;
            return r;
        }
    }
    throw input_error("unknown benchmark '" + typed + "' in suite " + std::string(suite) +
                      " (see parbench list)");
}

}  // namespace

}  // namespace selection_impl
std::vector<selected> select(std::span<const benchmark> catalogue, std::string_view suite,
                             const run_request& request, const options& o,
                             std::span<const std::string_view> default_names,
                             std::vector<std::size_t>* named_order) {
    std::vector<selected> chosen(catalogue.size());
    // IMB 2021's positional comma lists ("PingPong,Allreduce") as separate names.
    std::vector<std::string> names;
    for (const auto& typed : request.benchmarks) {
        for (auto& piece : split_commas(typed)) {
            if (piece.empty())
                throw input_error("benchmark list '" + typed + "': an empty name between commas");
            names.push_back(std::move(piece));
        }
    }
    names.insert(names.end(), o.input_names.begin(), o.input_names.end());
    if (names.empty()) {
        for (std::size_t k = 0; k < catalogue.size(); ++k)
            chosen[k].run = default_names.empty()
                                ? (catalogue[k].info.flags & PARBENCH_BENCH_DEFAULT) != 0
                                : std::find(default_names.begin(), default_names.end(),
                                            std::string_view(catalogue[k].info.name)) !=
                                      default_names.end();
    }
    names.insert(names.begin(), o.include.begin(), o.include.end());
    for (const auto& n : names) {
        const auto r = selection_impl::resolve(catalogue, suite, n);
        chosen[r.index].run = true;
        chosen[r.index].multi_name = chosen[r.index].multi_name || r.multi_name;
        if (named_order != nullptr &&
            std::find(named_order->begin(), named_order->end(), r.index) == named_order->end())
            named_order->push_back(r.index);
    }
    for (const auto& n : o.exclude)
        chosen[selection_impl::resolve(catalogue, suite, n).index].run = false;
    if (std::none_of(chosen.begin(), chosen.end(), [](const selected& s) { return s.run; }))
        throw input_error("nothing to run: -exclude removed every benchmark selected");
    return chosen;
}

std::vector<std::size_t> run_order(std::span<const benchmark> catalogue,
                                   std::span<const std::string_view> first) {
    std::vector<std::size_t> order;
    std::vector<bool> placed(catalogue.size(), false);
    for (const std::string_view name : first)
        for (std::size_t k = 0; k < catalogue.size(); ++k)
            if (!placed[k] && name == catalogue[k].info.name) {
                order.push_back(k);
                placed[k] = true;
            }
    for (std::size_t k = 0; k < catalogue.size(); ++k)
        if (!placed[k]) order.push_back(k);
    return order;
}

std::vector<std::size_t> run_order(std::span<const benchmark> catalogue,
                                   std::span<const std::size_t> first) {
    std::vector<std::size_t> order(first.begin(), first.end());
    for (std::size_t k = 0; k < catalogue.size(); ++k)
        if (std::find(first.begin(), first.end(), k) == first.end()) order.push_back(k);
    return order;
}

std::vector<std::string> listed_names(std::span<const benchmark> catalogue,
                                      const std::vector<selected>& chosen, const options& o,
                                      std::span<const std::size_t> order) {
    std::vector<std::string> listed;
    for (const std::size_t k : order) {
        if (!chosen[k].run) continue;
        const std::string name = catalogue[k].info.name;
        listed.push_back(o.multi ? "(Multi-)" + name : chosen[k].multi_name ? "Multi-" + name : name);
    }
    return listed;
}

}  // namespace parbench::imb
