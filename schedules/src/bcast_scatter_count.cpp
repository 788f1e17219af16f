// Closed forms for the task counts of van de Geijn's Bcast (task_count.hpp): scatter-rd and
// scatter-ring over MPICH's scatter (bcast_scatter.hpp), each following the loops of its
// generator file; the schedules tests compare them with generate() on a grid of p, sizes, roots
// and styles.
#include <algorithm>
#include <bit>
#include <limits>
#include <vector>

#include "algorithms.hpp"
#include "piccolo/schedules/task_count.hpp"

namespace piccolo::detail {

namespace {

// MPICH's scatter for Bcast (bcast_scatter.hpp) over q = ceil_cut_pieces(bytes, p) chunks:
// ranks 1..q-1 each receive once, chunk c on the popcount(c) hops from the root to rank c, and
// the widest round is mask 1's floor(q / 2) transfers.
std::uint64_t popcount_sum(std::uint64_t q) {  // popcount(0) + ... + popcount(q - 1)
    std::uint64_t sum = 0;
    for (std::uint64_t bit = 1; bit < q; bit *= 2)
        sum += q / (2 * bit) * bit + (q % (2 * bit) > bit ? q % (2 * bit) - bit : 0);
    return sum;
}

TaskCounts count_scatter(const GenerateRequest& r) {
    TaskCounts c;
    c.cut = Cut::ceil;
    c.pieces = ceil_cut_pieces(r.bytes, r.ranks);
    c.transfers = c.pieces - 1;
    c.widest_round = c.pieces / 2;
    c.payload_ids = r.payload ? popcount_sum(c.pieces) : 0;
    return c;
}

// One rank's program in MPICH's order for count_bcast_scatter_rd: its sends and receives of
// chunks [first, last) (empty ones left out) and the ids each send waits for (bcast_scatter.hpp).
class RankProgram {
  public:
    RankProgram(bool pipelined, bool root, std::uint32_t q)
        : pipelined_(pipelined), hi_(root ? q : 0) {}
    void receive(std::uint32_t first, std::uint32_t last) {
        if (first >= last) return;
        ++since_;
        ++receives_;
        if (lo_ == hi_) {
            parts_.push_back({receives_, first, last});
        } else {
            if (first < lo_) parts_.push_back({receives_, first, lo_});
            if (last > hi_) parts_.push_back({receives_, hi_, last});
        }
        lo_ = lo_ == hi_ ? first : std::min(lo_, first);
        hi_ = std::max(hi_, last);
    }
    void send(std::uint32_t first, std::uint32_t last) {
        if (first >= last) return;
        if (pipelined_) {  // the receives that first brought a chunk of [first, last)
            std::uint64_t previous = 0;
            for (const Part& part : parts_)
                if (part.first < last && first < part.last && part.receive != previous) {
                    ++ids_;
                    previous = part.receive;
                }
        } else {
            ids_ += since_ + (sent_ ? 1 : 0);
        }
        since_ = 0;
        sent_ = true;
    }
    [[nodiscard]] std::uint64_t ids() const { return ids_; }

