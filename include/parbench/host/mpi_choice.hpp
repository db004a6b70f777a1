// Which MPI plugin a process loads when several were built (one per MPI library: MPICH's ABI,
// Open MPI): the one whose family matches the launcher that started the process, or the one
// `--mpi NAME` names. A plugin that cannot run under the launcher is refused here, in one line,
// before MPI_Init: started by the other MPI's launcher, an MPI library cannot reach its peers, and
// each process would wait or crash on its own.
//
// A plugin's family is the mpi.h it was compiled against (plugin_manifest::mpi_header), not the
// library its MPI calls reach at run time: a libmpi of the other MPI preloaded (LD_PRELOAD: a PMPI
// tool linked to it) binds every plugin's calls, so the MPICH plugin would read Open MPI's
// version, be chosen under Open MPI's mpirun and crash in MPI_Init (the two ABIs' handles differ).
// Such a plugin is passed over, or refused in one line when it is the one to run.
#pragma once

#include <parbench/host/launcher.hpp>
#include <parbench/host/mpi_family.hpp>
#include <parbench/plugin/registry.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace parbench {

struct mpi_choice {
    // The MPI plugin this process loads when a run needs MPI; nullptr when none was found.
    const plugin::plugin_manifest* plugin = nullptr;
    // Why no run may start MPI here (one line, bad input); "" when the plugin may run.
    std::string refusal;
};

namespace mpi_choice_impl {

// The family the plugin was built for: its mpi.h's, or its library's where it does not say.
[[nodiscard]] inline std::string_view family_of(const plugin::plugin_manifest& m) noexcept {
    const std::string_view header = mpi_family_of_library(m.mpi_header);
    return !header.empty() ? header : mpi_family_of_library(m.mpi_library);
}

// Why the library the plugin's MPI calls reach is of another family than its mpi.h; "" when it
// is not.
[[nodiscard]] inline std::string library_disagreement(const plugin::plugin_manifest& m) {
    return mpi_library_disagreement(m.name, m.file.filename().string(), m.mpi_header,
                                    m.mpi_library);
}
[[nodiscard]] inline bool library_disagrees(const plugin::plugin_manifest& m) {
    return !library_disagreement(m).empty();
}

// `m` chosen: refused when its library disagrees with its mpi.h, else with `refusal`.
[[nodiscard]] inline mpi_choice checked(const plugin::plugin_manifest* m, std::string refusal) {
    if (m != nullptr)
        if (std::string why = library_disagreement(*m); !why.empty()) return {m, std::move(why)};
    return {m, std::move(refusal)};
}

// What a user needs to tell the MPI plugins found apart: each one's name and file, the mpi.h it
// was compiled against (its MPI, fixed at build time), and the library its calls reach where that
// is of another MPI (a preloaded libmpi) or where the plugin does not name its mpi.h:
// "mpi (parbench_mpi.so, mpi.h of MPICH 4.0.2), mpi-openmpi (parbench_mpi_openmpi.so, mpi.h of
// Open MPI 4.1.4)"; under Open MPI's libmpi preloaded the first reads "mpi (parbench_mpi.so,
// mpi.h of MPICH 4.0.2, calls reach Open MPI v4.1.4)".
[[nodiscard]] inline std::string found_text(
    const std::vector<const plugin::plugin_manifest*>& found) {
    std::string text;
    for (const auto* m : found) {
        // Up to the first comma or line: Open MPI's goes on with its package and date.
        std::string library =
            m->mpi_library.substr(0, std::min(m->mpi_library.find(','), m->mpi_library.find('\n')));
        std::replace(library.begin(), library.end(), '\t', ' ');  // "MPICH Version:\t4.0.2"
        std::string about = m->file.filename().string();
        if (!m->mpi_header.empty()) about += ", mpi.h of " + m->mpi_header;
        if (!library.empty() && (m->mpi_header.empty() || library_disagrees(*m)))
            about += (m->mpi_header.empty() ? ", library " : ", calls reach ") + library;
        text += (text.empty() ? "" : ", ") + m->name + " (" + about + ")";
    }
    return text;
}

}  // namespace mpi_choice_impl

// `wanted`: "" (or auto, on, off) lets the launcher decide; otherwise a family ("mpich",
// "openmpi") or a plugin's name. `found`: the MPI plugins in discovery order.
[[nodiscard]] inline mpi_choice choose_mpi_plugin(
    const std::vector<const plugin::plugin_manifest*>& found, const launcher_info& launcher,
    std::string_view wanted) {
    using mpi_choice_impl::checked;
    using mpi_choice_impl::family_of;
    using mpi_choice_impl::library_disagrees;
    const bool by_launcher =
        wanted.empty() || wanted == "auto" || wanted == "on" || wanted == "off";
    if (found.empty())
        return {nullptr, by_launcher ? std::string{}
                                     : "--mpi " + std::string(wanted) +
                                           ": no MPI plugin was found (see parbench list)"};
    // The first plugin that passes `test` and whose library agrees with its mpi.h; else the
    // first that passes it (refused by checked()); else nullptr.
    const auto first = [&](auto test) -> const plugin::plugin_manifest* {
        const plugin::plugin_manifest* any = nullptr;
        for (const auto* m : found) {
            if (!test(*m)) continue;
            if (!library_disagrees(*m)) return m;
            if (any == nullptr) any = m;
        }
        return any;
    };
    if (!by_launcher) {
        const auto* named = first([&](const plugin::plugin_manifest& m) {
            return family_of(m) == wanted || m.name == wanted;
        });
        if (named == nullptr)
            return {found.front(), "--mpi " + std::string(wanted) + ": no MPI plugin for '" +
                                       std::string(wanted) + "' was found (found: " +
                                       mpi_choice_impl::found_text(found) +
                                       "; --mpi takes mpich or openmpi)"};
        const std::string_view family = family_of(*named);
        if (launcher.only_that_family && !family.empty() && family != launcher.mpi_family)
            return {named, "--mpi " + std::string(wanted) + ": the " + mpi_family_title(family) +
                               " plugin cannot run under " + std::string(launcher.name) +
                               ", which starts " + mpi_family_title(launcher.mpi_family) +
                               " processes: launch it with " + mpi_family_launcher(family) +
                               ", or leave out --mpi"};
        return checked(named, "");
    }
    const auto* any = first([](const plugin::plugin_manifest&) { return true; });
    if (launcher.mpi_family.empty()) return checked(any, "");
    if (const auto* same = first([&](const plugin::plugin_manifest& m) {
            return family_of(m) == launcher.mpi_family;
        }))
        return checked(same, "");
    // None of the launcher's family. Under srun (an MPI may speak several PMIs) the first is tried,
    // and the MPI plugin refuses after MPI_Init if it sees one process where srun started N.
    const bool all_other = std::all_of(found.begin(), found.end(),
                                       [](const auto* m) { return !family_of(*m).empty(); });
    if (!launcher.only_that_family || !all_other) return checked(any, "");
    const std::string_view other = family_of(*found.front());
    return checked(any, std::string(launcher.name) + " starts " +
                            mpi_family_title(launcher.mpi_family) +
                            " processes, but this parbench has no MPI plugin for " +
                            mpi_family_title(launcher.mpi_family) + " (found: " +
                            mpi_choice_impl::found_text(found) + "): launch it with " +
                            mpi_family_launcher(other) + ", or build parbench where " +
                            mpi_family_title(launcher.mpi_family) + " is installed");
}

}  // namespace parbench
