#include "piccolo/schedules/schedule.hpp"

#include <algorithm>
#include <stdexcept>

#include "piccolo/core/error.hpp"
#include "piccolo/core/text.hpp"

namespace piccolo {

std::string_view to_string(Collective collective) {
    switch (collective) {
        case Collective::allgather:
            return "allgather";
        case Collective::allreduce:
            return "allreduce";
        case Collective::bcast:
            return "bcast";
        case Collective::reduce:
            return "reduce";
        case Collective::reduce_scatter:
            return "reduce_scatter";
        case Collective::alltoall:
            return "alltoall";
    }
    return "?";
}

std::string_view size_meaning(Collective collective) {
    switch (collective) {
        case Collective::allgather:
            return "per-rank contribution";
        case Collective::allreduce:
            return "vector size";
        case Collective::bcast:
        case Collective::reduce:
            return "buffer size";
        case Collective::reduce_scatter:
            return "block each rank ends with";
        case Collective::alltoall:
            return "block each rank sends each rank";
    }
    return "?";
}

std::string_view to_string(TaskKind kind) {
    switch (kind) {
        case TaskKind::transfer:
            return "transfer";
        case TaskKind::reduce:
            return "reduce";
        case TaskKind::permute:
            return "permute";
        case TaskKind::copy:
            return "copy";
    }
    return "?";
}

Collective parse_collective(std::string_view name) {
    if (name == "allgather") return Collective::allgather;
    if (name == "allreduce") return Collective::allreduce;
    if (name == "bcast") return Collective::bcast;
    if (name == "reduce") return Collective::reduce;
    if (name == "reduce_scatter") return Collective::reduce_scatter;
    if (name == "alltoall") return Collective::alltoall;
    throw InputError("unknown collective '" + excerpt(name) +
                     "' (expected allgather, allreduce, bcast, reduce, reduce_scatter or alltoall)");
}

void throw_csr_too_long() {
    throw std::length_error("CSR list exceeds 2^32 items");
}

std::string_view to_string(Cut cut) {
    return cut == Cut::ceil ? "ceil" : "even";
}

std::uint64_t CollectiveShape::piece_bytes(std::uint32_t piece) const {
    if (pieces_follow_ranks(collective)) return bytes;
    if (cut == Cut::ceil) {  // c bytes from offset piece c; the last segment what is left
        const std::uint64_t chunk = ceil_cut_bytes(bytes, ranks);
        const std::uint64_t offset = std::uint64_t{piece} * chunk;
        return offset >= bytes ? 0 : std::min(chunk, bytes - offset);
    }
    // The first bytes % pieces segments get one extra byte, so sizes differ by at most one.
    const std::uint64_t base = bytes / pieces;
    return base + (piece < bytes % pieces ? 1 : 0);
}

bool CollectiveShape::cuts_at(std::uint64_t size) const {
    if (pieces_follow_ranks(collective)) return size > 0;
    if (cut == Cut::ceil) return size > 0 && ceil_cut_pieces(size, ranks) == pieces;
    return size >= pieces;
}

std::uint64_t CollectiveShape::pieces_bytes(std::span<const std::uint32_t> list) const {
    if (pieces_follow_ranks(collective)) return bytes * list.size();
    if (cut == Cut::ceil) {
        std::uint64_t sum = 0;
        for (std::uint32_t piece : list) sum += piece_bytes(piece);
        return sum;
    }
    // Closed form of piece_bytes' rule: base bytes each, one more for segments below `longer`.
    const std::uint64_t base = bytes / pieces, longer = bytes % pieces;
    std::uint64_t sum = base * list.size();
    if (longer > 0)
        for (std::uint32_t piece : list) sum += piece < longer ? 1 : 0;
    return sum;
}

std::uint64_t CollectiveShape::total_buffer_bytes() const {
    return pieces_follow_ranks(collective) ? bytes * static_cast<std::uint64_t>(ranks) : bytes;
}

std::size_t Schedule::transfer_count() const {
    std::size_t n = 0;
    for (TaskKind k : kind) n += k == TaskKind::transfer ? 1 : 0;
    return n;
}

namespace {

// The reverse of a dependency list of n tasks, over the tasks that lead their cohort, a row naming
// task t as `item[t]` (Joined), or over every task, naming t (plain).
template <bool Joined>
PackedRows reverse(const Csr<TaskId>& deps, std::size_t n,
                   std::span<const std::uint32_t> cohort = {},
                   std::span<const std::uint32_t> item = {}) {
    if (deps.rows() == 0) return {};  // no list at all: nothing to allocate or walk
    // Pointers in locals: the build's stores through byte pointers could alias `deps`' members.
    const std::uint32_t* const offsets = deps.offsets.data();
    const TaskId* const ids = deps.items.data();
    auto each = [=](auto emit) {
        for (std::size_t t = 0; t < n; ++t) {
            if (Joined && cohort[t] == 0) continue;
            const auto name = Joined ? item[t] : static_cast<TaskId>(t);
            for (std::uint32_t i = offsets[t]; i < offsets[t + 1]; ++i) emit(ids[i], name);
        }
    };
    auto rows_of = [=, count = deps.items.size()](auto visit) {
        if constexpr (Joined)
            each([&](std::uint32_t row, std::uint32_t) { visit(row); });
        else
            for (std::size_t i = 0; i < count; ++i) visit(ids[i]);
    };
    return PackedRows::build(n, rows_of, each);
}

// May task t continue the cohort that `leader` leads: the same first delivered dependency, or none
// delivered and some sent (Schedule::same_dependencies then compares the rows whole)? Read from
// the raw arrays: most neighbours differ in their first dependency (a ring's in every one), and
// this test is all that a schedule without cohorts pays, once per task.
bool may_join(const Schedule& s, std::size_t leader, std::size_t t) {
    const std::vector<std::uint32_t>& offsets = s.deps.offsets;
    const std::uint32_t begin = offsets[t];
    if (begin == offsets[t + 1]) return !s.sent_deps_of(static_cast<TaskId>(t)).empty();
    const std::uint32_t lead = offsets[leader];
    return lead != offsets[leader + 1] && s.deps.items[begin] == s.deps.items[lead];
}

// Per task, the length of the cohort of equal, non-empty dependency rows it leads (0: inside a
// cohort); empty when every cohort has one task.
std::vector<std::uint32_t> dependency_cohorts(const Schedule& s) {
    std::vector<std::uint32_t> cohort;
    const std::size_t n = s.size();
    // Until a cohort may start, every task leads its own: its neighbour is the leader.
    std::size_t t = 1;
    while (t < n && !may_join(s, t - 1, t)) ++t;
    for (std::size_t leader = t - 1; t < n; ++t) {
        if (may_join(s, leader, t) &&
            s.same_dependencies(static_cast<TaskId>(leader), static_cast<TaskId>(t))) {
            if (cohort.empty()) cohort.assign(n, 1);
            ++cohort[leader];
            cohort[t] = 0;
        } else {
            leader = t;
        }
    }
    return cohort;
}

}  // namespace

Schedule::Successors Schedule::successors() const {
    return {reverse<false>(deps, size()), reverse<false>(sent_deps, size()), {}, {}};
}

Schedule::Successors Schedule::joined_successors() const {
    std::vector<std::uint32_t> cohort = dependency_cohorts(*this);
    // Nothing joined (a ring): the plain lists, which name tasks directly. Waiter indices would
    // cost every release one more random read (the waiter's task) and save nothing.
    if (cohort.empty()) return successors();
    // The waiters: the tasks a list names (each leads its cohort and waits for something).
    std::vector<TaskId> waiters;
    std::vector<std::uint32_t> item(size(), 0);
    for (TaskId t = 0; t < size(); ++t) {
        if (!cohort.empty() && cohort[t] == 0) continue;
        if (deps.row(t).empty() && sent_deps_of(t).empty()) continue;
        item[t] = static_cast<std::uint32_t>(waiters.size());
        waiters.push_back(t);
    }
    Successors joined{reverse<true>(deps, size(), cohort, item),
                      reverse<true>(sent_deps, size(), cohort, item),
                      {},
                      {}};
    joined.cohort = std::move(cohort);
    joined.waiters = std::move(waiters);
    return joined;
}

}  // namespace piccolo
