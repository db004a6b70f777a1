#include "imb/parameters.hpp"

#include <fmt/format.h>

namespace parbench::imb {

namespace {

// IMB-IO's defaults are the methodology's (imb::methodology::io_*): "2021's (4.0: the guide's)".
[[nodiscard]] std::string io_default(const suite_defaults& defaults, std::string plain,
                                     std::string (*of)(const methodology&)) {
    if (!defaults.io_files) return plain;
    const methodology imb2021{.name = methodology_name::imb2021};
    const methodology imb40{.name = methodology_name::imb40};
    return of(imb2021) + " (4.0: " + of(imb40) + ")";
}

}  // namespace

parameter_table::parameter_table(const suite_defaults& defaults)
    : iter_default_(io_default(defaults,
                               fmt::format("{},{},{}", defaults.iterations.msgs_per_sample,
                                           defaults.iterations.overall_vol_bytes >> 20,
                                           defaults.iterations.msgs_nonaggr),
                               [](const methodology& m) {
                                   return fmt::format("{},{},{}", m.io_msgs_per_sample(),
                                                      m.io_overall_vol_bytes() >> 20,
                                                      m.io_msgs_nonaggr());
                               })),
      time_default_(fmt::format("{:g}", defaults.iterations.secs_per_sample)),
      msglog_default_(io_default(
          defaults, fmt::format("{}:{}", defaults.msglog.min_log, defaults.msglog.max_log),
          [](const methodology& m) { return fmt::format("0:{}", m.io_max_msglog()); })),
      npmin_default_(io_default(defaults, "2",
                                [](const methodology& m) { return std::to_string(m.io_npmin()); })),
      methodology_default_(defaults.methodology_2021 ? "2021" : "4.0") {
    entries_ = {
        {"npmin", "P_MIN", "smallest number of active processes (then doubled up to P)",
         npmin_default_.c_str(), PARBENCH_ARITY_ONE},
        {"multi", "0|1", "multiple mode: 0 reports the worst group, 1 every group", nullptr,
         PARBENCH_ARITY_ONE},
        {"map", "PxQ", "renumber processes along the rows of a P x Q matrix", nullptr,
         PARBENCH_ARITY_ONE},
        {"off_cache", "CACHE_MB[,LINE_BYTES]|-1", "rotate message buffers to avoid cache reuse",
         nullptr, PARBENCH_ARITY_ONE},
        {"iter", "MSGS[,VOL_MB[,MSGS_NONAGGR]][,POLICY]", "repetition limits (IMB -iter)",
         iter_default_.c_str(), PARBENCH_ARITY_ONE},
        {"iter_policy", "dynamic|multiple_np|auto|off", "how repetitions are cut to fit -time",
         "dynamic", PARBENCH_ARITY_ONE},
        {"time", "SECONDS", "maximum run time per message size", time_default_.c_str(),
         PARBENCH_ARITY_ONE},
        {"mem", "GB", "maximum message buffer memory per process",
         "80% of physical memory / processes per node", PARBENCH_ARITY_ONE},
        {"msglog", "[MIN:]MAX", "message sizes 0, 2^MIN ... 2^MAX", msglog_default_.c_str(),
         PARBENCH_ARITY_ONE},
        {"msglen", "FILE", "file with one message length per line", nullptr, PARBENCH_ARITY_ONE},
        {"input", "FILE", "file with one benchmark name per line ('#' comments)", nullptr,
         PARBENCH_ARITY_ONE},
        {"include", "NAME...", "benchmarks to add to the run", nullptr, PARBENCH_ARITY_LIST},
        {"exclude", "NAME...", "benchmarks to drop from the run", nullptr, PARBENCH_ARITY_LIST},
        {"thread_level", "single|funneled|serialized|multiple", "MPI_Init_thread level", "single",
         PARBENCH_ARITY_ONE},
        {"accelerator", "cuda",
         "message buffers in CUDA device memory (OSU's -d cuda); needs a CUDA-aware MPI", nullptr,
         PARBENCH_ARITY_ONE},
        // IMB 2021's options (the datatypes: imb-mpi1 only; other suites keep the defaults).
        {"data_type", "byte|char|int|float|double",
         "datatype of the messages; lengths become multiples of its size (IMB 2021, imb-mpi1)",
         "byte", PARBENCH_ARITY_ONE},
        {"red_data_type", "char|int|float|double",
         "datatype of the reductions, summed (IMB 2021, imb-mpi1)", "float", PARBENCH_ARITY_ONE},
        {"contig_type", "base|base_vec|resize|resize_vec",
         "base type, a vector of it per message, resized to twice its extent, or a vector of "
         "resized (IMB 2021, imb-mpi1)",
         "base", PARBENCH_ARITY_ONE},
        {"zero_size", "on|off", "run the 0-byte message size (IMB 2021)", "on", PARBENCH_ARITY_ONE},
        {"warm_up", "on|off", "untimed warm-up iterations before the first size (IMB 2021)", "on",
         PARBENCH_ARITY_ONE},
        {"start_sync", "barrier|window[:WINDOW_US]",
         "how calls start: IMB's barriers before the loop, or each call at a common window "
         "time on synchronised clocks (late calls dropped); parbench's -sync before IMB 2021's",
         "barrier", PARBENCH_ARITY_ONE},
        {"methodology", "2021|4.0",
         "IMB 2021.11's methods or the IMB 4.0 guide's (units, per-call timing, root, source, "
         "window; docs/methodology.md)",
         methodology_default_, PARBENCH_ARITY_ONE},
        {"sync", "on|off",
         "a barrier after each timed collective call (IMB 2021, -methodology 2021)", "on",
         PARBENCH_ARITY_ONE},
        {"root_shift", "on|off",
         "rooted collectives move the root at each call (IMB 2021, -methodology 2021)", "off",
         PARBENCH_ARITY_ONE},
        {"imb_barrier", "on|off",
         "IMB's MPI-independent dissemination barrier instead of MPI_Barrier (IMB 2021, "
         "-methodology 2021)",
         "off", PARBENCH_ARITY_ONE},
        {"window_size", "MESSAGES",
         "Uniband/Biband messages per window (IMB 2021, -methodology 2021)", "256",
         PARBENCH_ARITY_ONE},
        {"msgsize", "X,Y,...",
         "message lengths in bytes as a comma list (IMB 2021's -msgsize; instead of -msglog)",
         nullptr, PARBENCH_ARITY_ONE},
        {"msg_pause", "on|off",
         "after each message size, a barrier and a sleep as long as the size took (IMB 2021)",
         "off", PARBENCH_ARITY_ONE},
        {"aggregate_mode", "multi|aggregate|non_aggregate",
         "which modes the benchmarks that have both run (IMB 2021; IMB-EXT, -RMA, -IO)", "multi",
         PARBENCH_ARITY_ONE},
        {"aggregate_ci", "affordable|always",
         "how often an aggregate sample is timed (IMB-EXT, -RMA, -IO; -methodology 2021): six "
         "times for a confidence interval where the five repeats take at most 5 ms per size, "
         "otherwise once, as IMB 2021 (affordable); six times at every size (always)",
         "affordable", PARBENCH_ARITY_ONE},
        {"list", nullptr, "IMB 2021's -list: refused, `parbench list` shows the benchmarks",
         nullptr, PARBENCH_ARITY_FLAG},
        {"confidence", "PERCENT",
         "repeat samples until the median's 95% CI half-width is below PERCENT (or -time is "
         "reached) instead of IMB's fixed count",
         nullptr, PARBENCH_ARITY_ONE},
        {"confidence_futile", "stop|continue",
         "under -confidence, a row projected not to reach PERCENT within IMB's budget stops "
         "early (stop) or takes that whole budget (continue)",
         "continue", PARBENCH_ARITY_ONE},
    };
    if (defaults.io_files)
        entries_.push_back({"io-dir", "DIR",
                            "where the run's own directory for its files is made (removed at "
                            "the end)",
                            "$TMPDIR or /tmp", PARBENCH_ARITY_ONE});
}

}  // namespace parbench::imb
