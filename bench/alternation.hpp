// What the overhead benches share besides their verdict (ratio_rule.hpp): their command line
// (`[ALTERNATIONS] [--short]`) and the alternating rounds — the reference loop and parbench take
// turns going first, so that a drift of the machine (frequency, another job) hits both alike.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace bench {

struct bench_args {
    int alternations = 0;
    bool short_form = false;
};

// `[ALTERNATIONS] [--short]`, in any order; ALTERNATIONS at least 1.
[[nodiscard]] inline bench_args parse_bench_args(int argc, char** argv, int default_alternations) {
    bench_args args{default_alternations, false};
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--short") == 0)
            args.short_form = true;
        else
            args.alternations = std::max(1, std::atoi(argv[i]));
    }
    return args;
}

// The figures of every round: reference and parbench times (or rates) and their ratio.
struct alternation_figures {
    std::vector<double> reference;
    std::vector<double> parbench;
    std::vector<double> ratios;  // parbench / reference
};

// Runs `alternations` rounds of both measurements (each a callable returning a figure; both are
// collective where they time MPI, so every process calls this alike).
template <class Reference, class Parbench>
[[nodiscard]] alternation_figures alternate(int alternations, Reference&& reference,
                                            Parbench&& parbench) {
    alternation_figures out;
    for (int a = 0; a < alternations; ++a) {
        const bool reference_first = a % 2 == 0;
        const double first = reference_first ? reference() : parbench();
        const double second = reference_first ? parbench() : reference();
        const double ref = reference_first ? first : second;
        const double ours = reference_first ? second : first;
        out.reference.push_back(ref);
        out.parbench.push_back(ours);
        out.ratios.push_back(ref > 0.0 ? ours / ref : 0.0);
    }
    return out;
}

}  // namespace bench
