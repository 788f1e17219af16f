// The makespan lower bound (docs/bounds.md). Two kinds of argument, each a bound on its own:
//  - servers: a rank's send slots, receive slots or processor, a unit's egress or ingress lanes
//    serve one message (or overhead, or compute) at a time each, for at least a known time per
//    message; n servers busy for B in all are busy until at least B / n, and each busy period
//    ends at most `overrun` after a completion the makespan counts;
//  - the dependency chain: every task starts no earlier than its dependencies are done and takes
//    at least its uncontended time (a transfer o_s + (m-1)G + L + o_r to delivery); where it
//    waits for several messages that its rank sent or received through slots, no earlier than
//    those messages' holds, queued on the slots, allow.
// The engine's prices (pricing.hpp) and levels (network.hpp) are used as they are, so the bound
// and the replay read the same numbers.
#include "piccolo/engine/lower_bound.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <bit>
#include <optional>
#include <vector>

#include "dependency_reach.hpp"
#include "network.hpp"
#include "piccolo/engine/server_counts.hpp"
#include "pricing.hpp"
#include "sim_time.hpp"

namespace piccolo {

namespace {

using namespace detail;

// One kind of server, `servers` per owner (0: unlimited, no bound): the busy time of each
// owner's servers in all, capped at max_time (a smaller sum is still a bound).
struct ServerSet {
    std::string owner_name;  // "rank", "node", "group", ...
    std::string what;        // "send slots", "egress lanes", ...
    int servers = 0;
    std::vector<SimTime> busy;
    SimTime overrun = 0;       // how far past a completion a busy period can end
    SimTime overrun_max = 0;   // the most it can be, from the prices alone
    SimTime stop_sum = never;  // a busy time beyond it proves the bound above `enough`

    ServerSet(std::string owner, std::string kind, int count, std::size_t owners)
        : owner_name(std::move(owner)),
          what(std::move(kind)),
          servers(count),
          busy(count > 0 ? owners : 0, 0) {}

    // Does the owner's busy time now prove the bound above `enough`?
    bool add(std::size_t owner, SimTime time, SimTime over = 0) {
        if (servers == 0) return false;
        busy[owner] = std::min(max_time, busy[owner] + time);
        overrun = std::max(overrun, over);
        return busy[owner] > stop_sum;
    }

    // `count` times add(owner, time, over); never stops anything.
    void add_many(std::size_t owner, std::uint32_t count, SimTime time, SimTime over = 0) {
        if (servers == 0 || count == 0) return;
        SimTime& b = busy[owner];
        b = time > 0 && count > (max_time - b) / time ? max_time : b + count * time;
        overrun = std::max(overrun, over);
    }

    void stop_above(SimTime enough) {
        const long double sum =
            (static_cast<long double>(enough) + static_cast<long double>(overrun_max)) * servers;
        stop_sum = sum < static_cast<long double>(max_time) ? static_cast<SimTime>(sum) : never;
    }

    // The best bound these servers give, and which owner's it is. `partial`: not every task was
    // added, so the overrun may still grow up to overrun_max.
    void bound(SimTime& best, std::string& limit, bool partial) const {
        for (std::size_t owner = 0; owner < busy.size(); ++owner) {
            const SimTime b = busy[owner] / servers - (partial ? overrun_max : overrun);
            if (b <= best) continue;
            best = b;
            limit = fmt::format("{} {}'s {}", owner_name, owner, what);
        }
    }
};

class BoundPass {
  public:
    BoundPass(const Schedule& s, const Machine& m, const RankLayout& layout, const SimOptions& o)
        : s_(s),
          pricing_(s, m, o.contention),
          network_(m, layout, static_cast<std::size_t>(layout.ranks()), o.contention) {
        const auto ranks = static_cast<std::size_t>(layout.ranks());
        ranks_ = ranks;
        levels_ = m.levels.size();
        const int slots = o.contention && m.device_radix ? *m.device_radix : 0;
        servers_.emplace_back("rank", "send slots", slots, ranks);
        servers_.emplace_back("rank", "receive slots", slots, ranks);
        servers_.emplace_back("rank", "processor", 1, ranks);
        const bool lanes = o.contention && m.sharing == Sharing::fifo;
        for (std::size_t l = 0; l + 1 < m.levels.size(); ++l) {
            int units = 0;
            for (int r = 0; r < layout.ranks(); ++r)
                units = std::max(units, layout.unit_of(r, l) + 1);
            const int radix = lanes && m.levels[l].radix ? *m.levels[l].radix : 0;
            const auto count = static_cast<std::size_t>(units);
            servers_.emplace_back(m.levels[l].name, "egress lanes", radix, count);
            servers_.emplace_back(m.levels[l].name, "ingress lanes", radix, count);
        }
        unit_.resize(m.levels.size() - 1);
        for (std::size_t l = 0; l < unit_.size(); ++l)
            for (int r = 0; r < layout.ranks(); ++r) unit_[l].push_back(layout.unit_of(r, l));
    }

