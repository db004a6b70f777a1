// Is OpenBLAS running the kernels this CPU deserves? A DYNAMIC_ARCH build (Debian's) picks its
// kernels from the CPUID family/model it recognises; an unknown CPU (a new AMD or Intel model,
// or a hypervisor's masked CPUID) falls back to an old core such as "Prescott" (SSE3), several
// times slower than the CPU can be. OPENBLAS_CORETYPE overrides the choice.
#pragma once

#include <parbench/core/cpu_info.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace parbench::blas {

// 0: SSE-era kernels, 1: AVX, 2: AVX2+FMA, 3: AVX-512; -1: a core parbench does not classify.
[[nodiscard]] inline int core_vector_level(std::string_view corename) {
    std::string c(corename);
    for (char& ch : c) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (const char* old : {"prescott", "core2", "penryn", "dunnington", "nehalem", "atom",
                            "katmai", "coppermine", "northwood", "banias", "opteron",
                            "opteron_sse3", "barcelona", "bobcat", "athlon", "nano", "generic",
                            "sse_generic", "westmere"})
        if (c == old) return 0;
    for (const char* avx : {"sandybridge", "bulldozer", "piledriver", "steamroller", "excavator"})
        if (c == avx) return 1;
    for (const char* avx2 : {"haswell", "zen", "skylake", "broadwell", "alderlake"})
        if (c == avx2) return 2;
    for (const char* avx512 : {"skylakex", "cooperlake", "sapphirerapids", "icelake"})
        if (c == avx512) return 3;
    return -1;
}

[[nodiscard]] inline int cpu_vector_level(const ::parbench::cpu::cpu_info& cpu) {
    if (cpu.has("avx512f") && cpu.has("avx512dq") && cpu.has("avx512cd") && cpu.has("avx512bw") &&
        cpu.has("avx512vl"))
        return 3;
    if (cpu.has("avx2") && cpu.has("fma")) return 2;
    if (cpu.has("avx")) return 1;
    return 0;
}

// The OPENBLAS_CORETYPE that matches the CPU's vector level.
[[nodiscard]] inline std::string_view coretype_for_level(int level) noexcept {
    switch (level) {
        case 3: return "SkylakeX";
        case 2: return "Haswell";
        case 1: return "Sandybridge";
        default: return "";
    }
}

// One warning with the remedy when the selected core uses narrower vectors than the CPU has;
// nothing when it matches or when the core is not one parbench classifies.
[[nodiscard]] inline std::optional<std::string> fallback_warning(std::string_view corename,
                                                                 const ::parbench::cpu::cpu_info& cpu,
                                                                 std::string_view version,
                                                                 std::string_view coretype_env = {}) {
    const int core = core_vector_level(corename);
    const int have = cpu_vector_level(cpu);
    if (core < 0 || core >= have) return std::nullopt;
    static constexpr std::string_view names[] = {"SSE-class", "AVX", "AVX2/FMA", "AVX-512"};
    const std::string remedy(coretype_for_level(have));
    const std::string why = coretype_env.empty()
                                ? "selected"
                                : "was told by OPENBLAS_CORETYPE=" + std::string(coretype_env) +
                                      " to use";
    return "OpenBLAS " + std::string(version) + " " + why + " the '" + std::string(corename) +
           "' core (" + std::string(names[core]) + " kernels) on a CPU with " +
           std::string(names[have]) + " (" + ::parbench::cpu::vector_flags_text(cpu) +
           "): BLAS rates are held back, typically several times. Remedy: export "
           "OPENBLAS_CORETYPE=" +
           remedy + " before running (or use an OpenBLAS built for this CPU)";
}

}  // namespace parbench::blas
