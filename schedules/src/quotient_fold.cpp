// Folding a built schedule onto its representative ranks (quotient.hpp). The image of a task is
// the task at the same position in its rank's list (ranks run their tasks in id order), so a
// rank's tasks stand for the tasks of every rank of its orbit, in order.
#include <fmt/format.h>
#include <algorithm>
#include <vector>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/quotient.hpp"

namespace piccolo {

namespace {

class Folder {
  public:
    Folder(const Schedule& full, Rank c) : full_(full), c_(c), position_(full.size()) {
        const Rank p = full.shape.ranks;
        if (c < 1 || c >= p || p % c != 0)
            throw InputError(
                fmt::format("fold: {} representatives do not divide {} ranks into orbits", c, p));
        tasks_of_.resize(static_cast<std::size_t>(p));
        for (TaskId t = 0; t < full.size(); ++t) {
            position_[t] = static_cast<std::uint32_t>(tasks_of_[full.src[t]].size());
            tasks_of_[full.src[t]].push_back(t);
        }
        quotient_id_.assign(full.size(), ~TaskId{0});
        TaskId next = 0;
        for (TaskId t = 0; t < full.size(); ++t)
            if (full.src[t] < c) quotient_id_[t] = next++;
    }

    QuotientSchedule run() {
        for (TaskId t = 0; t < full_.size(); ++t) check(t);
        QuotientSchedule q;
        Schedule& s = q.schedule;
        s.shape = full_.shape;
        s.algorithm = full_.algorithm;
        s.k = full_.k;
        s.style = full_.style;
        s.size_values = full_.size_values;
        q.representatives = c_;
        const bool sent = full_.sent_deps.rows() > 0;
        for (TaskId t = 0; t < full_.size(); ++t) {
            if (full_.src[t] >= c_) continue;
            s.kind.push_back(full_.kind[t]);
            s.src.push_back(full_.src[t]);
            s.dst.push_back(full_.dst[t] % c_);
            s.size_class.push_back(full_.size_class[t]);
            q.destination.push_back(full_.dst[t]);
            q.full_id.push_back(t);
            for (TaskId d : folded(full_.deps.row(t))) s.deps.items.push_back(d);
            s.deps.close_row();
            if (sent) {
                for (TaskId d : folded(full_.sent_deps.row(t))) s.sent_deps.items.push_back(d);
                s.sent_deps.close_row();
            }
            if (full_.has_payload()) {
                const auto row = full_.payload.row(t);
                s.payload.items.insert(s.payload.items.end(), row.begin(), row.end());
                s.payload.close_row();
            }
        }
        if (full_.has_payload() && s.size() == 0) s.payload = {};
        return q;
    }

  private:
    // The quotient id of the representative of task t.
    [[nodiscard]] TaskId representative(TaskId t) const {
        const auto& list = tasks_of_[full_.src[t] % c_];
        return quotient_id_[list[position_[t]]];
    }
    [[nodiscard]] std::vector<TaskId> folded(std::span<const TaskId> deps) const {
        std::vector<TaskId> out;
        out.reserve(deps.size());
        for (TaskId d : deps) out.push_back(representative(d));
        std::sort(out.begin(), out.end());
        return out;
    }

    void check(TaskId t) const {
        const auto& list = tasks_of_[full_.src[t] % c_];
        if (list.size() != tasks_of_[full_.src[t]].size())
            fail(t, "its rank runs a different number of tasks than its representative");
        const TaskId r = list[position_[t]];
        if (full_.kind[r] != full_.kind[t] || full_.bytes(r) != full_.bytes(t))
            fail(t, "its kind or size differs from its representative's");
        if (full_.dst[r] % c_ != full_.dst[t] % c_)
            fail(t, "its destination is in another orbit than its representative's");
        if (folded(full_.deps.row(r)) != folded(full_.deps.row(t)) ||
            folded(full_.sent_deps_of(r)) != folded(full_.sent_deps_of(t)))
            fail(t, "its dependencies differ from its representative's");
    }

    [[noreturn]] void fail(TaskId t, const char* what) const {
        throw InputError(fmt::format(
            "fold: the schedule is not invariant over {} representatives: task {} ({} -> {}): {}",
            c_, full_.external_id(t), full_.src[t], full_.dst[t], what));
    }

    const Schedule& full_;
    Rank c_;
    std::vector<std::uint32_t> position_;        // per task: its index in its rank's list
    std::vector<std::vector<TaskId>> tasks_of_;  // per rank, in id order
    std::vector<TaskId> quotient_id_;            // per representative task
};

}  // namespace

QuotientSchedule fold_schedule(const Schedule& full, Rank representatives) {
    return Folder(full, representatives).run();
}

}  // namespace piccolo
