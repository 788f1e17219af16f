#pragma once
// Internal to the plan compiler: the per-collective data layouts and what they share.

#include <vector>

#include "piccolo/executor/plan.hpp"

namespace piccolo::exec::detail {

// Hands out 64-byte aligned areas of the rank's arena.
class Arena {
  public:
    std::uint64_t allocate(std::uint64_t bytes) {
        const std::uint64_t start = (end_ + 63) / 64 * 64;
        end_ = start + bytes;
        return start;
    }
    [[nodiscard]] std::uint64_t size() const { return end_; }

  private:
    std::uint64_t end_ = 0;
};

inline LocalOp make_op(OpKind kind, TaskKind task_kind, TaskId task, Rank peer = -1,
                       std::uint64_t bytes = 0) {
    LocalOp op;
    op.kind = kind;
    op.task_kind = task_kind;
    op.task = task;
    op.peer = peer;
    op.bytes = bytes;
    return op;
}

// Appends a stretch, merging it into the previous one when both continue each other.
void append_stretch(std::vector<Stretch>& stretches, Stretch stretch);

// A send reads its pieces from `reads`: from where they lie when that is one stretch, else from a
// staging area of the arena the pieces are copied into first (counted in `staged_bytes`).
void stage_reads(LocalOp& op, const std::vector<Stretch>& reads, Arena& arena,
                 std::uint64_t& staged_bytes);

// What a data layout decides: one op per task that involves the rank (kind, task, peer, offset,
// bytes, copies, reduces), plus the input, result and arena size. Tags and waits come later.
struct Layout {
    std::vector<LocalOp> ops;
    std::vector<Stretch> input, result;
    std::uint64_t arena_bytes = 0;
    std::uint64_t staged_bytes = 0;
};

Layout layout_allgather(const Schedule& s, const std::vector<TaskId>& order, Rank me);
// Also Reduce_scatter (the vector is p blocks; the result is the rank's own block).
Layout layout_allreduce(const Schedule& s, const std::vector<TaskId>& order, Rank me);
Layout layout_alltoall(const Schedule& s, const std::vector<TaskId>& order, Rank me);

}  // namespace piccolo::exec::detail
