// The data-flow proof. Tasks are replayed once in topological order while the verifier tracks,
// for every rank, which task last put each block (allgather) or partial sum (allreduce) there.
// Whenever a task uses data at rank r, the task that put it there must be in the using task's
// rank-local dependency closure (see verify.hpp); a backwards search from the using task, pruned
// below the topological position of the oldest writer it looks for, decides that in a few steps
// for every generated schedule.
//
// Allreduce values are sets of contributing ranks (bitsets). A transfer that some `reduce` on the
// receiving rank depends on delivers an operand; the reduce adds every operand it depends on into
// the rank's partial sum and fails if a rank's contribution would be counted twice. Any other
// transfer delivers a copy that replaces the partial sum, and fails if that loses contributions.
// A reduce changes the partial sum in place, so every earlier reader of it must be in the
// reduce's closure (write-after-read). Received data lands in its own buffer: a copy starts a
// new version and does not race with readers of the old one.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <memory>

#include "piccolo/schedules/verify.hpp"

namespace piccolo {

namespace {

constexpr TaskId nobody = ~TaskId{0};         // no task ever put the data on this rank
constexpr TaskId initially = ~TaskId{0} - 1;  // the rank started with it

class Bitset {
  public:
    explicit Bitset(std::size_t bits) : words_((bits + 63) / 64, 0) {}
    void set(std::size_t i) { words_[i / 64] |= std::uint64_t{1} << (i % 64); }
    [[nodiscard]] bool test(std::size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
    [[nodiscard]] bool intersects(const Bitset& o) const {
        for (std::size_t w = 0; w < words_.size(); ++w)
            if (words_[w] & o.words_[w]) return true;
        return false;
    }
    [[nodiscard]] bool contains(const Bitset& o) const {
        for (std::size_t w = 0; w < words_.size(); ++w)
            if (o.words_[w] & ~words_[w]) return false;
        return true;
    }
    void unite(const Bitset& o) {
        for (std::size_t w = 0; w < words_.size(); ++w) words_[w] |= o.words_[w];
    }
    // Up to `limit` members of this set that are not in `o`.
    [[nodiscard]] std::vector<std::size_t> missing_from(const Bitset& o, std::size_t bits,
                                                        std::size_t limit = 4) const {
        std::vector<std::size_t> out;
        for (std::size_t i = 0; i < bits && out.size() < limit; ++i)
            if (test(i) && !o.test(i)) out.push_back(i);
        return out;
    }
    [[nodiscard]] std::vector<std::size_t> common_with(const Bitset& o, std::size_t bits) const {
        std::vector<std::size_t> out;
        for (std::size_t i = 0; i < bits && out.size() < 4; ++i)
            if (test(i) && o.test(i)) out.push_back(i);
        return out;
    }

  private:
    std::vector<std::uint64_t> words_;
};

using Value = std::shared_ptr<const Bitset>;

class DataFlowProof {
  public:
    DataFlowProof(const Schedule& s, const std::vector<TaskId>& order)
        : s_(s),
          order_(order),
          p_(s.shape.ranks),
          pieces_(s.shape.pieces),
          position_(s.size()),
          visited_(s.size(), 0),
          writer_(static_cast<std::size_t>(p_) * pieces_, nobody) {
        for (std::size_t i = 0; i < order.size(); ++i) position_[order[i]] = i;
    }

    std::optional<Violation> run() {
        if (s_.shape.collective == Collective::allgather) {
            for (Rank r = 0; r < p_; ++r) writer(r, static_cast<std::uint32_t>(r)) = initially;
        } else if (s_.shape.collective == Collective::alltoall) {  // rank s holds blocks s p + d
            for (Rank r = 0; r < p_; ++r)
                for (Rank d = 0; d < p_; ++d) writer(r, alltoall_block(r, d)) = initially;
        } else if (copies_only()) {  // bcast: the root starts with every segment
            for (std::uint32_t seg = 0; seg < pieces_; ++seg)
                writer(s_.shape.root, seg) = initially;
        } else {
            for (Rank r = 0; r < p_; ++r)
                for (std::uint32_t seg = 0; seg < pieces_; ++seg) writer(r, seg) = initially;
            mark_operands();
        }
        for (TaskId t : order_) {
            std::optional<Violation> v;
            if (s_.kind[t] == TaskKind::transfer)
                v = copies_only() ? gather_transfer(t) : reduce_transfer(t);
            else if (s_.kind[t] == TaskKind::reduce && !copies_only())
                v = reduce(t);
            else
                v = reads_everything(t);
            if (v) return v;
        }
        return final_state();
    }