  private:
    struct Part {
        std::uint64_t receive;
        std::uint32_t first, last;
    };
    bool pipelined_;
    std::uint32_t lo_ = 0, hi_;
    std::vector<Part> parts_;
    std::uint64_t since_ = 0, receives_ = 0, ids_ = 0;
    bool sent_ = false;
};

// bcast_scatter_rd.cpp step `mask` in the last block [b, b + 2 mask) of p ranks: the halving
// level h sends to the have-nots of each of the lower half's mask / 2h groups of 2h ranks from
// the x with tree_root + u - h <= x < tree_root + min(u, h): min(u, h) - max(0, u - h) of them.
std::uint64_t halving_sends(std::uint64_t mask, std::uint64_t u, std::uint64_t h) {
    const std::uint64_t from = u > h ? u - h : 0, to = std::min(u, h);
    return to > from ? mask / (2 * h) * (to - from) : 0;
}

// The ids of every rank's program, walked in MPICH's order.
std::uint64_t scatter_rd_dependency_ids(const GenerateRequest& r, std::uint32_t q) {
    const std::int64_t p = r.ranks;
    std::int64_t top = 1;
    while (top * 2 < p) top *= 2;
    std::uint64_t ids = 0;
    const auto chunk = [q](std::int64_t v) {
        return static_cast<std::uint32_t>(std::clamp<std::int64_t>(v, 0, q));
    };
    for (std::int64_t x = 0; x < p; ++x) {
        RankProgram rank(r.style == Style::pipelined, x == 0, q);
        if (x > 0) rank.receive(chunk(x), chunk(x + (x & -x)));
        for (std::int64_t m = x == 0 ? top : (x & -x) / 2; m >= 1; m /= 2)
            rank.send(chunk(x + m), chunk(x + 2 * m));
        for (std::int64_t m = 1; m < p; m *= 2) {
            const std::int64_t t = x & ~(m - 1);
            if ((x ^ m) < p) {
                rank.send(chunk(t), chunk(t + m));
                rank.receive(chunk(t ^ m), chunk((t ^ m) + m));
            }
            const std::int64_t b = (p - 1) & ~(2 * m - 1), u = p - b - m;
            if (u <= 0 || u >= m || x < b || x >= b + m) continue;
            for (std::int64_t h = m / 2; h >= 1; h /= 2) {
                const std::int64_t tree_root = x & ~(2 * h - 1), y = x ^ h;
                if (y > x && x < tree_root + u && y >= tree_root + u)
                    rank.send(chunk(b + m), q);
                else if (y < x && y < tree_root + u && x >= tree_root + u)
                    rank.receive(chunk(b + m), q);
            }
        }
        ids += rank.ids();
    }
    return ids;
}

}  // namespace

// bcast_scatter_ring.cpp: the scatter, then chunk i < q travels p - 1 hops, q (p - 1) transfers
// of one chunk, q in each step. Round-synchronous, a send waits for the receives since its
// rank's previous send and for that send: summed over the ranks, every receive but those after
// the rank's last send, and every send but each rank's first, 2 T - R - S. A rank's last send is
// followed by one receive, of chunk x + 1, which exists for q of them (R = q); every rank sends
// (S = p) unless q = 1, when rank p - 1 only receives chunk 0 in the last step. Pipelined: one
// each, but the root's sends, which forward what it started with: its scatter sends to 1, 2, 4,
// ... below q and its ring sends of every chunk but chunk 1.
TaskCounts count_bcast_scatter_ring(const GenerateRequest& r) {
    const auto p = static_cast<std::uint64_t>(r.ranks);
    TaskCounts c = count_scatter(r);
    const std::uint64_t q = c.pieces;
    c.transfers += q * (p - 1);
    c.widest_round = q;
    if (r.payload) c.payload_ids += q * (p - 1);
    if (r.style == Style::pipelined) {
        const std::uint64_t root_sends =
            static_cast<std::uint64_t>(std::bit_width(q - 1)) + q - (q >= 2 ? 1 : 0);
        c.dependency_ids = c.transfers - root_sends;
    } else {
        c.dependency_ids = 2 * c.transfers - q - (q >= 2 ? p : p - 1);
    }
    return c;
}

// bcast_scatter_rd.cpp: the scatter, then per mask the exchanges of every block [b, b + 2 mask)
// (min(mask, p - b - mask) pairs; the lower rank's chunks [b, b + mask), the upper's
// [b + mask, b + 2 mask), those below q) and, where the last block's upper half has
// 0 < u < mask ranks, mask - u halving sends of [b + mask, q). Full blocks carry every chunk
// below q of their 2 mask, mask times. Dependencies: each rank's program walked (O(p log p)),
// unless the schedule is past what the IR holds (generate() refuses it): then 2 T bounds them.
TaskCounts count_bcast_scatter_rd(const GenerateRequest& r) {
    const auto p = static_cast<std::uint64_t>(r.ranks);
    TaskCounts c = count_scatter(r);
    const std::uint64_t q = c.pieces;
    const auto below_q = [q](std::uint64_t first, std::uint64_t width) {
        return first >= q ? 0 : std::min(width, q - first);
    };
    for (std::uint64_t m = 1; m < p; m *= 2) {
        const std::uint64_t full = p / (2 * m), b = 2 * m * full;
        // Full blocks whose lower (upper) half starts below q.
        const std::uint64_t lower = std::min(full, (q + 2 * m - 1) / (2 * m));
        const std::uint64_t upper = q > m ? std::min(full, (q - m + 2 * m - 1) / (2 * m)) : 0;
        std::uint64_t round = m * (lower + upper);
        std::uint64_t payload = m * std::min(q, b);
        const std::uint64_t u = b + m < p ? p - b - m : 0;
        round += u * ((b < q ? 1 : 0) + (b + m < q ? 1 : 0));
        payload += u * (below_q(b, m) + below_q(b + m, m));
        c.transfers += round;
        c.widest_round = std::max(c.widest_round, round);
        for (std::uint64_t h = m / 2; u > 0 && b + m < q && h >= 1; h /= 2) {
            const std::uint64_t sends = halving_sends(m, u, h);
            c.transfers += sends;
            c.widest_round = std::max(c.widest_round, sends);
            payload += sends * (q - b - m);
        }
        if (r.payload) c.payload_ids += payload;
    }
    c.dependency_ids = c.tasks() > std::numeric_limits<std::uint32_t>::max()
                           ? 2 * c.transfers
                           : scatter_rd_dependency_ids(r, static_cast<std::uint32_t>(q));
    return c;
}

}  // namespace piccolo::detail
