#include "imb/suite.hpp"

#include "cuda_buffers.hpp"
#include "imb/run_header.hpp"
#include "imb/selection.hpp"
#include <parbench/mpi/imb_cpu_work.hpp>
#include "io/run_directory.hpp"

#include <parbench/core/memory.hpp>
#include <parbench/mpi/active_set.hpp>
#include <parbench/mpi/node.hpp>
#include <parbench/mpi/run_header.hpp>

#include <mpi.h>

#include <algorithm>
#include <optional>

namespace parbench::imb {
namespace suite_impl {
namespace {

// 80 % of physical memory shared by the processes of the busiest node (the same on every
// process, so that every process skips the same sizes).
[[nodiscard]] double default_mem_limit_bytes(const mpi::node_share& share) {
    const double physical = physical_memory_bytes();
    return physical > 0.0 ? 0.8 * physical / std::max(1, share.processes) : 0.0;
}

// IMB 2021's columns for a single transfer under -multi 1: one row per group with that group's
// time and throughput, "t[usec] Mbytes/sec" (OUT_TIME_AND_BW for a SingleTransfer or
// SingleElementTransfer with group_mode != 0, IMB_output.c:210-213). parbench's record of one
// group among several is a parallel transfer (pattern::class_in_groups, the IMB 4.0 guide's
// rule), whose class would give t_min/t_max/t_avg; t is the group's t_max, as in IMB
// (timing[MAX], IMB_output.c:392).
constexpr table_column single_transfer_in_groups[] = {{"t_max_us", "t[usec]"},
                                                      {"mbytes_per_s", "Mbytes/sec"}};

}  // namespace

}  // namespace suite_impl
suite::suite(const suite_spec& spec, std::span<const benchmark> reference,
             std::span<const benchmark> test_only)
    : spec_(spec), parameters_(spec.defaults) {
    catalogue_.assign(reference.begin(), reference.end());
    catalogue_.insert(catalogue_.end(), test_only.begin(), test_only.end());
    for (const auto& b : catalogue_) table_.push_back(b.info);
}

parbench_suite suite::info() const noexcept {
    const auto parameters = parameters_.entries();
    return {spec_.name,      spec_.description,  table_.data(), table_.size(),
            parameters.data(), parameters.size(),
            PARBENCH_SUITE_NEEDS_MPI | PARBENCH_SUITE_MULTI_NAMES};
}

void suite::run(const run_request& request, const plugin::host_channel& host) const {
    run_state st;
    st.suite = spec_.name;
    MPI_Comm_size(MPI_COMM_WORLD, &st.world_size);
    MPI_Comm_rank(MPI_COMM_WORLD, &st.world_rank);
    const options o = parse_options(request, st.world_size, spec_.name, spec_.defaults);
    const std::span<const std::string_view> imb2021_list =
        o.method.is_2021() ? spec_.imb2021_list : std::span<const std::string_view>{};
    std::vector<std::size_t> named;
    const std::vector<selected> chosen =
        select(catalogue_, spec_.name, request, o, imb2021_list, &named);
    // The run order: IMB 2021 runs the names in the order given (-include's, positional,
    // -input's; selection.hpp), then the default set in its order (IMB-IO's imb2021_list; the
    // 2021.11 build runs `IMB-IO S_IRead_indv Open_Close S_IWrite_indv` in that order); the
    // IMB 4.0 guide's catalogue order otherwise.
    std::vector<std::size_t> first = named;
    for (const std::size_t k : run_order(catalogue_, imb2021_list))
        if (!imb2021_list.empty() && std::find(first.begin(), first.end(), k) == first.end())
            first.push_back(k);
    const std::vector<std::size_t> order =
        o.method.is_2021() ? run_order(catalogue_, std::span<const std::size_t>(first))
                           : run_order(catalogue_, std::span<const std::string_view>{});
    // Derived datatypes and the user-defined sum live as long as the run (freed before
    // MPI_Finalize).
    std::optional<imb_mpi1::message_datatypes> datatypes;
    if (spec_.defaults.datatypes) {
        datatypes.emplace(datatype_choice(o));
        st.datatypes = &*datatypes;
    }
    st.opts = &o;
    st.host = &host;
    st.order = mpi::mapped_order(st.world_size, o.map);
    const mpi::node_share share = mpi::busiest_node(MPI_COMM_WORLD);
    st.mem_limit_bytes =
        o.mem_gib ? *o.mem_gib * 1073741824.0 : suite_impl::default_mem_limit_bytes(share);
    // Each process's GPU goes into the run's context beside its placement (plugin_context.gpus).
    nlohmann::json gpus;
    if (o.accelerator == "cuda") {
        st.buffers = mpi_plugin::cuda_memory_space();
        gpus = mpi_plugin::gpus_of_processes(MPI_COMM_WORLD);
    }
    // Files go into a directory of this run's own, removed when the run ends (also by an error).
    std::optional<mpi_plugin::io::run_directory> files;
    if (spec_.defaults.io_files) {
        files.emplace(o.io_dir);
        st.io_directory = files->path();
    }

    const std::vector<std::string> listed = listed_names(catalogue_, chosen, o, order);
    // IMB-IO under IMB 2021: the I-flavours' CPU work calibrated once for the run, before the
    // first benchmark, by every process (methodology::io_calibrates_once_per_run).
    std::optional<mpi::imb_cpu_work> cpu_work;
    if (spec_.defaults.io_files && o.method.io_calibrates_once_per_run() &&
        lists_io_nonblocking(listed)) {
        cpu_work.emplace(MPI_COMM_WORLD, o.method.io_cpu_load_s(), o.method.cpu_exploit_order());
        st.cpu_work = &*cpu_work;
    }
    // IMB-NBC and IMB-MPI4 under IMB 2021: the overlap benchmarks' work, its rate probed once for
    // the run by every process on its own, the work set per size (nbc_calibrates_once_per_run).
    if ((spec_.part == report::imb_part::nbc || spec_.part == report::imb_part::mpi4) &&
        o.method.nbc_calibrates_once_per_run()) {
        cpu_work.emplace(o.method.cpu_exploit_order());
        st.cpu_work = &*cpu_work;
    }
    // IMB-RMA under IMB 2021: Truly_passive_put's target runs the same work, its rate probed
    // once for the run (methodology::passive_put_work_like_imb).
    if (spec_.part == report::imb_part::rma && o.method.passive_put_work_like_imb() &&
        std::find(listed.begin(), listed.end(), "Truly_passive_put") != listed.end()) {
        cpu_work.emplace(o.method.cpu_exploit_order());
        st.cpu_work = &*cpu_work;
    }

    if (st.world_rank == 0) {
        run_start start = make_run_start(spec_, st, listed, share);
        for (std::size_t k = 0; k < catalogue_.size(); ++k) {
            std::span<const table_column> columns =
                catalogue_[k].columns_under != nullptr ? catalogue_[k].columns_under(o.method)
                                                       : catalogue_[k].columns;
            if (columns.empty() && o.method.is_2021() && o.multi == 1 &&
                std::string_view(catalogue_[k].info.klass) == "single_transfer")
                columns = suite_impl::single_transfer_in_groups;
            if (!chosen[k].run || columns.empty()) continue;
            auto& declared = start.columns[catalogue_[k].info.name];
            for (const table_column& c : columns)
                declared.push_back({c.source, c.heading, c.precision});
        }
        if (!gpus.is_null()) start.context["gpus"] = gpus;
        if (spec_.extend_run_start != nullptr) spec_.extend_run_start(start, st);
        host.run_started(start);
        if (share.oversubscribed()) host.warning(mpi::oversubscription_warning(share));
    }
    for (const std::size_t k : order) {
        if (!chosen[k].run) continue;
        const selection sel{o.multi.has_value() || chosen[k].multi_name};
        catalogue_[k].run(st, sel, catalogue_[k].info.name);
    }
}

}  // namespace parbench::imb