  private:
    // Allgather, Alltoall and Bcast only move data (a piece is held or not); Allreduce, Reduce
    // and Reduce_scatter sum it.
    [[nodiscard]] bool copies_only() const {
        return moves_blocks(s_.shape.collective) || s_.shape.collective == Collective::bcast;
    }
    [[nodiscard]] std::uint32_t alltoall_block(Rank from, Rank to) const {
        return static_cast<std::uint32_t>(from) * static_cast<std::uint32_t>(p_) +
               static_cast<std::uint32_t>(to);
    }
    TaskId& writer(Rank r, std::uint32_t piece) {
        return writer_[static_cast<std::size_t>(r) * pieces_ + piece];
    }
    [[nodiscard]] bool involves(TaskId t, Rank r) const { return s_.src[t] == r || s_.dst[t] == r; }
    [[nodiscard]] std::string name(TaskId t) const {
        if (s_.kind[t] == TaskKind::transfer)
            return fmt::format("task id={} (transfer {}->{})", s_.external_id(t), s_.src[t],
                               s_.dst[t]);
        return fmt::format("task id={} ({} on rank {})", s_.external_id(t), to_string(s_.kind[t]),
                           s_.src[t]);
    }
    [[nodiscard]] std::string_view piece_word() const {
        return moves_blocks(s_.shape.collective) ? "block" : "segment";
    }

    // Is every task in `writers` reachable backwards from `user` through tasks on `rank`?
    // Returns the first writer that is not. A sent dependency leads only to a send of `rank`
    // itself: that send has started (so its own dependencies are done), but a transfer into
    // `rank` that is merely sent has delivered nothing.
    std::optional<TaskId> unreached(TaskId user, Rank rank, std::span<const TaskId> writers) {
        std::size_t oldest = position_[user];
        std::size_t wanted = 0;
        for (TaskId w : writers)
            if (w != initially) {
                oldest = std::min(oldest, position_[w]);
                ++wanted;
            }
        if (wanted == 0) return std::nullopt;
        ++epoch_;
        stack_.assign(1, user);
        visited_[user] = epoch_;
        while (!stack_.empty()) {
            const TaskId t = stack_.back();
            stack_.pop_back();
            for (TaskId d : s_.deps.row(t)) {
                if (visited_[d] == epoch_ || position_[d] < oldest || !involves(d, rank)) continue;
                visited_[d] = epoch_;
                stack_.push_back(d);
            }
            for (TaskId d : s_.sent_deps_of(t)) {
                if (visited_[d] == epoch_ || position_[d] < oldest || s_.src[d] != rank) continue;
                visited_[d] = epoch_;
                stack_.push_back(d);
            }
        }
        for (TaskId w : writers)
            if (w != initially && visited_[w] != epoch_) return w;
        return std::nullopt;
    }

    std::optional<Violation> race(TaskId user, Rank rank, std::uint32_t piece, TaskId w) const {
        return Violation{user, fmt::format("{}: uses {} {} on rank {}, but {} that put it there is "
                                           "not in its dependency closure (missing dependency)",
                                           name(user), piece_word(), piece, rank, name(w))};
    }

    std::optional<Violation> check_reads(TaskId t, Rank rank,
                                         std::span<const std::uint32_t> pieces) {
        writers_.clear();
        for (std::uint32_t piece : pieces) {
            const TaskId w = writer(rank, piece);
            if (w == nobody && first_delivery(rank, piece) != nobody)
                return race(t, rank, piece, first_delivery(rank, piece));
            if (w == nobody)
                return Violation{t, fmt::format("{}: rank {} does not hold {} {}: no task ever "
                                                "delivers it there",
                                                name(t), rank, piece_word(), piece)};
            writers_.push_back(w);
        }
        std::sort(writers_.begin(), writers_.end());
        writers_.erase(std::unique(writers_.begin(), writers_.end()), writers_.end());
        if (const auto w = unreached(t, rank, writers_)) {
            for (std::uint32_t piece : pieces)
                if (writer(rank, piece) == *w) return race(t, rank, piece, *w);
        }
        return std::nullopt;
    }

    std::optional<Violation> gather_transfer(TaskId t) {
        const auto blocks = s_.payload.row(t);
        if (auto v = check_reads(t, s_.src[t], blocks)) return v;
        for (std::uint32_t b : blocks)
            if (writer(s_.dst[t], b) == nobody) writer(s_.dst[t], b) = t;
        return std::nullopt;
    }