    // `counts`: the servers' busy times from them (server_counts.hpp), else from a pass over
    // the tasks that stops once they prove the bound above `enough`.
    MakespanBound run(double enough, double chain_from, const ServerCounts* counts = nullptr) {
        set_overrun_max();
        const SimTime proves = last_time_within(enough);  // a bound past it proves enough
        // Without counts the servers' part is a pass over every task. One rank's own chain
        // costs a fraction of it, and where it proves the bound alone (small messages, where
        // latencies and overheads dominate) neither pass is needed: the servers' part is then
        // not computed (0).
        SimTime own = never;
        if (!counts && proves < max_time && chain_from <= enough) {
            own = one_rank_chain();
            if (own > proves) return {to_seconds(own), "the dependency chain", 0, to_seconds(own)};
        }
        for (ServerSet& set : servers_) set.stop_above(to_time(enough));
        if (counts)
            add_counted(*counts);
        else
            for (TaskId t = 0; t < s_.size() && !passed_; ++t) add_to_servers(t);
        SimTime best = 0;
        std::string limit = "nothing to do";
        for (const ServerSet& set : servers_) set.bound(best, limit, passed_);
        const double servers = to_seconds(best);
        SimTime chain = 0;
        if (servers <= enough && servers >= chain_from) {
            // One rank's own chain first: where it already proves the bound above `enough`,
            // the pass over every task's dependencies is not needed.
            chain = own != never ? own : one_rank_chain();
            if (chain <= proves) chain = dependency_chain();
        }
        if (chain > best) {
            best = chain;
            limit = "the dependency chain";
        }
        return {to_seconds(best), limit, servers, to_seconds(chain)};
    }

  private:
    enum Set : std::size_t { send_slots, receive_slots, processor, first_lanes };

    // The largest overrun any task can have, over every level and size the schedule prices.
    void set_overrun_max() {
        auto raise = [](ServerSet& set, SimTime over) {
            set.overrun_max = std::max(set.overrun_max, std::max<SimTime>(0, over));
        };
        for (std::size_t level = 0; level < levels_; ++level)
            for (std::uint32_t c = 0; c < s_.size_values.size(); ++c) {
                const Price& x = pricing_.at(level, c);
                raise(servers_[send_slots], x.g - x.o_s - x.L - x.o_r);
                for (std::size_t l = 0; l < level; ++l) {
                    raise(servers_[first_lanes + 2 * l], x.hold - x.wire - x.L - x.o_r);
                    raise(servers_[first_lanes + 2 * l + 1], x.hold - x.wire - x.o_r);
                }
            }
    }

    [[nodiscard]] std::size_t level_of(TaskId t) const {
        return network_.level_of(s_.src[t], s_.dst[t]);
    }

    // What each task holds at least, and where (the engine's holds, sim/engine/README.md).
    void add_to_servers(TaskId t) {
        const auto add = [&](Set set, std::size_t owner, SimTime time, SimTime over) {
            passed_ |= servers_[set].add(owner, time, over);
        };
        const TaskKind kind = s_.kind[t];
        const std::size_t level = kind == TaskKind::transfer ? level_of(t) : 0;
        charge_source(kind, level, s_.size_class[t], static_cast<std::size_t>(s_.src[t]), add);
        if (kind == TaskKind::transfer)
            charge_destination(level, s_.size_class[t], static_cast<std::size_t>(s_.dst[t]), add);
    }

