#pragma once
// The schedule IR: a DAG of transfer and compute tasks stored flat (structure of arrays, CSR
// dependency lists) so that the verifier and the engine walk contiguous memory.
//
// A transfer has two completion events: *sent* (the source may reuse its buffer: an eager send
// once its last byte has left, a rendezvous send once the receiver has taken the data) and
// *delivered* (the data is usable at the destination). `deps` wait for delivered transfers
// (and completed computes); `sent_deps` wait for sent transfers, which is how MPI's Waitall on
// its own sends completes. A sent dependency delivers no data.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "piccolo/schedules/packed_rows.hpp"

namespace piccolo {

using Rank = std::int32_t;
using TaskId = std::uint32_t;  // dense index of a task inside its schedule

// bcast and reduce are rooted (CollectiveShape::root): their `bytes` is the whole buffer (the
// count of MPI_Bcast / MPI_Reduce), cut into segments as an Allreduce's vector.
// reduce_scatter: MPI_Reduce_scatter_block (equal blocks); alltoall: MPI_Alltoall.
enum class Collective : std::uint8_t { allgather, allreduce, bcast, reduce, reduce_scatter, alltoall };
inline constexpr Collective all_collectives[] = {Collective::allgather,      Collective::allreduce,
                                                 Collective::bcast,          Collective::reduce,
                                                 Collective::reduce_scatter, Collective::alltoall};

// Does the collective move blocks (allgather, alltoall) rather than segments of one buffer?
constexpr bool moves_blocks(Collective c) {
    return c == Collective::allgather || c == Collective::alltoall;
}
// Are the collective's pieces fixed by p (allgather, reduce_scatter, alltoall) rather than the
// schedule's choice of segments (allreduce, bcast, reduce)?
constexpr bool pieces_follow_ranks(Collective c) {
    return c == Collective::allgather || c == Collective::reduce_scatter ||
           c == Collective::alltoall;
}
// The pieces of a collective of p ranks whose pieces follow from p (pieces_follow_ranks): a
// block per rank, a segment per rank (reduce_scatter), a block per (source, destination) pair
// (alltoall, block s p + d goes from s to d).
constexpr std::uint32_t pieces_of(Collective c, std::int32_t p) {
    const auto n = static_cast<std::uint32_t>(p);
    return c == Collective::alltoall ? n * n : n;
}

// How a buffer cut into segments (Allreduce, Bcast, Reduce: not pieces_follow_ranks) is cut.
//   even: `pieces` segments whose sizes differ by at most one byte, the longer ones first.
//   ceil: MPICH's scatter for Bcast (MPII_Scatter_for_bcast, src/mpi/coll/bcast/bcast_utils.c,
//         v4.1.2): segment i is bytes [i c, min((i + 1) c, bytes)) with c = ceil(bytes / ranks),
//         so the last is shorter and, at small sizes, the last ranks' would be empty. Only the
//         segments that hold bytes exist: `pieces` = ceil_cut_pieces(bytes, ranks) <= ranks.
enum class Cut : std::uint8_t { even, ceil };
std::string_view to_string(Cut cut);

// ceil(bytes / p): the bytes of every ceil-cut segment but the last.
constexpr std::uint64_t ceil_cut_bytes(std::uint64_t bytes, std::int32_t p) {
    const auto n = static_cast<std::uint64_t>(p);
    return bytes / n + (bytes % n != 0 ? 1 : 0);
}
// The segments of a ceil cut that hold bytes: ceil(bytes / ceil(bytes / p)); p when bytes is a
// multiple of p or above p (p - 1), fewer below (7 bytes over 5 ranks: 2, 2, 2, 1).
constexpr std::uint32_t ceil_cut_pieces(std::uint64_t bytes, std::int32_t p) {
    const std::uint64_t chunk = ceil_cut_bytes(bytes, p);
    return chunk == 0 ? 0 : static_cast<std::uint32_t>(bytes / chunk + (bytes % chunk != 0 ? 1 : 0));
}

// A transfer moves bytes between two ranks; the others are local work on one rank.
enum class TaskKind : std::uint8_t { transfer, reduce, permute, copy };

std::string_view to_string(Collective collective);
// What a collective's size means (each library's count of it, CollectiveShape::bytes): "per-rank
// contribution" (allgather), "vector size" (allreduce), "buffer size" (bcast, reduce), "block
// each rank ends with" (reduce_scatter), "block each rank sends each rank" (alltoall).
std::string_view size_meaning(Collective collective);
std::string_view to_string(TaskKind kind);
Collective parse_collective(std::string_view name);  // throws InputError

[[noreturn]] void throw_csr_too_long();  // std::length_error: a list past 2^32 items

// Rows of variable length stored back to back: row i is items[offsets[i], offsets[i+1]).
template <class T>
struct Csr {
    std::vector<std::uint32_t> offsets{0};
    std::vector<T> items;