    // A transfer that brings the piece to the rank at some point, for messages about races.
    TaskId first_delivery(Rank rank, std::uint32_t piece) {
        if (deliveries_.empty()) {
            deliveries_.assign(writer_.size(), nobody);
            for (TaskId t = 0; t < s_.size(); ++t)
                if (s_.kind[t] == TaskKind::transfer)
                    for (std::uint32_t b : s_.payload.row(t)) {
                        TaskId& first =
                            deliveries_[static_cast<std::size_t>(s_.dst[t]) * pieces_ + b];
                        if (first == nobody) first = t;
                    }
        }
        return deliveries_[static_cast<std::size_t>(rank) * pieces_ + piece];
    }

    // Permute/copy (and a reduce in an allgather) read the whole buffer of their rank. In an
    // Alltoall they also move it (Bruck's rotations: the sends after the first read what it
    // wrote), so they become the writer of every block they read.
    std::optional<Violation> reads_everything(TaskId t) {
        held_.clear();
        if (!s_.payload.row(t).empty()) {
            held_.assign(s_.payload.row(t).begin(), s_.payload.row(t).end());
        } else {
            for (std::uint32_t piece = 0; piece < pieces_; ++piece)
                if (writer(s_.src[t], piece) != nobody) held_.push_back(piece);
        }
        if (auto v = check_reads(t, s_.src[t], held_)) return v;
        if (s_.shape.collective == Collective::alltoall)
            for (std::uint32_t piece : held_) writer(s_.src[t], piece) = t;
        return std::nullopt;
    }

    // --- allreduce ---
    void mark_operands() {
        operand_.assign(s_.size(), false);
        for (TaskId t = 0; t < s_.size(); ++t)
            if (s_.kind[t] == TaskKind::reduce)
                for (TaskId d : s_.deps.row(t))
                    if (s_.kind[d] == TaskKind::transfer && s_.dst[d] == s_.src[t])
                        operand_[d] = true;
        partial_.assign(static_cast<std::size_t>(p_) * pieces_, nullptr);
        readers_.resize(static_cast<std::size_t>(p_) * pieces_);
        in_flight_.resize(s_.size());
    }

    std::vector<TaskId>& readers(Rank r, std::uint32_t seg) {
        return readers_[static_cast<std::size_t>(r) * pieces_ + seg];
    }

    Value partial(Rank r, std::uint32_t seg) {
        Value& v = partial_[static_cast<std::size_t>(r) * pieces_ + seg];
        if (!v) {
            auto own = std::make_shared<Bitset>(p_);
            own->set(static_cast<std::size_t>(r));
            v = std::move(own);
        }
        return v;
    }

    std::optional<Violation> reduce_transfer(TaskId t) {
        const auto segments = s_.payload.row(t);
        const Rank from = s_.src[t], to = s_.dst[t];
        if (auto v = check_reads(t, from, segments)) return v;
        for (std::uint32_t seg : segments) readers(from, seg).push_back(t);
        if (operand_[t]) {
            for (std::uint32_t seg : segments) in_flight_[t].push_back(partial(from, seg));
            return std::nullopt;
        }
        for (std::uint32_t seg : segments) {
            Value incoming = partial(from, seg);
            const Value current = partial(to, seg);
            if (!incoming->contains(*current))
                return Violation{t,
                                 fmt::format("{}: overwrites rank {}'s partial sum of segment {} "
                                             "and loses the contributions of ranks {}",
                                             name(t), to, seg,
                                             fmt::join(current->missing_from(*incoming, p_), ","))};
            partial_[static_cast<std::size_t>(to) * pieces_ + seg] = std::move(incoming);
            writer(to, seg) = t;
        }
        return std::nullopt;
    }

    std::optional<Violation> reduce(TaskId c) {
        const Rank rank = s_.src[c];
        const auto declared = s_.payload.row(c);
        std::vector<std::uint32_t> touched;
        for (TaskId d : s_.deps.row(c)) {
            if (s_.kind[d] != TaskKind::transfer || s_.dst[d] != rank || in_flight_[d].empty())
                continue;
            const auto segments = s_.payload.row(d);
            if (auto v = check_reads(c, rank, segments)) return v;
            for (std::size_t i = 0; i < segments.size(); ++i) {
                const std::uint32_t seg = segments[i];
                if (!declared.empty() &&
                    std::find(declared.begin(), declared.end(), seg) == declared.end())
                    return Violation{c,
                                     fmt::format("{}: reduces segment {} received by {}, but "
                                                 "declares segments {}",
                                                 name(c), seg, name(d), fmt::join(declared, ","))};
                const Value current = partial(rank, seg);
                const Value& operand = in_flight_[d][i];
                if (current->intersects(*operand))
                    return Violation{
                        c, fmt::format("{}: counts the contributions of ranks {} to "
                                       "segment {} twice (operand from {})",
                                       name(c), fmt::join(current->common_with(*operand, p_), ","),
                                       seg, name(d))};
                auto sum = std::make_shared<Bitset>(*current);
                sum->unite(*operand);
                partial_[static_cast<std::size_t>(rank) * pieces_ + seg] = std::move(sum);
                touched.push_back(seg);
            }
            in_flight_[d].clear();
            in_flight_[d].shrink_to_fit();
        }
        // The reduce updates the partial sums in place: whoever read the old values must be done.
        std::sort(touched.begin(), touched.end());
        touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
        for (std::uint32_t seg : touched) {
            std::vector<TaskId>& before = readers(rank, seg);
            if (const auto t = unreached(c, rank, before))
                return Violation{c,
                                 fmt::format("{}: updates segment {} on rank {} in place, but {}, "
                                             "which reads it, is not in its dependency closure "
                                             "(write-after-read race)",
                                             name(c), seg, rank, name(*t))};
            before.clear();
            writer(rank, seg) = c;
        }
        return std::nullopt;
    }

