#include "piccolo/select/select_fingerprint.hpp"

#include <array>
#include <cstring>
#include <span>
#include <type_traits>

namespace piccolo::detail {

namespace {

// splitmix64's finaliser: every input bit affects every output bit.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// Two chains over the same words, seeded apart and mixed with different odd multipliers, so
// that a collision needs both 64-bit chains to collide at once. Each chain runs in four lanes
// that take consecutive words in turn and are folded at the end: one lane's latency per word
// (a few dependent multiplies) was what hashing a large DAG cost, and four lanes overlap it.
class Hasher {
  public:
    void add(std::uint64_t word) {
        step(first_[next_], second_[next_], word);
        next_ = (next_ + 1) % lanes;
    }
    // The values' bytes, eight to a word (a 32-bit id costs half a word, a task kind an eighth).
    // The count comes first, so arrays of different lengths never read alike.
    template <class T>
    void add_all(std::span<const T> values) {
        static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(std::uint64_t));
        add(values.size());
        const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
        const std::size_t size = values.size_bytes();
        add_words(size / sizeof(std::uint64_t), [&](std::size_t i) {
            std::uint64_t word = 0;
            std::memcpy(&word, bytes + i * sizeof word, sizeof word);
            return word;
        });
        if (const std::size_t rest = size % sizeof(std::uint64_t); rest > 0) {
            std::uint64_t word = 0;
            std::memcpy(&word, bytes + size - rest, rest);
            add(word);
        }
    }
    // The words word(0) .. word(n - 1), starting at the first lane.
    template <class Word>
    void add_words(std::size_t n, Word word) {
        while (next_ != 0) add(0);
        Lanes first = first_, second = second_;  // locals: the words read cannot alias them
        std::size_t i = 0;
        for (; i + lanes <= n; i += lanes)
            for (std::size_t lane = 0; lane < lanes; ++lane)
                step(first[lane], second[lane], word(i + lane));
        first_ = first;
        second_ = second;
        for (; i < n; ++i) add(word(i));
    }
    [[nodiscard]] TimingHash result() const {
        std::uint64_t first = 0x243f6a8885a308d3ULL, second = 0x13198a2e03707344ULL;
        for (std::size_t lane = 0; lane < lanes; ++lane) {
            first = mix(first ^ first_[lane]);
            second = mix((second + second_[lane]) * 0xff51afd7ed558ccdULL);
        }
        return {first, second};
    }

  private:
    static constexpr std::size_t lanes = 4;
    using Lanes = std::array<std::uint64_t, lanes>;
    static void step(std::uint64_t& first, std::uint64_t& second, std::uint64_t word) {
        first = mix(first ^ word);
        second = mix((second + word) * 0xff51afd7ed558ccdULL);
    }

    Lanes first_{0xa4093822299f31d0ULL, 0x082efa98ec4e6c89ULL, 0x452821e638d01377ULL,
                 0xbe5466cf34e90c6cULL};
    Lanes second_{0xc0ac29b7c97c50ddULL, 0x3f84d5b5b5470917ULL, 0x9216d5d98979fb1bULL,
                  0xd1310ba698dfb5acULL};
    std::size_t next_ = 0;
};

}  // namespace

TimingHash timing_hash(const Schedule& s, bool resize_by_payload,
                       std::span<const Rank> true_destinations,
                       std::span<const std::uint64_t> full_ids) {
    Hasher h;
    for (std::uint64_t part :
         {static_cast<std::uint64_t>(s.shape.collective), static_cast<std::uint64_t>(s.shape.ranks),
          s.shape.bytes, std::uint64_t{s.shape.pieces}, static_cast<std::uint64_t>(s.shape.cut)})
        h.add(part);
    h.add_all<TaskKind>(s.kind);
    h.add_all<Rank>(s.src);
    h.add_all<Rank>(s.dst);
    h.add_all<std::uint32_t>(s.deps.offsets);
    h.add_all<TaskId>(s.deps.items);
    h.add_all<std::uint32_t>(s.sent_deps.offsets);
    h.add_all<TaskId>(s.sent_deps.items);
    h.add(s.size());
    h.add_words(s.size(), [&](std::size_t t) { return s.bytes(static_cast<TaskId>(t)); });
    if (resize_by_payload) {
        h.add_all<std::uint32_t>(s.payload.offsets);
        h.add_all<std::uint32_t>(s.payload.items);
    }
    if (!true_destinations.empty()) h.add_all<Rank>(true_destinations);
    if (!full_ids.empty()) h.add_all<std::uint64_t>(full_ids);
    return h.result();
}

}  // namespace piccolo::detail
