#pragma once
// The engine's event queue, ordered by (time, kind, id). Time never goes backwards in a
// discrete-event simulation, so a radix heap over the (non-negative, integer) times works: a push
// is O(1), and each entry moves between at most 64 buckets over its life. Symmetric collectives
// push thousands of events for each of few distinct times (a 75,264-rank rm replay: 11.6 M events
// at 1,437 times), so once a time has held batching_from events, a busy time's events gather in
// one batch, found through a small direct-mapped table of recent times, and only the batch's entry
// moves between buckets. The events that share the current time are then sorted once by (kind,
// id) and served in order; the few events pushed for the current time while it is being served go
// to a small binary heap that is merged on the fly.

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "piccolo/core/assert.hpp"
#include "sim_time.hpp"

namespace piccolo::detail {

// At one time, releases come before requests, so a request sees every slot freed at its time.
enum class EventKind : std::uint8_t {
    flows,  // fair sharing: flows' last bytes leave, then flows end (if the prediction holds)
    wake,   // a slot of pool (kind - wake) frees: serve its queue; id = the owner
    wake_last = wake + 7,
    // From here on, a step of a task not yet complete: the engine's give-up rule relies on it.
    received,  // cpu overhead model: the last byte is in, o_r waits for the processor
    inject,    // o_s is over: the first byte may leave
    arrive,    // the first byte reaches the destination's units (ingress lanes)
    land,      // the first byte may enter the destination device (receive slot or port)
    // Last: the steps above are skipped where nothing limits them, their outcome computed when
    // it becomes known; served before READY, they decide a window (and free a send slot), send
    // or deliver at their own time just as early, so a limit that never binds changes nothing.
    ready,  // every dependency of a task is done
};

struct Event {
    SimTime time;
    std::uint64_t key;  // kind in the high 32 bits, task (or owner) id in the low 32

    Event(SimTime t, EventKind kind, std::uint32_t id)
        : time(t), key((std::uint64_t{static_cast<std::uint8_t>(kind)} << 32) | id) {}
    Event(SimTime t, std::uint64_t k) : time(t), key(k) {}
    [[nodiscard]] EventKind kind() const { return static_cast<EventKind>(key >> 32); }
    [[nodiscard]] std::uint32_t id() const { return static_cast<std::uint32_t>(key); }
};

class EventQueue {
  public:
    [[nodiscard]] bool empty() const { return batch_empty() && size_ == 0; }

    // Precondition: e.time >= the time of the last event popped (time never goes backwards: the
    // radix heap would file an earlier event under the wrong bucket).
    // An event for the time being served joins it (late_), even once its batch is used up:
    // ready_cohort() asks serves_before() whether such an event goes before its next task.
    void push(Event e) {
        PICCOLO_ASSERT(e.time >= 0 && (!serving_ || e.time >= now_));
        if (serving_ && e.time == now_) return push_late(e.key);
        ++size_;
        const auto bits = static_cast<std::uint64_t>(e.time);
        if (batching_) [[unlikely]]
            return push_to_batch(bits, e.key);
        append({bits, e.key});
    }

    // Precondition: !empty().
    Event pop() {
        if (batch_empty()) advance();
        if (!late_.empty() && (next_ == batch_.size() || late_.top() < batch_[next_])) {
            const std::uint64_t key = late_.top();
            late_.pop();
            return {now_, key};
        }
        return {now_, batch_[next_++]};
    }

    // Is there an event left at the time of the last event popped?
    [[nodiscard]] bool more_at_now() const { return !batch_empty() || !buckets_[0].empty(); }

    // Is an event pushed for the current time, while its batch is served, due before `key`?
    [[nodiscard]] bool serves_before(std::uint64_t key) const {
        return !late_.empty() && late_.top() < key;
    }

  private:
    // An entry of the radix heap: one event's key, or (with batch_flag) the index of a batch of
    // keys of one time. A key holds the kind in bits 32..39, so bit 63 is free for the flag.
    struct Item {
        std::uint64_t time_bits, key;
    };
    static constexpr std::uint64_t batch_flag = std::uint64_t{1} << 63;
    static constexpr std::uint32_t no_batch = ~std::uint32_t{0};

    // A recent time, how many of its events the table has seen, and from the batch_from-th on the
    // batch they join. A time whose entry another time took over starts again: it may have
    // several batches and single entries, all served together. Times of a few events each, which
    // can be pending by the hundred thousand (an all-to-all whose sends queue on slots), stay
    // single entries: a batch per time would cost more memory than it saves moves.
    struct Recent {
        std::uint64_t time_bits = ~std::uint64_t{0};  // no time: times are below 2^63
        std::uint32_t batch = no_batch;
        std::uint32_t seen = 0;
    };
    static constexpr std::uint32_t batch_from = 16;
    // Batches pay from the first time of this many events on; a replay whose times hold fewer
    // (a small or pipelined one) keeps the plain push, without the table's unpredictable branch.
    static constexpr std::size_t batching_from = 256;
    static constexpr int recent_bits = 6;
    [[nodiscard]] static std::size_t recent_slot(std::uint64_t time_bits) {
        return static_cast<std::size_t>((time_bits * 0x9e3779b97f4a7c15ULL) >> (64 - recent_bits));
    }