    // Alltoall: rank d ends with block s p + d from every rank s.
    std::optional<Violation> final_alltoall() {
        for (Rank d = 0; d < p_; ++d)
            for (Rank from = 0; from < p_; ++from)
                if (writer(d, alltoall_block(from, d)) == nobody)
                    return Violation{Violation::no_task,
                                     fmt::format("incomplete alltoall: rank {} never receives "
                                                 "the block of rank {} (block {})",
                                                 d, from, alltoall_block(from, d))};
        return std::nullopt;
    }

    std::optional<Violation> final_state() {
        if (s_.shape.collective == Collective::alltoall) return final_alltoall();
        const bool gather = copies_only();
        // Reduce_scatter: rank r needs the full sum of its own segment r only.
        const bool scatter = s_.shape.collective == Collective::reduce_scatter;
        Bitset all(p_);
        for (Rank q = 0; q < p_; ++q) all.set(static_cast<std::size_t>(q));
        for (Rank r = 0; r < p_; ++r)
            for (std::uint32_t piece = 0; piece < pieces_; ++piece) {
                if (gather) {
                    if (writer(r, piece) == nobody)
                        return Violation{
                            Violation::no_task,
                            fmt::format("incomplete {}: rank {} never receives "
                                        "{} {}",
                                        to_string(s_.shape.collective), r, piece_word(), piece)};
                    continue;
                }
                if (scatter && piece != static_cast<std::uint32_t>(r)) continue;
                // Reduce: only the root must end with the sum.
                if (s_.shape.collective == Collective::reduce && r != s_.shape.root) continue;
                const Value value = partial(r, piece);
                if (!value->contains(all))
                    return Violation{
                        Violation::no_task,
                        fmt::format("incomplete {}: rank {} ends with segment "
                                    "{} lacking the contributions of ranks {}",
                                    to_string(s_.shape.collective), r, piece,
                                    fmt::join(all.missing_from(*value, p_), ","))};
            }
        return std::nullopt;
    }

    const Schedule& s_;
    const std::vector<TaskId>& order_;
    Rank p_;
    std::uint32_t pieces_;
    std::vector<std::size_t> position_;
    std::vector<std::uint32_t> visited_;
    std::uint32_t epoch_ = 0;
    std::vector<TaskId> stack_, writers_;
    std::vector<std::uint32_t> held_;
    std::vector<TaskId> writer_;
    std::vector<TaskId> deliveries_;
    std::vector<bool> operand_;
    std::vector<Value> partial_;
    std::vector<std::vector<Value>> in_flight_;
    std::vector<std::vector<TaskId>> readers_;  // allreduce: reads since the last write
};

}  // namespace

VerifyReport verify(const Schedule& schedule) {
    VerifyReport report;
    for (TaskId t = 0; t < schedule.size(); ++t) {
        if (schedule.kind[t] == TaskKind::transfer) {
            ++report.transfers;
            report.bytes_moved += schedule.bytes(t);
        } else {
            ++report.computes;
        }
    }
    std::vector<TaskId> order;
    report.violation = verify_structure(schedule, order);
    if (report.violation || !schedule.has_payload()) return report;
    const auto state = static_cast<std::uint64_t>(schedule.shape.ranks) * schedule.shape.pieces;
    if (state > (std::uint64_t{1} << 28)) {
        report.violation = Violation{Violation::no_task,
                                     fmt::format("the data-flow proof tracks ranks x pieces = {} "
                                                 "states, more than it supports (2^28); verify a "
                                                 "smaller instance of the same algorithm",
                                                 state)};
        return report;
    }
    report.data_flow_checked = true;
    report.violation = DataFlowProof(schedule, order).run();
    return report;
}

}  // namespace piccolo
