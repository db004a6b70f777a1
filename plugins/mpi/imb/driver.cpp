#include "imb/driver.hpp"

#include <parbench/core/error.hpp>
#include <parbench/mpi/file_errors.hpp>

#include <cstdio>

namespace parbench::imb {
namespace driver_impl {
namespace {

[[nodiscard]] std::string mib_text(double bytes) {
    char text[64];
    std::snprintf(text, sizeof text, "%.1f MiB", bytes / 1048576.0);
    return text;
}

}  // namespace

}  // namespace driver_impl
std::uint64_t aggregate_sections(const policy::iterations::imb_volume& iterations,
                                 std::uint64_t x) {
    const std::uint64_t n = iterations.n_sample(x, true);
    if (x == 0) return 1;
    return std::max<std::uint64_t>(1, std::min(n, iterations.overall_vol_bytes / x));
}

std::vector<int> process_counts_for(const run_state& st, std::string_view name,
                                    int fixed_processes, bool even_only, int min_processes) {
    const options& o = *st.opts;
    if (fixed_processes > 0) {
        if (st.world_size >= fixed_processes) return {fixed_processes};
        if (st.world_rank == 0)
            st.host->skipped(name, "needs " + std::to_string(fixed_processes) +
                                       " processes and the run has " +
                                       std::to_string(st.world_size));
        return {};
    }
    std::vector<int> counts =
        mpi::process_counts(st.world_size, std::min(o.npmin, st.world_size));
    if (min_processes > 1) {
        std::erase_if(counts, [&](int q) { return q < min_processes; });
        if (counts.empty() && st.world_rank == 0)
            st.host->skipped(name, "needs " + std::to_string(min_processes) +
                                       " processes and the run has " +
                                       std::to_string(st.world_size));
    }
    if (even_only) {
        std::erase_if(counts, [](int q) { return q % 2 != 0; });
        if (counts.empty() && st.world_rank == 0)
            st.host->skipped(name, "needs an even number of processes");
    }
    return counts;
}

void warn_skipped_sizes(const run_state& st, std::string_view name, int processes,
                        std::uint64_t first_skipped, std::size_t worst_need_bytes) {
    if (st.world_rank != 0) return;
    const double need = static_cast<double>(worst_need_bytes);
    const double total = need * st.world_size;
    st.host->warning(
        std::string(name) + " at " + std::to_string(processes) +
        " processes: message buffers from " + std::to_string(first_skipped) + " bytes need up to " +
        driver_impl::mib_text(need) + " per process, above the -mem limit of " +
        driver_impl::mib_text(st.mem_limit_bytes) +
        "; those sizes were skipped (the whole run needs " + driver_impl::mib_text(total) +
        ", -mem " + std::to_string(need / 1073741824.0 * 1.01) + " would allow them)");
}

void warn_allocation_failed(const run_state& st, std::string_view name, int processes) {
    if (st.world_rank != 0) return;
    st.host->warning(std::string(name) + " at " + std::to_string(processes) +
                     " processes: a process could not allocate its message buffers; those sizes "
                     "were skipped");
}

void warn_left_out(const run_state& st, std::string_view name, const std::string& why,
                   bool none_left) {
    if (st.world_rank != 0) return;
    if (none_left)
        st.host->skipped(name, why);
    else
        st.host->warning(std::string(name) + ": " + why + "; those process counts were left out");
}

void warn_dropped_calls(const run_state& st, std::string_view name, int processes,
                        std::uint64_t dropped, std::uint64_t timed) {
    if (st.world_rank != 0) return;
    st.host->warning(std::string(name) + " at " + std::to_string(processes) +
                     " processes, -start_sync window: " + std::to_string(dropped) + " of " +
                     std::to_string(timed) +
                     " calls started late on some process and were dropped (JSON metrics "
                     "valid_samples and invalid_samples give them per size)");
}

void warn_storage(const run_state& st, std::string_view name, int processes, std::uint64_t bytes,
                  const mpi::storage_need& storage) {
    if (st.world_rank != 0) return;
    st.host->warning(std::string(name) + " at " + std::to_string(processes) + " processes, " +
                     std::to_string(bytes) + " bytes: the files need " +
                     driver_impl::mib_text(storage.need_bytes) + " in " + storage.directory +
                     ", which has " + driver_impl::mib_text(storage.free_bytes) +
                     " free; size skipped");
}

void stop_on_file_failure(const mpi::session& s, std::string_view name, std::uint64_t bytes,
                          const std::string& path) {
    if (const std::string failure = mpi::file_errors::take_agreed(s.world().get());
        !failure.empty())
        throw input_error("MPI-IO failed in " + std::string(name) + " (" + std::to_string(bytes) +
                          " bytes, " + std::to_string(s.layout().processes) +
                          " processes) on a file in " + path.substr(0, path.find_last_of('/')) +
                          ": " + failure + "; stopped");
}

}  // namespace parbench::imb
