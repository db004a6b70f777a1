// Records to world rank 0. measure() leaves a measurement's records on its active set's first
// process (session::active_root()): world rank 0 for every order IMB's -map and the suites
// build, where the host listens. A family whose active sets leave rank 0 out (pairs: one pair
// at a time) calls deliver_to_world_root() on every process after each measurement.
//
// Its own header because receiving parses JSON: in measure() itself that parser cost every
// benchmark's translation unit about 8 s of compile time for a case one family has.
#pragma once

#include <parbench/mpi/runner.hpp>
#include <parbench/mpi/session.hpp>
#include <parbench/report/result.hpp>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace parbench::mpi {

// Collective over the session's world, after a measurement: where the active set does not start
// at world rank 0 (a family whose sets leave it out, as pairs' do), its first process sends
// world rank 0, where the host listens, the records and what was skipped (the -mem need, a failed
// allocation). Outside every timed region; nothing to do in the usual case.
inline void deliver_to_world_root(const session& s, measurement& m) {
    const int from = s.active_root();
    if (from == 0) return;
    constexpr int tag = 31;
    const communicator& world = s.world();
    if (world.rank() == from) {
        const std::string text = nlohmann::json{{"records", m.records},
                                                {"skipped_need_bytes", m.skipped_need_bytes},
                                                {"allocation_failed", m.allocation_failed}}
                                     .dump();
        unsigned long long length = text.size();
        MPI_Send(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, tag, world.get());
        MPI_Send(text.data(), static_cast<int>(length), MPI_CHAR, 0, tag, world.get());
        m.records.clear();
    } else if (world.rank() == 0) {
        unsigned long long length = 0;
        MPI_Recv(&length, 1, MPI_UNSIGNED_LONG_LONG, from, tag, world.get(), MPI_STATUS_IGNORE);
        std::string text(length, '\0');
        MPI_Recv(text.data(), static_cast<int>(length), MPI_CHAR, from, tag, world.get(),
                 MPI_STATUS_IGNORE);
        const nlohmann::json j = nlohmann::json::parse(text);
        m.records = j.at("records").get<std::vector<result_record>>();
        m.skipped_need_bytes = j.at("skipped_need_bytes").get<std::size_t>();
        m.allocation_failed = j.at("allocation_failed").get<bool>();
    }
}

}  // namespace parbench::mpi