    [[nodiscard]] std::size_t rows() const { return offsets.size() - 1; }
    [[nodiscard]] std::span<const T> row(std::size_t i) const {
        return {items.data() + offsets[i], items.data() + offsets[i + 1]};
    }
    // Ends the row whose items were appended since the previous close_row(). Inline: the
    // generators call it for every task.
    void close_row() {
        if (items.size() > max_items) [[unlikely]]
            throw_csr_too_long();
        offsets.push_back(static_cast<std::uint32_t>(items.size()));
    }
    static constexpr std::size_t max_items = 0xFFFFFFFF;  // offsets are 32-bit
    void reserve(std::size_t rows, std::size_t total_items) {
        offsets.reserve(rows + 1);
        items.reserve(total_items);
    }
};

// What one collective instance needs: the data it starts from and the result it must produce.
// Allgather: `pieces` blocks of `bytes` each (block b starts on rank b). Allreduce (and the rooted
// Bcast and Reduce): the `bytes`-byte vector is cut into `pieces` segments as `cut` says (even:
// sizes differ by at most one byte; ceil: MPICH's scatter chunks, Bcast's scatter-rd and
// scatter-ring).
// Reduce_scatter: p segments of `bytes` each (MPI_Reduce_scatter_block's recvcount: the vector is
// p bytes long; rank r ends with the sum of segment r). Alltoall: p^2 blocks of `bytes` each
// (MPI_Alltoall's sendcount: what each rank sends each rank).
struct CollectiveShape {
    Collective collective = Collective::allgather;
    Rank ranks = 0;
    std::uint64_t bytes = 0;   // per-rank contribution / block, or the whole buffer (see above)
    std::uint32_t pieces = 0;  // blocks (allgather, alltoall), segments (the others)
    Rank root = 0;             // bcast, reduce: the rank that has (bcast) or gets (reduce) it all
    Cut cut = Cut::even;       // how a buffer is cut into segments (not pieces_follow_ranks)

    [[nodiscard]] std::uint64_t piece_bytes(std::uint32_t piece) const;
    // The bytes of a message carrying these pieces (the sum of their piece_bytes).
    [[nodiscard]] std::uint64_t pieces_bytes(std::span<const std::uint32_t> list) const;
    [[nodiscard]] std::uint64_t total_buffer_bytes() const;  // PICCL's buffer_size
    // Is every piece `bytes` long at every size (the blocks and segments that follow from p, an
    // Allreduce, Bcast or Reduce of one segment), so that every message is a whole number of `bytes` and resizing scales tasks of
    // one size together? An Allreduce cut into segments is not: at a size that is not a
    // multiple of `pieces`, its segments differ by a byte.
    [[nodiscard]] bool pieces_are_whole() const {
        return pieces_follow_ranks(collective) || pieces == 1;
    }
    // Can this shape be cut at `bytes` into the same pieces (set_message_size)? Blocks: at any
    // size; an even cut: at least a byte per segment; a ceil cut: where it has as many segments
    // that hold bytes (ceil_cut_pieces), so that every transfer keeps at least a byte.
    [[nodiscard]] bool cuts_at(std::uint64_t size) const;
};

class Schedule {
  public:
    CollectiveShape shape;
    std::string algorithm;  // registry name, or whatever a PICCL file called it
    int k = 0;              // radix; 0 when the algorithm has none

