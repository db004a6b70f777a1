// The machine's physical memory, for the limits that keep a benchmark from allocating more than
// the node has (IMB's -mem default, PAW's operand and buffer checks).
#pragma once

#include <unistd.h>

namespace parbench {

// Bytes of physical memory; 0 when the system does not say.
[[nodiscard]] inline double physical_memory_bytes() noexcept {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
}

}  // namespace parbench