    [[nodiscard]] bool batch_empty() const { return next_ == batch_.size() && late_.empty(); }

    // Out of line: rare, and the heap's code would make push too large to inline in the engine.
    [[gnu::noinline]] void push_late(std::uint64_t key) { late_.push(key); }

    // Out of line, as the table's code would make push too large to inline, and a replay that
    // batches spends far less on a call than it saves.
    [[gnu::noinline]] void push_to_batch(std::uint64_t bits, std::uint64_t key) {
        Recent& recent = recent_[recent_slot(bits)];
        if (recent.time_bits != bits) {  // the first event of its time that the table sees
            recent = {bits, no_batch, 1};
            return append({bits, key});
        }
        if (recent.batch != no_batch) return batches_[recent.batch].push_back(key);
        if (++recent.seen < batch_from) return append({bits, key});
        recent.batch = open_batch(key);  // a busy time: its later events join the batch
        append({bits, batch_flag | recent.batch});
    }

    [[gnu::noinline]] std::uint32_t open_batch(std::uint64_t key) {
        std::uint32_t index = 0;
        if (free_batches_.empty()) {
            index = static_cast<std::uint32_t>(batches_.size());
            batches_.emplace_back();
        } else {
            index = free_batches_.back();
            free_batches_.pop_back();
        }
        batches_[index].push_back(key);
        return index;
    }

    // Appends batch `index`'s keys to batch_ and frees the batch. A freed batch keeps a small
    // buffer for the next; a large one is released, so that memory follows the events pending,
    // not the most that any batch ever held times the number of batches.
    void take_batch(std::uint32_t index) {
        std::vector<std::uint64_t>& batch = batches_[index];
        size_ -= batch.size();
        batch_.insert(batch_.end(), batch.begin(), batch.end());
        if (batch.capacity() > small_batch)
            batch = {};
        else
            batch.clear();
        free_batches_.push_back(index);
    }

    void append(const Item& item) {
        const std::size_t bucket = bucket_of(item.time_bits);
        std::vector<Item>& b = buckets_[bucket];
        if (b.size() == b.capacity()) [[unlikely]]
            grow(b);
        b.push_back(item);
        occupied_ |= std::uint64_t{1} << bucket;
    }

    // A full bucket moves into a larger spare buffer, if there is one, before it reallocates:
    // the buckets then hold about as much capacity as they ever hold events at once, not the sum
    // of each one's largest size (over 300 MB at a million ranks, every page faulted in and
    // cleared).
    [[gnu::noinline]] void grow(std::vector<Item>& bucket) {
        if (spare_.empty() || spare_.back().capacity() <= bucket.size()) return;
        std::vector<Item> larger = std::move(spare_.back());
        spare_.pop_back();
        larger.assign(bucket.begin(), bucket.end());
        bucket.swap(larger);
        keep_spare(std::move(larger));
    }

    // At most a few spare buffers, the largest.
    void keep_spare(std::vector<Item> buffer) {
        if (buffer.capacity() == 0) return;
        buffer.clear();
        spare_.push_back(std::move(buffer));
        if (spare_.size() <= 4) return;
        auto smallest = std::min_element(
            spare_.begin(), spare_.end(),
            [](const auto& a, const auto& b) { return a.capacity() < b.capacity(); });
        spare_.erase(smallest);
    }

    // 0 to 63: times are below 2^63.
    [[nodiscard]] std::size_t bucket_of(std::uint64_t bits) const {
        return static_cast<std::size_t>(std::bit_width(bits ^ last_));
    }

    // Moves every event of the next time into batch_, sorted.
    void advance() {
        if (buckets_[0].empty()) spill_least_bucket();
        now_ = static_cast<SimTime>(last_);
        serving_ = true;
        batch_.clear();
        next_ = 0;
        for (const Item& item : buckets_[0]) {
            if (item.key & batch_flag) {
                take_batch(static_cast<std::uint32_t>(item.key));
            } else {
                batch_.push_back(item.key);
                --size_;
            }
        }
        buckets_[0].clear();
        occupied_ &= ~std::uint64_t{1};
        Recent& recent = recent_[recent_slot(last_)];
        if (recent.time_bits == last_) recent = {};  // its batches are taken
        if (batch_.size() >= batching_from) batching_ = true;
        sort_batch();
    }