    // The same sums from per-rank counts of each signature's tasks.
    void add_counted(const ServerCounts& counts) {
        const std::size_t n = counts.signatures.size();
        std::vector<std::uint32_t> classes(n);  // each signature's size class at this size
        for (std::size_t i = 0; i < n; ++i)
            classes[i] = s_.size_class[counts.signatures[i].example];
        for (std::size_t r = 0; r < counts.sent.size() / std::max<std::size_t>(n, 1); ++r)
            for (std::size_t i = 0; i < n; ++i) {
                const ServerCounts::Signature& sig = counts.signatures[i];
                const std::uint32_t size_class = classes[i];
                const auto times = [&](std::uint32_t count) {
                    return [this, count](Set set, std::size_t owner, SimTime time, SimTime over) {
                        servers_[set].add_many(owner, count, time, over);
                    };
                };
                if (const std::uint32_t a = counts.sent[r * n + i]; a > 0)
                    charge_source(sig.kind, sig.level, size_class, r, times(a));
                if (const std::uint32_t b = counts.received[r * n + i]; b > 0)
                    charge_destination(sig.level, size_class, r, times(b));
            }
    }

    // What a task of (kind, level, size class) holds on the side of its source, `src` (a
    // compute task: its rank): add(set, owner, time, overrun).
    template <class Add>
    void charge_source(TaskKind kind, std::size_t level, std::uint32_t size_class, std::size_t src,
                       const Add& add) const {
        if (kind != TaskKind::transfer)
            return add(processor, src, pricing_.compute_cost(kind, size_class), 0);
        const Price& x = pricing_.at(level, size_class);
        if (x.overhead == OverheadModel::cpu) {
            add(processor, src, x.o_s, 0);
        } else {
            // A send slot: o_s, the injection, and the rest of the gap; it frees at most
            // g - o_s - L - o_r after the delivery.
            add(send_slots, src, std::max(x.o_s, x.g) + x.wire,
                std::max<SimTime>(0, x.g - x.o_s - x.L - x.o_r));
        }
        // A lane is held max(g, W) from the injection start (egress), which precedes the
        // delivery by at least W + L + o_r.
        for (std::size_t l = 0; l < level; ++l)
            add(static_cast<Set>(first_lanes + 2 * l), static_cast<std::size_t>(unit_[l][src]),
                x.hold, std::max<SimTime>(0, x.hold - x.wire - x.L - x.o_r));
    }
    // ... and on the side of its destination `dst`.
    template <class Add>
    void charge_destination(std::size_t level, std::uint32_t size_class, std::size_t dst,
                            const Add& add) const {
        const Price& x = pricing_.at(level, size_class);
        if (x.overhead == OverheadModel::cpu)
            add(processor, dst, x.o_r, 0);
        else
            add(receive_slots, dst, x.wire + x.o_r, 0);  // frees at delivery
        // An ingress lane is held max(g, W) from the arrival, W + o_r or more before delivery.
        for (std::size_t l = 0; l < level; ++l)
            add(static_cast<Set>(first_lanes + 2 * l + 1), static_cast<std::size_t>(unit_[l][dst]),
                x.hold, std::max<SimTime>(0, x.hold - x.wire - x.o_r));
    }

    // When a task is done at the earliest (delivered, for a transfer), given when it is ready.
    [[nodiscard]] SimTime done_after(TaskId t, SimTime ready) const {
        if (s_.kind[t] != TaskKind::transfer)
            return ready + pricing_.compute_cost(s_.kind[t], s_.size_class[t]);
        const Price& x = pricing_.at(level_of(t), s_.size_class[t]);
        return ready + x.o_s + x.wire + x.L + x.o_r;
    }
    // When transfer t is sent at the earliest, given when it is delivered at the earliest.
    [[nodiscard]] SimTime sent_by(TaskId t, SimTime delivered) const {
        const Price& x = pricing_.at(level_of(t), s_.size_class[t]);
        return delivered - x.o_r - (x.rendezvous ? 0 : x.L);
    }

