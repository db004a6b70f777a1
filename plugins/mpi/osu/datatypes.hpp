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
#include <cstdint>
#include <memory>
#include <vector>

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

// The bytes one message of X bytes carries: X, or under -D the derived type's, OSU's Transmit
// Size (omb_ddt_assign's elements x size(T), osu_latency.c:152-155), from which OSU's bandwidth
// tests compute MB/s (osu_bw.c:263-268, :364-368).
[[nodiscard]] inline std::uint64_t payload_bytes(const options& o, std::uint64_t x) noexcept {
    if (!o.ddt.given()) return x;
    const std::uint64_t size = element_bytes(o.table_datatype);
    return o.ddt.transmit_elements(x / size) * size;
}

// Whether a message of X bytes of `element`-byte elements holds -D's type: indx's blocks lie at
// the file's displacements whatever the size, so a size whose message ends before the last
// block's end is skipped (OSU 7.5 sends it from buffers of its largest size and reads past the
// message). Every other size fits.
[[nodiscard]] inline bool ddt_fits(const options& o, std::uint64_t element,
                                   std::uint64_t x) noexcept {
    const std::uint64_t n = x / element;
    return o.ddt.kind != ddt_kind::indexed || n >= o.ddt.span_elements(n);
}

// -D's datatype of one message of `n` elements of `base`, made and committed as OSU's
// omb_ddt_assign makes it (osu_util_mpi.c:2966-3005; the indexed type of every entry of the file),
// freed with this object.
class derived_message_type {
public:
    derived_message_type(const derived_datatype& d, MPI_Datatype base, int n) {
        switch (d.kind) {
            case ddt_kind::contiguous: MPI_Type_contiguous(n, base, &type_); break;
            case ddt_kind::vector:
                MPI_Type_vector(n / static_cast<int>(d.stride), static_cast<int>(d.block_length),
                                static_cast<int>(d.stride), base, &type_);
                break;
            case ddt_kind::indexed: {
                std::vector<int> lengths = d.block_lengths;  // MPI-3's non-const int* on some MPIs
                std::vector<int> displacements = d.displacements;
                MPI_Type_indexed(static_cast<int>(lengths.size()), lengths.data(),
                                 displacements.data(), base, &type_);
                break;
            }
            case ddt_kind::none: return;
        }
        MPI_Type_commit(&type_);
    }
    derived_message_type(const derived_message_type&) = delete;
    derived_message_type& operator=(const derived_message_type&) = delete;
    ~derived_message_type() {
        if (type_ != MPI_DATATYPE_NULL) MPI_Type_free(&type_);
    }
    [[nodiscard]] MPI_Datatype get() const noexcept { return type_; }

private:
    MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

}  // namespace parbench::osu