    // One entry per task. For compute tasks src == dst == the rank doing the work.
    std::vector<TaskKind> kind;
    std::vector<Rank> src;
    std::vector<Rank> dst;
    std::vector<std::uint32_t> size_class;   // index into size_values
    std::vector<std::uint64_t> size_values;  // distinct task sizes in bytes
    Csr<TaskId> deps;       // tasks that must be delivered / complete before this one starts
    Csr<TaskId> sent_deps;  // transfers that must be sent; no rows at all when none has any
    // Which blocks (allgather) or segments (allreduce) a task carries or works on. Either
    // absent for every task (payload.rows() == 0) or present for every task.
    Csr<std::uint32_t> payload;
    // Ids as written in an XML file when they are not 0..n-1 (PICCL files may skip numbers);
    // empty when task i has id i.
    std::vector<std::int64_t> external_ids;
    // How the schedule synchronizes its rounds (generate.hpp's Style names); empty for files
    // that do not say (PICCL's).
    std::string style;

    [[nodiscard]] std::size_t size() const { return kind.size(); }
    [[nodiscard]] std::uint64_t bytes(TaskId t) const { return size_values[size_class[t]]; }
    [[nodiscard]] bool has_payload() const { return payload.rows() == size(); }
    [[nodiscard]] std::int64_t external_id(TaskId t) const {
        return external_ids.empty() ? static_cast<std::int64_t>(t) : external_ids[t];
    }
    [[nodiscard]] std::span<const TaskId> sent_deps_of(TaskId t) const {
        return sent_deps.rows() == 0 ? std::span<const TaskId>() : sent_deps.row(t);
    }
    [[nodiscard]] std::size_t transfer_count() const;
    // Do tasks a and b wait for the same tasks, delivered and sent, in the same order?
    [[nodiscard]] bool same_dependencies(TaskId a, TaskId b) const {
        return same_ids(deps.row(a), deps.row(b)) && same_ids(sent_deps_of(a), sent_deps_of(b));
    }

    // Successor lists (the reverse of deps and of sent_deps), built on demand, their rows in
    // ascending order.
    struct Successors {
        PackedRows delivered;  // tasks that list this one in deps
        PackedRows sent;       // tasks that list this one in sent_deps; rows() == 0 when none do
        // Empty, or (joined_successors()) per task: the length of the cohort of consecutive tasks
        // it leads that wait for exactly the same dependencies, 0 for the cohort's other tasks. The
        // lists then name the leaders only: a cohort becomes ready as one.
        std::vector<std::uint32_t> cohort;
        // Empty, or (joined_successors()) the tasks the lists name, in task order: the lists'
        // items are then indices into it. A replay keeps its per-waiter state in that dense
        // order, a few bytes per waiting cohort instead of per task, and so mostly in cache.
        std::vector<TaskId> waiters;
        // The task that an item of the lists names.
        [[nodiscard]] TaskId task_of(std::uint32_t item) const {
            return waiters.empty() ? item : waiters[item];
        }
    };
    [[nodiscard]] Successors successors() const;
    // The same, with every cohort of consecutive tasks whose deps and sent_deps rows are equal and
    // not empty listed once, by its first task: the sends of one round of a round-synchronous
    // exchange share their dependencies, so their successor lists shrink by the round's sends.
    // Where no two such tasks are neighbours, successors() itself (`cohort` and `waiters` empty).
    [[nodiscard]] Successors joined_successors() const;

  private:
    // Inline and by hand, not std::ranges::equal: its memcmp call costs more than the one or two
    // ids a row mostly holds, and a sweep compares every task with its neighbour.
    static bool same_ids(std::span<const TaskId> x, std::span<const TaskId> y) {
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (x[i] != y[i]) return false;
        return true;
    }
};

}  // namespace piccolo