    // Redistributes the first non-empty bucket around its least time, which bucket 0 then holds.
    void spill_least_bucket() {
        // A bit per bucket: the first non-empty one is found at once, where a replay's scan
        // passed about 35 empty buckets each time (measured on a 64-device ring).
        const auto i = static_cast<std::size_t>(std::countr_zero(occupied_));
        std::uint64_t least = buckets_[i].front().time_bits;
        for (const Item& item : buckets_[i]) least = std::min(least, item.time_bits);
        last_ = least;
        std::vector<Item> spill;
        spill.swap(buckets_[i]);
        occupied_ &= ~(std::uint64_t{1} << i);
        for (const Item& item : spill) append(item);  // each to a lower bucket
        // A small buffer stays with its bucket (most replays are small, and reallocating
        // costs more than the memory); a large one serves the next bucket that fills.
        if (spill.capacity() <= small_bucket) {
            spill.clear();
            buckets_[i].swap(spill);
        } else {
            keep_spare(std::move(spill));
        }
    }

    void sort_batch() {
        // Events are pushed while earlier ones are served in order, so a batch is a few sorted
        // runs, one per earlier time that pushed into it: merging them beats sorting.
        if (batch_.size() < 64) {  // insertion sort territory: merging would cost more
            if (!std::is_sorted(batch_.begin(), batch_.end()))
                std::sort(batch_.begin(), batch_.end());
            return;
        }
        if (merge_runs(batch_)) return;
        if (batch_.size() < 4096)
            std::sort(batch_.begin(), batch_.end());
        else
            radix_sort(batch_);
    }

    // Sorts keys made of at most max_runs ascending runs by merging neighbouring runs; false (keys
    // untouched) when there are more.
    bool merge_runs(std::vector<std::uint64_t>& keys) {
        constexpr std::size_t max_runs = 8;
        std::array<std::size_t, max_runs + 1> bounds{};
        std::size_t runs = 1;
        for (std::size_t i = 1; i < keys.size(); ++i)
            if (keys[i] < keys[i - 1]) {
                if (runs == max_runs) return false;
                bounds[runs++] = i;
            }
        bounds[runs] = keys.size();
        while (runs > 1) {  // merge runs pairwise into scratch_, then swap back
            scratch_.resize(keys.size());
            std::size_t merged = 0;
            for (std::size_t r = 0; r < runs; r += 2) {
                const std::size_t mid = bounds[r + 1];  // == end for an odd last run: copied
                const std::size_t end = bounds[std::min(r + 2, runs)];
                std::merge(keys.begin() + static_cast<std::ptrdiff_t>(bounds[r]),
                           keys.begin() + static_cast<std::ptrdiff_t>(mid),
                           keys.begin() + static_cast<std::ptrdiff_t>(mid),
                           keys.begin() + static_cast<std::ptrdiff_t>(end),
                           scratch_.begin() + static_cast<std::ptrdiff_t>(bounds[r]));
                bounds[merged++] = bounds[r];
            }
            bounds[merged] = keys.size();
            runs = merged;
            keys.swap(scratch_);
        }
        return true;
    }

    // LSD radix sort, 16 bits a pass, skipping passes where every key has the same digit: keys
    // are (kind << 32 | id), so a batch of a million events takes two or three passes.
    void radix_sort(std::vector<std::uint64_t>& keys) {
        scratch_.resize(keys.size());
        std::uint64_t all_or = 0, all_and = ~std::uint64_t{0};
        for (std::uint64_t k : keys) {
            all_or |= k;
            all_and &= k;
        }
        std::vector<std::uint32_t> count(1 << 16);
        for (int shift = 0; shift < 64; shift += 16) {
            if (((all_or ^ all_and) >> shift & 0xffff) == 0) continue;  // digit is constant
            std::fill(count.begin(), count.end(), 0);
            for (std::uint64_t k : keys) ++count[k >> shift & 0xffff];
            std::uint32_t sum = 0;
            for (std::uint32_t& c : count) sum += std::exchange(c, sum);
            for (std::uint64_t k : keys) scratch_[count[k >> shift & 0xffff]++] = k;
            keys.swap(scratch_);
        }
    }

    static constexpr std::size_t small_bucket = 4096;  // items: 64 KiB
    static constexpr std::size_t small_batch = 512;    // keys: 4 KiB
    std::vector<std::uint64_t> scratch_;
    std::array<std::vector<Item>, 64> buckets_;
    std::uint64_t occupied_ = 0;                       // bit b: buckets_[b] is not empty
    std::vector<std::vector<Item>> spare_;             // emptied buckets' buffers
    std::vector<std::vector<std::uint64_t>> batches_;  // keys of one time each
    std::vector<std::uint32_t> free_batches_;
    std::array<Recent, std::size_t{1} << recent_bits> recent_{};
    bool batching_ = false;  // since a time held batching_from events
    std::uint64_t last_ = 0;
    std::size_t size_ = 0;
    SimTime now_ = 0;
    bool serving_ = false;  // a time has been popped: now_ is being served
    std::vector<std::uint64_t> batch_;  // keys of the events at now_, sorted
    std::size_t next_ = 0;              // first unserved entry of batch_
    std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>> late_;
};

}  // namespace piccolo::detail
