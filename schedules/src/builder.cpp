#include "builder.hpp"

#include <algorithm>
#include <numeric>

namespace piccolo::detail {

ScheduleBuilder::ScheduleBuilder(CollectiveShape shape, std::string algorithm, int k,
                                 bool with_payload, Style style)
    : with_payload_(with_payload) {
    schedule_.shape = shape;
    schedule_.algorithm = std::move(algorithm);
    schedule_.k = k;
    schedule_.style = std::string(to_string(style));
}

void ScheduleBuilder::reserve(std::size_t tasks, std::size_t deps) {
    schedule_.kind.reserve(tasks);
    schedule_.src.reserve(tasks);
    schedule_.dst.reserve(tasks);
    schedule_.size_class.reserve(tasks);
    schedule_.deps.reserve(tasks, deps);
    if (with_payload_) schedule_.payload.offsets.reserve(tasks + 1);
}

std::uint32_t ScheduleBuilder::intern_new_size(std::uint64_t bytes) {
    auto [it, inserted] =
        size_index_.try_emplace(bytes, static_cast<std::uint32_t>(schedule_.size_values.size()));
    if (inserted) schedule_.size_values.push_back(bytes);
    last_class_ = it->second;
    return it->second;
}

TaskId ScheduleBuilder::append(TaskKind kind, Rank from, Rank to, std::uint64_t bytes,
                               std::span<const std::uint32_t> pieces, std::span<const TaskId> deps,
                               std::span<const TaskId> sent) {
    const auto id = static_cast<TaskId>(schedule_.size());
    schedule_.kind.push_back(kind);
    schedule_.src.push_back(from);
    schedule_.dst.push_back(to);
    schedule_.size_class.push_back(intern_size(bytes));
    append_row(schedule_.deps, deps);
    if (sent_started_ || !sent.empty()) append_sent(id, sent);
    if (with_payload_) {
        schedule_.payload.items.insert(schedule_.payload.items.end(), pieces.begin(), pieces.end());
        schedule_.payload.close_row();
    }
    return id;
}

// The sent-dependency rows start at the first task that has one (earlier rows are empty), so
// that styles without sent dependencies build none.
void ScheduleBuilder::append_sent(TaskId id, std::span<const TaskId> sent) {
    Csr<TaskId>& rows = schedule_.sent_deps;
    if (!sent_started_) {
        if (std::none_of(sent.begin(), sent.end(), [](TaskId d) { return d != no_dep; })) return;
        // The reservation of reserve() covers both lists: untouched capacity costs no memory,
        // while growing a list of millions of rows by doubling copies it and faults its pages.
        rows.offsets.reserve(schedule_.kind.capacity() + 1);
        rows.items.reserve(schedule_.deps.items.capacity());
        rows.offsets.assign(std::size_t{id} + 1, 0);
        sent_started_ = true;
    }
    append_row(rows, sent);
}

// In bulk, then without the no_dep entries (k-ring and the quotients pass some): a
// round-synchronous round's sends each list the whole previous round (2 (k - 1) ids under nccl),
// and a push per id cost about 13 instructions where the copy and the scan for no_dep cost about
// 5 (rm with k = 49 at 75,264 ranks lists 559 M).
void ScheduleBuilder::append_row(Csr<TaskId>& rows, std::span<const TaskId> ids) {
    const auto row_start = static_cast<std::ptrdiff_t>(rows.items.size());
    rows.items.insert(rows.items.end(), ids.begin(), ids.end());
    rows.items.erase(std::remove(rows.items.begin() + row_start, rows.items.end(), no_dep),
                     rows.items.end());
    rows.close_row();
}

TaskId ScheduleBuilder::transfer(Rank from, Rank to, std::span<const std::uint32_t> pieces,
                                 std::span<const TaskId> deps, std::span<const TaskId> sent) {
    return append(TaskKind::transfer, from, to, schedule_.shape.pieces_bytes(pieces), pieces, deps,
                  sent);
}

TaskId ScheduleBuilder::compute(TaskKind kind, Rank rank, std::uint64_t bytes,
                                std::span<const std::uint32_t> pieces, std::span<const TaskId> deps,
                                std::span<const TaskId> sent) {
    return append(kind, rank, rank, bytes, pieces, deps, sent);
}

Schedule ScheduleBuilder::finish() && {
    if (!with_payload_) schedule_.payload = {};
    if (schedule_.sent_deps.items.empty()) {
        schedule_.sent_deps = {};  // no row at all: no cost
    } else {
        schedule_.sent_deps.offsets.resize(schedule_.size() + 1,
                                           schedule_.sent_deps.offsets.back());
    }
    return std::move(schedule_);
}

}  // namespace piccolo::detail