    // A message's time on a slot: it starts no earlier than `release`, holds the slot at least
    // `hold`, and the completion awaited comes at least `after` past the hold's end.
    struct Held {
        SimTime release = 0, hold = 0, after = 0;
    };

    // The dependencies of t that rank src(t) sent, or received, through offload slots: all of
    // them queue on its slots (a round's sends and receives, in the round-synchronous styles).
    // Those released at R or later hold the slots for H in all, so one of them ends its hold at
    // R + H / slots or later, and t waits for its completion (docs/bounds.md).
    // `done_of(d)`: when dependency d is done at the earliest, `never` where not known (a
    // dependency left out: it then counts for nothing).
    template <class DoneOf>
    SimTime through_slots(TaskId t, const DoneOf& done_of) {
        const int slots = servers_[send_slots].servers;
        if (slots == 0 || !queues_on_slots(t)) return 0;
        sends_.clear();
        receives_.clear();
        const Rank rank = s_.src[t];
        auto add = [&](TaskId d, bool sent) {
            const SimTime done = s_.kind[d] == TaskKind::transfer ? done_of(d) : never;
            if (done >= max_time) return;
            const Price& x = pricing_.at(level_of(d), s_.size_class[d]);
            if (x.overhead == OverheadModel::cpu) return;
            const SimTime start = done - (x.o_s + x.wire + x.L + x.o_r);
            if (s_.src[d] == rank) {
                const SimTime hold = std::max(x.o_s, x.g) + x.wire;
                const SimTime awaited =
                    sent ? x.o_s + x.wire + (x.rendezvous ? x.L : 0) : x.o_s + x.wire + x.L + x.o_r;
                sends_.push_back({start, hold, awaited - hold});
            }
            // A receive slot is held W + o_r from the first byte's landing to the delivery.
            if (!sent && s_.dst[d] == rank)
                receives_.push_back({start + x.o_s + x.L, x.wire + x.o_r, 0});
        };
        for (TaskId d : s_.deps.row(t)) add(d, false);
        for (TaskId d : s_.sent_deps_of(t)) add(d, true);
        return std::max(latest_completion(sends_, slots),
                        latest_completion(receives_, servers_[receive_slots].servers));
    }

    // Whether two or more of t's dependencies were sent by t's rank, or two or more delivered
    // to it: only then can their queueing on its slots delay t (latest_completion() needs two).
    // Reads three fields per dependency where the full count reads their prices too; a ring's
    // send waits for one of each.
    [[nodiscard]] bool queues_on_slots(TaskId t) const {
        const Rank rank = s_.src[t];
        int sent_by_rank = 0, received = 0;
        for (TaskId d : s_.deps.row(t)) {
            if (s_.kind[d] != TaskKind::transfer) continue;
            sent_by_rank += s_.src[d] == rank ? 1 : 0;
            received += s_.dst[d] == rank ? 1 : 0;
        }
        for (TaskId d : s_.sent_deps_of(t))
            sent_by_rank += s_.kind[d] == TaskKind::transfer && s_.src[d] == rank ? 1 : 0;
        return sent_by_rank >= 2 || received >= 2;
    }

    // The latest completion among messages sharing `slots` servers: the largest, over release
    // times R, of R + (holds released at R or later) / slots + the least `after` among them.
    static SimTime latest_completion(std::vector<Held>& held, int slots) {
        if (held.size() < 2) return 0;  // one message: the chain counts it already
        std::sort(held.begin(), held.end(),
                  [](const Held& a, const Held& b) { return a.release > b.release; });
        SimTime sum = 0, after = max_time, latest = 0;
        for (const Held& h : held) {
            sum = std::min(max_time, sum + h.hold);
            after = std::min(after, h.after);
            latest = std::max(latest, h.release + sum / slots + after);
        }
        return std::min(latest, max_time);
    }

