// OSU's family for mpi::sweep() (mpi/sweep.hpp): one process count (the pair 0 and 1, or every
// process), OSU's sizes, no warm-up of its own (OSU's skip iterations are the iteration policy's),
// each record with its table's figures, rank 0's note of skipped sizes after the sweep, and
// with -clog each process's log of the sizes its check found defects in.
// What differs between OSU's kinds of test is a `Method` (osu/messages.hpp, osu/one_sided.hpp):
//
//   static int processes(const run_state&);
//   static std::vector<std::uint64_t> sizes(const options&);
//   static mpi::measurement measure(const mpi::session&, const options&, std::string_view name,
//                                   std::uint64_t x);  // records with their bandwidth
#pragma once

#include "osu/options.hpp"
#include "osu/suite.hpp"

#include <parbench/mpi/session.hpp>
#include <parbench/mpi/sweep.hpp>

#include <mpi.h>

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace parbench::osu {

template <class Method>
struct family {
    const run_state& run;
    std::string_view name;

    struct count {
        mpi::session session;
    };

    [[nodiscard]] std::array<int, 1> process_counts() const { return {Method::processes(run)}; }
    [[nodiscard]] std::vector<std::uint64_t> sizes() const { return Method::sizes(*run.opts); }
    // the session's message buffers where -d puts this process's (run_state::buffers)
    [[nodiscard]] count open(int q) const {
        return {mpi::session(run.comm, q, false, {}, 0, run.buffers)};
    }
    void progress(const count& c, std::uint64_t x) const {
        run.host->progress(name, x, c.session.layout().processes);
    }
    [[nodiscard]] auto measure(const count& c, std::uint64_t x) const {
        auto m = Method::measure(c.session, *run.opts, name, x);
        if (!run.opts->validation_log_dir.empty() && m.own_check.count > 0)
            log_validation(run, x, m.checked_iteration, m.own_check);
        return m;
    }
    void publish(const count& /*c*/, result_record& r) const { osu::publish(run, r); }
    void close(const count& /*c*/, const mpi::size_notes& notes) const {
        report_skips(run, name, notes);
    }
};

template <class Method>
void run_sweep(const run_state& st, std::string_view name) {
    mpi::sweep(family<Method>{.run = st, .name = name});
}

}  // namespace parbench::osu
