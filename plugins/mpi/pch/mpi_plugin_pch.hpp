// The MPI plugin's precompiled header (Meson's cpp_pch; -Db_pch=false turns it off): what nearly
// every translation unit of the plugin includes, whose parsing was about 2.5 s of each unit's
// compile time, paid twice in CI (release and sanitizer builds). Only widely used headers that
// rarely change belong here: a change to one of them rebuilds the whole plugin anyway. (No
// include guard: the compiler reads this file only as the main file of the precompiled header.)

#include <mpi.h>
#include <nlohmann/json.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/report/result.hpp>
