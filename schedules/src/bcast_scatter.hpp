#pragma once
// What the two long-message Bcasts of van de Geijn share (scatter-rd, bcast_scatter_rd.cpp;
// scatter-ring, bcast_scatter_ring.cpp), as MPICH builds them (v4.1.2,
// src/mpi/coll/bcast/bcast_utils.c, MPII_Scatter_for_bcast): the buffer is cut into
// c = ceil(bytes / p)-byte chunks, the ceil cut (CollectiveShape::cut), chunk i at offset i c,
// the last shorter; relative rank x = (rank - root) mod p ends the scatter with chunk x, and an
// allgather of the chunks follows. Relative rank x, chunk i and segment i are one numbering: a
// transfer's payload lists the chunks it carries.
//
// Only chunks that hold bytes are segments (ceil_cut_pieces(bytes, p) = q of them, q < p below
// p (p - 1) + 1 bytes): MPICH still sends a zero-byte message for an empty chunk in its
// allgathers, which the schedule leaves out (every task carries at least one byte), so below
// that size the schedule misses those messages' latency and the waits they impose.
//
// BcastProgram appends the transfers round by round and keeps, per rank, what the rank's next
// send waits for in each style. MPICH's calls block (MPIC_Send, MPIC_Recv, MPIC_Sendrecv), so a
// send waits for everything its rank did before:
//   mpi        the rank's receives since its previous send (delivered) and that send (sent);
//   nccl       the same, that send delivered (a round is one grouped call);
//   pipelined  only the receives that first brought the chunks it carries (the root starts
//              with all of them, so its sends wait for nothing): a rank forwards data as soon
//              as it has it.
// A receive in the same round as a send of its rank (a sendrecv) comes after that send.
#include <cstdint>
#include <span>
#include <vector>

#include "builder.hpp"
#include "piccolo/schedules/generate.hpp"

namespace piccolo::detail {

inline constexpr TaskId no_task = ScheduleBuilder::no_dep;

class BcastProgram {
  public:
    // track_deliveries: keep each receive's chunks for first_deliveries() (pipelined rd).
    BcastProgram(const GenerateRequest& request, bool track_deliveries);

    [[nodiscard]] std::int64_t ranks() const { return p_; }
    [[nodiscard]] std::uint32_t chunks() const { return q_; }  // q: the segments
    [[nodiscard]] Style style() const { return style_; }

    // MPII_Scatter_for_bcast: binomial rounds from mask M (the largest power of 2 below p) down
    // to 1; relative rank x, a multiple of 2 mask, sends chunks [x + mask, x + 2 mask) (those
    // below q) to x + mask, after its own receive. Non-empty chunks only: MPICH skips the send
    // when send_size <= 0.
    void scatter();
    // The scatter's receive of relative rank x (no_task for the root and ranks past q - 1).
    [[nodiscard]] TaskId scatter_receive(std::int64_t x) const;
    // x's chunks from the scatter: [x, x + lowbit(x)) below q (the root: all).
    [[nodiscard]] std::uint32_t scatter_end(std::int64_t x) const;

    // A send of chunks [first, last) (clipped to q; nothing when empty) from relative rank
    // `from` to `to` in the current round; `data`: what it waits for under the pipelined style.
    void send(std::int64_t from, std::int64_t to, std::uint32_t first, std::uint32_t last,
              std::span<const TaskId> data);
    // The task of the round's latest send (no_task when send() appended none).
    [[nodiscard]] TaskId last() const { return last_; }
    // Ends the round: its sends become their ranks' previous sends, its receives the
    // receivers' receives since.
    void end_round();

    // The receives that first brought x's chunks in [first, last) (track_deliveries), appended
    // to `out`; none for the root, which starts with every chunk.
    void first_deliveries(std::int64_t x, std::uint32_t first, std::uint32_t last,
                          std::vector<TaskId>& out) const;

    Schedule finish() && { return std::move(builder_).finish(); }

  private:
    struct Pending {
        TaskId task;
        std::int64_t from, to;
        std::uint32_t first, last;
    };
    // The chunks a receive added to its rank: what it held stays one interval [lo, hi), so
    // the part new to it is at most an interval on each side.
    struct Delivery {
        TaskId task;
        std::uint32_t first, last;
    };
    [[nodiscard]] Rank absolute(std::int64_t x) const {
        return static_cast<Rank>((x + root_) % p_);
    }
    void deliver(const Pending& r);

    ScheduleBuilder builder_;
    Style style_;
    std::int64_t p_;
    Rank root_;
    std::uint32_t q_;
    bool track_;
    std::vector<TaskId> previous_send_;             // per rank: its latest send
    std::vector<std::vector<TaskId>> since_;        // per rank: receives since that send
    std::vector<TaskId> scatter_receive_;           // per rank
    std::vector<std::uint32_t> lo_, hi_;            // track_: the chunks each rank holds
    std::vector<std::vector<Delivery>> delivered_;  // track_: per rank, new chunks per receive
    std::vector<Pending> round_;
    std::vector<std::uint32_t> pieces_;
    std::vector<TaskId> deps_, sent_;
    TaskId last_ = no_task;
};

}  // namespace piccolo::detail