    // The latest earliest completion, over the tasks in an order where dependencies come first.
    // In id order (generated schedules) done_ keeps only the times a later task can still name,
    // slot = id mod a power of two above the farthest reach back (docs/bounds.md).
    SimTime dependency_chain() {
        const std::optional<TaskId> reach = dependency_reach(s_);
        const std::size_t window = reach ? std::bit_ceil(std::size_t{*reach} + 1) : s_.size();
        done_.assign(std::min(window, s_.size()), 0);
        done_mask_ = window < s_.size() ? static_cast<TaskId>(window - 1) : ~TaskId{0};
        SimTime longest = 0;
        std::optional<TaskId> last;  // the task visited before, and when it was ready
        SimTime last_ready = 0;
        auto visit = [&](TaskId t) {
            // A round's sends from one rank wait for the same messages (the round-synchronous
            // styles give each the same dependencies): their readiness is found once.
            if (!last || !same_wait(t, *last))
                last_ready =
                    ready_at_earliest(t, [this](TaskId d) { return done_[d & done_mask_]; });
            last = t;
            const SimTime done = std::min(max_time, done_after(t, last_ready));
            done_[t & done_mask_] = done;
            longest = std::max(longest, done);
        };
        if (!reach) {  // a dependency points forwards
            for (TaskId t : kahn_order()) visit(t);
        } else {
            for (TaskId t = 0; t < s_.size(); ++t) visit(t);  // every generated schedule
        }
        return longest;
    }

    // `done_of(d)`: as in through_slots(); a dependency not known counts for nothing.
    template <class DoneOf>
    [[nodiscard]] SimTime ready_at_earliest(TaskId t, const DoneOf& done_of) {
        SimTime ready = 0;
        for (TaskId d : s_.deps.row(t))
            if (const SimTime done = done_of(d); done != never) ready = std::max(ready, done);
        for (TaskId d : s_.sent_deps_of(t))
            if (const SimTime done = done_of(d); done != never)
                ready = std::max(ready, sent_by(d, done));
        return std::max(ready, through_slots(t, done_of));
    }

    // The chain of the tasks of the rank that runs the most, each waiting only for those of
    // its dependencies that are the same rank's earlier tasks. Every dependency left out only
    // makes a task ready earlier, and the slots' argument holds for any subset of a task's
    // dependencies, so this is a bound too (docs/bounds.md). It costs two scans of the sources
    // and a walk over one rank's tasks.
    SimTime one_rank_chain() {
        std::vector<std::uint32_t> tasks_of(ranks_, 0);
        for (TaskId t = 0; t < s_.size(); ++t) ++tasks_of[static_cast<std::size_t>(s_.src[t])];
        const auto rank = static_cast<Rank>(std::max_element(tasks_of.begin(), tasks_of.end()) -
                                            tasks_of.begin());
        std::vector<TaskId> own;  // ascending
        std::vector<SimTime> own_done;
        for (TaskId t = 0; t < s_.size(); ++t)
            if (s_.src[t] == rank) own.push_back(t);
        // Known: the rank's tasks already walked (a later id, as in a file whose dependencies
        // point forwards, is not known yet and left out).
        auto done_of = [&](TaskId d) {
            const auto it = std::lower_bound(own.begin(), own.end(), d);
            const auto i = static_cast<std::size_t>(it - own.begin());
            return it != own.end() && *it == d && i < own_done.size() ? own_done[i] : never;
        };
        SimTime longest = 0;
        for (TaskId t : own) {
            own_done.push_back(std::min(max_time, done_after(t, ready_at_earliest(t, done_of))));
            longest = std::max(longest, own_done.back());
        }
        return longest;
    }
    // Tasks of one rank with the same dependencies are ready at the same earliest time.
    [[nodiscard]] bool same_wait(TaskId t, TaskId u) const {
        return s_.src[t] == s_.src[u] && s_.same_dependencies(t, u);
    }

