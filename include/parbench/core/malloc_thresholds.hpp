// The C allocator's two thresholds, pinned where a long-running program's glibc ends up, so that
// a figure does not depend on what the process happened to allocate before it.
//
// Why: an MPI library allocates scratch inside a call (MPICH's Reduce_scatter, Allreduce and
// Alltoall keep a copy of the vector). glibc serves a block of at least M_MMAP_THRESHOLD with
// fresh pages, and gives the top of the heap back once more than M_TRIM_THRESHOLD of it is free;
// both thresholds start at 128 KiB and rise ("dynamic threshold") only when the program frees a
// mapped block larger than them. Whether a call's scratch page-faults on every call therefore
// depends on the heap's history: at -n 2 with MPICH 4.0.2, IMB-MPI1 2021.11's Reduce_scatter at
// 64 KiB reads 23.8 us after `-msglog 15:17` and 126.6 us after `-msglog 16:20`, parbench's 91
// and 54; with the thresholds pinned both tools read 23.9 us at 64 KiB and 44 us at 128 KiB
// whatever ran before (docs/methodology.md, "The C allocator").
//
// Pinned: M_MMAP_THRESHOLD at 32 MiB (glibc's DEFAULT_MMAP_THRESHOLD_MAX on 64-bit, the highest
// its dynamic threshold reaches) and M_TRIM_THRESHOLD at twice that (what the dynamic rule sets
// beside it). parbench's own message buffers are mappings of their own (core/buffers.hpp), so
// this changes only where the libraries' blocks come from (the heap keeps the largest call's
// scratch: +4 MiB on one rank of the default imb-mpi1 run).
// A user who sets any of glibc's malloc variables keeps them: nothing is pinned then.
#pragma once

#include <parbench/core/buffers.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdlib>
#include <string>
#include <string_view>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace parbench {

inline constexpr std::size_t pinned_mmap_threshold_bytes = std::size_t{32} << 20;
inline constexpr std::size_t pinned_trim_threshold_bytes = std::size_t{64} << 20;

// What the process's allocator thresholds are, and who set them.
struct malloc_thresholds {
    // "parbench" (pinned as above), "environment" (the user's variable `variable`), or why
    // nothing was pinned: "not glibc", "sanitizer" (its allocator replaces glibc's).
    std::string set_by;
    std::string variable;  // with "environment": the first variable found
    [[nodiscard]] bool pinned() const noexcept { return set_by == "parbench"; }
};

// The glibc malloc setting the environment makes, if any: one of the MALLOC_*_ variables glibc
// reads at start-up, or GLIBC_TUNABLES naming a glibc.malloc threshold. `lookup` is getenv's
// shape (a test passes its own). Empty: none.
template <class Lookup>
[[nodiscard]] std::string malloc_setting_in_environment(Lookup&& lookup) {
    for (const char* name : {"MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_",
                             "MALLOC_MMAP_MAX_"})
        if (const char* value = lookup(name); value != nullptr) return name;
    if (const char* tunables = lookup("GLIBC_TUNABLES"); tunables != nullptr) {
        const std::string_view text(tunables);
        for (const std::string_view key : {"glibc.malloc.mmap_threshold",
                                           "glibc.malloc.trim_threshold", "glibc.malloc.top_pad",
                                           "glibc.malloc.mmap_max"})
            if (text.find(key) != std::string_view::npos) return "GLIBC_TUNABLES";
    }
    return {};
}

// Pins the thresholds (above) unless the environment sets glibc's malloc already; once per
// process, before MPI_Init, so that the library's first blocks follow them too.
[[nodiscard]] inline malloc_thresholds pin_malloc_thresholds() {
    // buffers_from_heap is core/buffers.hpp's one test for AddressSanitizer
    if constexpr (buffers_from_heap) return {.set_by = "sanitizer", .variable = {}};
#if defined(__GLIBC__)
    if (std::string variable = malloc_setting_in_environment(
            [](const char* name) { return std::getenv(name); });
        !variable.empty())
        return {.set_by = "environment", .variable = std::move(variable)};
    // The trim threshold first: setting either one ends glibc's dynamic rule for both.
    if (mallopt(M_TRIM_THRESHOLD, static_cast<int>(pinned_trim_threshold_bytes)) == 1 &&
        mallopt(M_MMAP_THRESHOLD, static_cast<int>(pinned_mmap_threshold_bytes)) == 1)
        return {.set_by = "parbench", .variable = {}};
    return {.set_by = "not pinned (mallopt refused)", .variable = {}};
#else
    return {.set_by = "not glibc", .variable = {}};
#endif
}

// The run context's "allocator": who set the thresholds and, where parbench did, their values.
[[nodiscard]] inline nlohmann::json allocator_context(const malloc_thresholds& m) {
    nlohmann::json j = {{"malloc_thresholds_set_by", m.set_by}};
    if (!m.variable.empty()) j["variable"] = m.variable;
    if (m.pinned()) {
        j["mmap_threshold_bytes"] = pinned_mmap_threshold_bytes;
        j["trim_threshold_bytes"] = pinned_trim_threshold_bytes;
    }
    return j;
}

}  // namespace parbench
