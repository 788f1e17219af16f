#pragma once
// A schedule compiled for one rank of an executor: where every block (Allgather) or segment
// (Allreduce) lives in the rank's memory, which local operations move or combine it, and which
// local operation waits for which. Nothing here talks to a network; the MPI executor only posts
// what the plan says, so the same plan could drive another transport.
//
// Memory: one arena per rank. Allgather: the result (p blocks in rank order) at offset 0, then,
// on a rank with a `permute`, the buffer its blocks arrive in before the permute (laid out so that
// the exchanges of the permuted algorithms stay contiguous), then staging areas. Allreduce: the
// rank's vector at offset 0, then one buffer per incoming transfer: received data lands in its own
// buffer, and a transfer that no `reduce` folds in becomes the rank's new copy of its segments
// (schedules/README.md, "The verifier").

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "piccolo/schedules/schedule.hpp"

namespace piccolo::exec {

// The element type an Allreduce sums. Segments are cut at byte granularity, so double and float
// are only possible when every segment holds whole elements; bytes add modulo 256.
enum class Element : std::uint8_t { f64, f32, u8 };
std::string_view to_string(Element element);
std::size_t element_bytes(Element element);
Element parse_element(std::string_view name);  // double, float, byte; throws InputError

// Bytes moved inside the arena: `bytes` from offset `from` to offset `to` (copy or reduce).
struct Stretch {
    std::uint64_t from = 0, to = 0, bytes = 0;
};

enum class OpKind : std::uint8_t { send, recv, compute };

struct LocalOp {
    OpKind kind = OpKind::compute;
    TaskKind task_kind = TaskKind::transfer;
    TaskId task = 0;
    Rank peer = -1;            // send, recv
    int tag = 0;               // send, recv: the transfer's ordinal between its two ranks
    std::uint64_t offset = 0;  // send: source, recv: target (a staging area when unpacking)
    std::uint64_t bytes = 0;   // send, recv
    // A local task waits for this send's delivery, not just for its buffer to be free: MPI's
    // synchronous send completes once the receiver has matched it, the closest local event.
    bool synchronous = false;
    std::vector<Stretch> copies;   // send: pack into `offset` first; recv: unpack after; compute
    std::vector<Stretch> reduces;  // compute: to += from, element by element
};

struct RankPlan {
    Rank rank = 0;
    CollectiveShape shape;
    Element element = Element::u8;
    std::uint64_t arena_bytes = 0;
    std::vector<LocalOp> ops;
    Csr<std::uint32_t> successors;     // per op: the local ops that wait for it
    std::vector<std::uint32_t> waits;  // per op: how many local completions it waits for
    std::vector<std::uint32_t> ready_at_start;
    // Where the rank's input goes and where the result is read, as stretches from the collective's
    // global image (Allgather: block b at b * bytes; Allreduce: the vector) into the arena.
    std::vector<Stretch> input;
    std::vector<Stretch> result;
    std::uint64_t staged_bytes = 0;  // bytes packed or unpacked per run (what contiguity costs)
    // Dependencies on tasks that do not involve this rank, which it cannot observe and skips
    // (they order nothing this rank's data depends on; see plan.cpp).
    std::uint32_t dropped_waits = 0;
};

// Element::u8 for Allgather; for Allreduce `wanted`, or without it the widest element every
// segment holds whole. Throws InputError when `wanted` does not fit the segments.
Element choose_element(const CollectiveShape& shape, std::optional<Element> wanted);

// Compiles `schedule` (verified structurally; `order` a topological order from
// verify_structure) for `rank`. Throws InputError when the schedule cannot be executed: no
// payload, a piece sent before it is held, a compute the executor has no meaning for.
RankPlan compile_plan(const Schedule& schedule, const std::vector<TaskId>& order, Rank rank,
                      Element element);

}  // namespace piccolo::exec