    // Dependencies first; tasks on a cycle are left out (the engine refuses such a schedule).
    [[nodiscard]] std::vector<TaskId> kahn_order() const {
        const Schedule::Successors next = s_.successors();
        std::vector<std::uint32_t> missing(s_.size());
        std::vector<TaskId> order;
        for (TaskId t = 0; t < s_.size(); ++t) {
            missing[t] =
                static_cast<std::uint32_t>(s_.deps.row(t).size() + s_.sent_deps_of(t).size());
            if (missing[t] == 0) order.push_back(t);
        }
        for (std::size_t i = 0; i < order.size(); ++i) {
            const TaskId t = order[i];
            for (TaskId n : next.delivered.row(t))
                if (--missing[n] == 0) order.push_back(n);
            if (next.sent.rows() > 0)
                for (TaskId n : next.sent.row(t))
                    if (--missing[n] == 0) order.push_back(n);
        }
        return order;
    }

    const Schedule& s_;
    Pricing pricing_;
    Network network_;
    std::vector<ServerSet> servers_;
    std::vector<std::vector<int>> unit_;  // [level][rank]
    std::vector<SimTime> done_;           // by task id & done_mask_ (dependency_chain())
    TaskId done_mask_ = ~TaskId{0};
    std::vector<Held> sends_, receives_;  // through_slots()'s scratch
    std::size_t ranks_ = 0, levels_ = 0;
    bool passed_ = false;  // a busy time proved the bound above `enough`: the rest is skipped
};

}  // namespace

MakespanBound makespan_lower_bound(const Schedule& schedule, const Machine& machine,
                                   const RankLayout& layout, const SimOptions& options,
                                   double enough, double chain_from) {
    return BoundPass(schedule, machine, layout, options).run(enough, chain_from);
}

namespace detail {

std::optional<ServerCounts> count_server_loads(const Schedule& s, const Machine& machine,
                                               const RankLayout& layout,
                                               std::size_t tasks_per_entry) {
    const auto ranks = static_cast<std::size_t>(layout.ranks());
    const std::size_t levels = machine.levels.size(), classes = s.size_values.size();
    constexpr std::size_t kinds = 4;  // TaskKind's values
    const std::size_t keys = kinds * levels * classes;
    if (tasks_per_entry > 0 && keys > s.size()) return std::nullopt;
    constexpr std::uint32_t unseen = ~std::uint32_t{0};
    std::vector<std::uint32_t> signature_of(keys, unseen);  // by (kind, level, class)
    std::vector<std::uint32_t> signature(s.size());
    ServerCounts counts;
    const Network network(machine, layout, ranks, true);
    for (TaskId t = 0; t < s.size(); ++t) {
        const TaskKind kind = s.kind[t];
        const std::size_t level =
            kind == TaskKind::transfer ? network.level_of(s.src[t], s.dst[t]) : 0;
        std::uint32_t& id =
            signature_of[(static_cast<std::size_t>(kind) * levels + level) * classes +
                         s.size_class[t]];
        if (id == unseen) {
            id = static_cast<std::uint32_t>(counts.signatures.size());
            counts.signatures.push_back({kind, static_cast<std::uint8_t>(level), t});
        }
        signature[t] = id;
    }
    const std::size_t n = counts.signatures.size();
    if (ranks * n * tasks_per_entry > s.size()) return std::nullopt;
    counts.sent.assign(ranks * n, 0);
    counts.received.assign(ranks * n, 0);
    for (TaskId t = 0; t < s.size(); ++t) {
        ++counts.sent[static_cast<std::size_t>(s.src[t]) * n + signature[t]];
        if (s.kind[t] == TaskKind::transfer)
            ++counts.received[static_cast<std::size_t>(s.dst[t]) * n + signature[t]];
    }
    return counts;
}

MakespanBound makespan_lower_bound(const Schedule& schedule, const Machine& machine,
                                   const RankLayout& layout, const SimOptions& options,
                                   const ServerCounts& counts, double enough, double chain_from) {
    return BoundPass(schedule, machine, layout, options).run(enough, chain_from, &counts);
}

}  // namespace detail

}  // namespace piccolo
