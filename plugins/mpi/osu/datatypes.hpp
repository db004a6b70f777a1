// OSU 7.5's -T: the MPI datatype of a collective's elements, one table per datatype chosen.
//
// As OSU 7.5 picks them (c/util/osu_util.c:1096-1108, 1176-1189; osu_util_mpi.c:976-998): -T
// MPI_CHAR, MPI_INT, MPI_FLOAT or ALL (all three, in that order); without -T the reductions
// (allreduce, reduce, reduce_scatter, reduce_scatter_block and their nonblocking and persistent
// forms) take MPI_INT and every other collective MPI_CHAR. A reduction given MPI_CHAR reduces
// MPI_SIGNED_CHAR instead (OMB_MPI_REDUCE_CHAR_CHECK, osu_util_mpi.h), and its datatype line says
// so, as OSU prints MPI_Type_get_name's name. X bytes are X / size(type) elements; a size with
// no whole element is skipped (`if (0 == num_elements) continue;`, osu_allreduce.c:129-132).
#pragma once

#include "osu/options.hpp"

#include <parbench/mpi/check.hpp>
#include <parbench/suites/imb/datatypes.hpp>

#include <mpi.h>

#include <cstddef>

namespace parbench::osu {

[[nodiscard]] constexpr mpi::check::element_kind element_kind_of(datatype d) noexcept {
    switch (d) {
        case datatype::mpi_int: return mpi::check::element_kind::mpi_int;
        case datatype::mpi_float: return mpi::check::element_kind::mpi_float;
        case datatype::mpi_char: break;
    }
    return mpi::check::element_kind::mpi_char;
}

// Bytes of one element.
[[nodiscard]] constexpr std::size_t element_bytes(datatype d) noexcept {
    return mpi::check::element_bytes(element_kind_of(d));
}

// The MPI datatype a test passes: a reduction's MPI_CHAR is MPI_SIGNED_CHAR.
[[nodiscard]] inline MPI_Datatype mpi_datatype(datatype d, bool reduction) noexcept {
    if (d == datatype::mpi_char && reduction) return MPI_SIGNED_CHAR;
    return imb_mpi1::predefined(element_kind_of(d));
}

// The name of the table's datatype line ("# Datatype: MPI_INT.").
[[nodiscard]] constexpr const char* datatype_name(datatype d, bool reduction) noexcept {
    switch (d) {
        case datatype::mpi_int: return "MPI_INT";
        case datatype::mpi_float: return "MPI_FLOAT";
        case datatype::mpi_char: break;
    }
    return reduction ? "MPI_SIGNED_CHAR" : "MPI_CHAR";
}

// The datatype of a test's table when -T is not given.
[[nodiscard]] constexpr datatype default_datatype(bool reduction) noexcept {
    return reduction ? datatype::mpi_int : datatype::mpi_char;
}

// The operands of X bytes in datatype `d` for IMB-MPI1's definitions (suites/imb/mpi1.hpp), which
// OSU's collectives reuse: data and reductions both X / size(d) elements of `d` (the reduction's
// MPI_CHAR as MPI_SIGNED_CHAR), summed with MPI_SUM.
[[nodiscard]] inline imb_mpi1::sized_operands operands_of(datatype d, std::size_t x) noexcept {
    const auto layout = mpi::check::element_layout::of(element_kind_of(d));
    const int count = static_cast<int>(x / element_bytes(d));
    return {.data = {mpi_datatype(d, false), count, layout},
            .reduction = {mpi_datatype(d, true), count, layout},
            .op = MPI_SUM};
}

}  // namespace parbench::osu
