// IMB 2021's -data_type, -red_data_type and -contig_type: the MPI datatypes the IMB-MPI1
// benchmarks send and reduce, with the counts that make X bytes of data.
//
// As IMB 2021 (src_cpp/MPI1/MPI1_suite.cpp, helpers/original_benchmark.h) builds them:
//   base        the predefined type; count = X / size(type)
//   base_vec    per message size, MPI_Type_vector(X / size, 1, 1, base): one item per message
//   resize      MPI_Type_create_resized(base, lb = size, extent = 2 x size): each element is
//               followed by a gap of its own size, so buffers are twice the data
//   resize_vec  per message size, a vector of X / size resized elements
// Reductions on a derived type (every layout but base) use a user-defined sum over the data
// elements (MPI_Op_create), as IMB 2021 does; base reductions use MPI_SUM.
#pragma once

#include <parbench/mpi/check.hpp>

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace parbench::imb_mpi1 {

namespace check = mpi::check;
using check::element_kind;

enum class contig_type { base, base_vec, resize, resize_vec };

// One operand of a size's calls: `count` items of `type`.
struct operand {
    MPI_Datatype type = MPI_BYTE;
    int count = 0;
    check::element_layout layout{};  // where the data lie in the buffer (for -check)
    int elements_per_item = 1;       // elements in one item of `type` (a vector: X / size)

    // Items [first, first + n) as message bytes (reduce_scatter's portions).
    [[nodiscard]] std::size_t bytes_of_items(std::uint64_t n) const noexcept {
        return static_cast<std::size_t>(n) * static_cast<std::size_t>(elements_per_item) *
               layout.size;
    }
};

// IMB 4.0's fixed operands, for definitions run without the options (imb-nbc, osu).
[[nodiscard]] inline operand bytes_of(std::size_t x) noexcept {
    return {MPI_BYTE, static_cast<int>(x), check::element_layout::of(element_kind::mpi_byte)};
}
[[nodiscard]] inline operand floats_of(std::size_t x) noexcept {
    return {MPI_FLOAT, static_cast<int>(x / sizeof(float)),
            check::element_layout::of(element_kind::mpi_float)};
}

// What the kernels of one message size use.
struct sized_operands {
    operand data;       // every benchmark but the reductions
    operand reduction;  // Reduce, Allreduce, Reduce_scatter(_block), Reduce_local
    MPI_Op op = MPI_SUM;
    std::size_t spread = 1;  // buffer bytes per data byte (2 for the resized layouts)
};

// IMB 4.0's operands of X bytes: MPI_BYTE messages, MPI_FLOAT reductions with MPI_SUM.
[[nodiscard]] inline sized_operands fixed_operands(std::size_t x) noexcept {
    return {.data = bytes_of(x), .reduction = floats_of(x)};
}

[[nodiscard]] inline MPI_Datatype predefined(element_kind kind) noexcept {
    switch (kind) {
        case element_kind::mpi_byte: return MPI_BYTE;
        case element_kind::mpi_char: return MPI_CHAR;
        case element_kind::mpi_int: return MPI_INT;
        case element_kind::mpi_float: return MPI_FLOAT;
        case element_kind::mpi_double: return MPI_DOUBLE;
    }
    return MPI_BYTE;
}

[[nodiscard]] inline const char* mpi_name(element_kind kind) noexcept {
    switch (kind) {
        case element_kind::mpi_byte: return "MPI_BYTE";
        case element_kind::mpi_char: return "MPI_CHAR";
        case element_kind::mpi_int: return "MPI_INT";
        case element_kind::mpi_float: return "MPI_FLOAT";
        case element_kind::mpi_double: return "MPI_DOUBLE";
    }
    return "MPI_BYTE";
}

namespace detail {

// The user-defined sum of the derived layouts: adds the data elements of `len` items of `type`
// (one every extent / size elements: 2 for a resized type, 1 otherwise) and leaves the gaps.
template <class T>
void sum_of_elements(void* in, void* inout, int* len, MPI_Datatype* type) {
    MPI_Aint lb = 0;
    MPI_Aint extent = 0;
    int size = 0;
    MPI_Type_get_extent(*type, &lb, &extent);
    MPI_Type_size(*type, &size);
    if (size <= 0) return;
    const auto step = static_cast<std::size_t>(extent / size);
    const auto total = static_cast<std::size_t>(extent) / sizeof(T) * static_cast<std::size_t>(*len);
    const T* a = static_cast<const T*>(in);
    T* b = static_cast<T*>(inout);
    for (std::size_t k = 0; k < total; k += step) b[k] = static_cast<T>(b[k] + a[k]);
}

// A committed derived type, freed with its owner.
class owned_type {
public:
    owned_type() = default;
    explicit owned_type(MPI_Datatype t) : type_(t) { MPI_Type_commit(&type_); }
    owned_type(owned_type&& other) noexcept
        : type_(std::exchange(other.type_, MPI_DATATYPE_NULL)) {}
    owned_type& operator=(owned_type&& other) noexcept {
        if (this != &other) {
            release();
            type_ = std::exchange(other.type_, MPI_DATATYPE_NULL);
        }
        return *this;
    }
    owned_type(const owned_type&) = delete;
    owned_type& operator=(const owned_type&) = delete;
    ~owned_type() { release(); }
    [[nodiscard]] MPI_Datatype get() const noexcept { return type_; }

private:
    void release() noexcept {
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (type_ != MPI_DATATYPE_NULL && finalized == 0) MPI_Type_free(&type_);
        type_ = MPI_DATATYPE_NULL;
    }
    MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

}  // namespace detail

// The operands of one message size; owns the vector types of the *_vec layouts.
class sized_datatypes {
public:
    sized_datatypes(sized_operands operands, detail::owned_type data_vector,
                    detail::owned_type reduction_vector)
        : operands_(operands),
          data_vector_(std::move(data_vector)),
          reduction_vector_(std::move(reduction_vector)) {}
    [[nodiscard]] const sized_operands& operands() const noexcept { return operands_; }

private:
    sized_operands operands_;
    detail::owned_type data_vector_;
    detail::owned_type reduction_vector_;
};

// The datatypes of a run: made once from the options (MPI must be initialised), then asked for
// each message size.
class message_datatypes {
public:
    struct choice {
        element_kind data = element_kind::mpi_byte;
        element_kind reduction = element_kind::mpi_float;
        contig_type contig = contig_type::base;
    };

    explicit message_datatypes(const choice& c) : choice_(c) {
        if (resized()) {
            data_resized_ = resized_of(c.data);
            reduction_resized_ = resized_of(c.reduction);
        }
        if (c.contig != contig_type::base) {
            MPI_User_function* f = nullptr;
            switch (c.reduction) {
                case element_kind::mpi_char: f = &detail::sum_of_elements<char>; break;
                case element_kind::mpi_int: f = &detail::sum_of_elements<int>; break;
                case element_kind::mpi_double: f = &detail::sum_of_elements<double>; break;
                case element_kind::mpi_byte:
                case element_kind::mpi_float: f = &detail::sum_of_elements<float>; break;
            }
            MPI_Op_create(f, 1, &user_sum_);
        }
    }
    message_datatypes(const message_datatypes&) = delete;
    message_datatypes& operator=(const message_datatypes&) = delete;
    ~message_datatypes() {
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (user_sum_ != MPI_OP_NULL && finalized == 0) MPI_Op_free(&user_sum_);
    }

    [[nodiscard]] const choice& chosen() const noexcept { return choice_; }
    // Message lengths are multiples of this (IMB 2021: the size of the benchmark's datatype).
    [[nodiscard]] std::uint64_t unit(bool reduction) const noexcept {
        return check::element_bytes(reduction ? choice_.reduction : choice_.data);
    }
    [[nodiscard]] std::size_t spread() const noexcept { return resized() ? 2 : 1; }
    [[nodiscard]] bool user_op() const noexcept { return user_sum_ != MPI_OP_NULL; }

    // The operands for messages of x bytes (x a multiple of the unit, as the driver's lengths).
    [[nodiscard]] sized_datatypes at(std::size_t x) const {
        sized_operands o;
        o.spread = spread();
        o.op = user_op() ? user_sum_ : MPI_SUM;
        detail::owned_type data_vector;
        detail::owned_type reduction_vector;
        o.data = operand_of(choice_.data, data_resized_, x, data_vector);
        o.reduction = operand_of(choice_.reduction, reduction_resized_, x, reduction_vector);
        return {o, std::move(data_vector), std::move(reduction_vector)};
    }

    // The datatype as the JSON context names it: "MPI_INT", "MPI_INT resized (lb 4, extent 8)",
    // "vector of X/4 MPI_INT per message", ...
    [[nodiscard]] std::string description(bool reduction) const {
        const element_kind kind = reduction ? choice_.reduction : choice_.data;
        const std::string name = mpi_name(kind);
        const std::string bytes = std::to_string(check::element_bytes(kind));
        const std::string resized_name = name + " resized (lb " + bytes + ", extent " +
                                         std::to_string(2 * check::element_bytes(kind)) + ")";
        switch (choice_.contig) {
            case contig_type::base: return name;
            case contig_type::base_vec:
                return "MPI_Type_vector(X/" + bytes + ", 1, 1, " + name + "), count 1";
            case contig_type::resize: return resized_name;
            case contig_type::resize_vec:
                return "MPI_Type_vector(X/" + bytes + ", 1, 1, " + resized_name + "), count 1";
        }
        return name;
    }

private:
    [[nodiscard]] bool resized() const noexcept {
        return choice_.contig == contig_type::resize || choice_.contig == contig_type::resize_vec;
    }
    [[nodiscard]] bool vectors() const noexcept {
        return choice_.contig == contig_type::base_vec ||
               choice_.contig == contig_type::resize_vec;
    }
    [[nodiscard]] static detail::owned_type resized_of(element_kind kind) {
        const auto bytes = static_cast<MPI_Aint>(check::element_bytes(kind));
        MPI_Datatype t = MPI_DATATYPE_NULL;
        MPI_Type_create_resized(predefined(kind), bytes, 2 * bytes, &t);
        return detail::owned_type(t);
    }
    [[nodiscard]] operand operand_of(element_kind kind, const detail::owned_type& resized_type,
                                     std::size_t x, detail::owned_type& vector) const {
        const std::size_t bytes = check::element_bytes(kind);
        const int elements = static_cast<int>(x / bytes);
        operand o;
        o.layout = check::element_layout::of(kind, spread());
        o.type = resized() ? resized_type.get() : predefined(kind);
        o.count = elements;
        if (vectors() && elements > 0) {  // IMB 2021 keeps the element type for 0 bytes
            MPI_Datatype t = MPI_DATATYPE_NULL;
            MPI_Type_vector(elements, 1, 1, o.type, &t);
            vector = detail::owned_type(t);
            o.type = vector.get();
            o.count = 1;
            o.elements_per_item = elements;
        }
        return o;
    }

    choice choice_;
    detail::owned_type data_resized_;
    detail::owned_type reduction_resized_;
    MPI_Op user_sum_ = MPI_OP_NULL;
};

}  // namespace parbench::imb_mpi1
