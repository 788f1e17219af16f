#pragma once
// Internal helper for generators: appends tasks to a Schedule, interning sizes and computing a
// transfer's byte count from the pieces it carries so that sizes are never rounded.

#include <initializer_list>
#include <span>
#include <unordered_map>
#include <vector>

#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/schedule.hpp"

namespace piccolo::detail {

class ScheduleBuilder {
  public:
    ScheduleBuilder(CollectiveShape shape, std::string algorithm, int k, bool with_payload,
                    Style style);

    // bytes = sum of the pieces' sizes. Dependency lists may contain no_dep entries, which are
    // skipped; `sent` lists transfers whose send (not delivery) is awaited.
    TaskId transfer(Rank from, Rank to, std::span<const std::uint32_t> pieces,
                    std::span<const TaskId> deps, std::span<const TaskId> sent = {});
    TaskId transfer(Rank from, Rank to, std::span<const std::uint32_t> pieces,
                    std::initializer_list<TaskId> deps) {
        return transfer(from, to, pieces, std::span<const TaskId>(deps.begin(), deps.size()));
    }
    // For generators that know the byte count without listing pieces (payload-free schedules).
    TaskId transfer_bytes(Rank from, Rank to, std::uint64_t bytes,
                          std::span<const std::uint32_t> pieces, std::span<const TaskId> deps,
                          std::span<const TaskId> sent = {}) {
        return append(TaskKind::transfer, from, to, bytes, pieces, deps, sent);
    }
    [[nodiscard]] bool with_payload() const { return with_payload_; }
    TaskId compute(TaskKind kind, Rank rank, std::uint64_t bytes,
                   std::span<const std::uint32_t> pieces, std::span<const TaskId> deps,
                   std::span<const TaskId> sent = {});

    [[nodiscard]] std::size_t size() const { return schedule_.size(); }
    [[nodiscard]] const CollectiveShape& shape() const { return schedule_.shape; }
    void reserve(std::size_t tasks, std::size_t deps);
    Schedule finish() &&;

    static constexpr TaskId no_dep = ~TaskId{0};

  private:
    TaskId append(TaskKind kind, Rank from, Rank to, std::uint64_t bytes,
                  std::span<const std::uint32_t> pieces, std::span<const TaskId> deps,
                  std::span<const TaskId> sent);
    // Consecutive tasks mostly share a size (a round of an algorithm): no hash lookup then.
    std::uint32_t intern_size(std::uint64_t bytes) {
        if (!schedule_.size_values.empty() && schedule_.size_values[last_class_] == bytes)
            return last_class_;
        return intern_new_size(bytes);
    }
    std::uint32_t intern_new_size(std::uint64_t bytes);
    void append_sent(TaskId id, std::span<const TaskId> sent);
    static void append_row(Csr<TaskId>& rows, std::span<const TaskId> ids);

    Schedule schedule_;
    bool with_payload_;
    std::unordered_map<std::uint64_t, std::uint32_t> size_index_;
    std::uint32_t last_class_ = 0;
    bool sent_started_ = false;  // has a task had a sent dependency yet?
};

// What a rank's next round waits for under a style, given its previous round's receives and
// sends (see Style): the receives always, its own sends delivered, sent, or not at all.
struct RoundWait {
    std::vector<TaskId> deps, sent;
    void set(Style style, std::span<const TaskId> receives, std::span<const TaskId> sends);
};

// Inline: generators call it for every transfer.
inline void RoundWait::set(Style style, std::span<const TaskId> receives,
                           std::span<const TaskId> sends) {
    // Element by element: the lists hold one or two ids, where a library copy is a call.
    deps.clear();
    sent.clear();
    for (TaskId t : receives) deps.push_back(t);
    switch (style) {
        case Style::nccl:
            for (TaskId t : sends) deps.push_back(t);
            break;
        case Style::mpi:
            for (TaskId t : sends) sent.push_back(t);
            break;
        case Style::pipelined:
            break;
    }
}

}  // namespace piccolo::detail
