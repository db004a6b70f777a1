// Pairing: who talks to whom inside a group of np processes, as data. Pure rank arithmetic, no
// MPI: kernels read it through their kernel_context, the runner never branches on it.
//
//   first_pair     0 <-> 1, every other process idle          (IMB PingPong, IMB-EXT/RMA Unidir)
//   halves         r <-> r + np/2, an odd last process idle   (IMB Uniband, PAW p2p_*, CAF)
//   chain          left (r-1) and right (r+1), periodic       (IMB Sendrecv/Exchange, RMA Exchange_*)
//   origin_to_all  rank 0 to every other rank, in rank order  (IMB-RMA One_*_all, *_all_local)
//   rotated_all    every rank to every other, step k reaching (r + 1 + k) mod np, so that no two
//                  origins start on the same target          (IMB-RMA All_*_all)
//   to_root        every rank to rank 0, rank 0 itself included (IMB-EXT Accumulate)
//
// An *initiator* is a process that issues operations in the first half of an iteration: the
// sender of a ping-pong, the origin of a one-sided transfer, the first half of PAW's tasks.
// `both_initiate` makes both sides of a pair initiators (IMB Bidir_*, PingPing).
#pragma once

#include <cstdint>
#include <string_view>

namespace parbench::pattern {

enum class pairing_kind { first_pair, halves, chain, origin_to_all, rotated_all, to_root };

struct pairing {
    pairing_kind kind = pairing_kind::first_pair;
    bool both_initiate = false;

    // The other process of this rank's pair; -1 when it has none (idle, or no pairs).
    [[nodiscard]] constexpr int partner(int rank, int np) const noexcept {
        switch (kind) {
            case pairing_kind::first_pair:
                return np >= 2 && rank < 2 ? 1 - rank : -1;
            case pairing_kind::halves: {
                const int half = np / 2;
                if (rank < half) return rank + half;
                if (rank < 2 * half) return rank - half;
                return -1;
            }
            case pairing_kind::chain:
            case pairing_kind::origin_to_all:
            case pairing_kind::rotated_all:
            case pairing_kind::to_root:
                return -1;
        }
        return -1;
    }

    // Whether this rank takes part at all.
    [[nodiscard]] constexpr bool active(int rank, int np) const noexcept {
        switch (kind) {
            case pairing_kind::first_pair:
            case pairing_kind::halves:
                return partner(rank, np) >= 0;
            case pairing_kind::chain:
            case pairing_kind::origin_to_all:
            case pairing_kind::rotated_all:
                return np >= 2 && rank >= 0 && rank < np;
            case pairing_kind::to_root:
                return rank >= 0 && rank < np;
        }
        return false;
    }

    // Whether this rank issues operations (see the file comment).
    [[nodiscard]] constexpr bool initiator(int rank, int np) const noexcept {
        switch (kind) {
            case pairing_kind::first_pair:
            case pairing_kind::halves:
                return active(rank, np) && (both_initiate || rank < partner(rank, np));
            case pairing_kind::origin_to_all:
                return np >= 2 && (rank == 0 || (both_initiate && rank < np));
            case pairing_kind::chain:
            case pairing_kind::rotated_all:
            case pairing_kind::to_root:
                return active(rank, np);
        }
        return false;
    }

    // How many targets an initiator addresses in one iteration (0 for a process that does not
    // initiate).
    [[nodiscard]] constexpr int target_count(int rank, int np) const noexcept {
        if (!initiator(rank, np)) return 0;
        switch (kind) {
            case pairing_kind::first_pair:
            case pairing_kind::halves:
            case pairing_kind::to_root:
                return 1;
            case pairing_kind::chain:
                return 2;
            case pairing_kind::origin_to_all:
            case pairing_kind::rotated_all:
                return np - 1;
        }
        return 0;
    }

    // Target number `step` (0 <= step < target_count) of this rank.
    [[nodiscard]] constexpr int target(int rank, int np, int step) const noexcept {
        switch (kind) {
            case pairing_kind::first_pair:
            case pairing_kind::halves:
                return partner(rank, np);
            case pairing_kind::chain:
                return step == 0 ? (rank - 1 + np) % np : (rank + 1) % np;
            case pairing_kind::origin_to_all:
                return step + 1 <= rank ? step : step + 1;  // every rank but this one, ascending
            case pairing_kind::rotated_all:
                return (rank + 1 + step) % np;
            case pairing_kind::to_root:
                return 0;
        }
        return -1;
    }
};

inline constexpr pairing first_pair{};
inline constexpr pairing halves{.kind = pairing_kind::halves};
inline constexpr pairing periodic_chain{.kind = pairing_kind::chain};
inline constexpr pairing origin_to_all{.kind = pairing_kind::origin_to_all};
inline constexpr pairing rotated_all{.kind = pairing_kind::rotated_all};
inline constexpr pairing to_root{.kind = pairing_kind::to_root};

[[nodiscard]] constexpr std::string_view to_string(pairing_kind k) noexcept {
    switch (k) {
        case pairing_kind::first_pair: return "first_pair";
        case pairing_kind::halves: return "halves";
        case pairing_kind::chain: return "chain";
        case pairing_kind::origin_to_all: return "origin_to_all";
        case pairing_kind::rotated_all: return "rotated_all";
        case pairing_kind::to_root: return "to_root";
    }
    return "first_pair";
}

}  // namespace parbench::pattern
