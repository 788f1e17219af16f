#include "select_fingerprint.hpp"

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
// that a collision needs both 64-bit chains to collide at once.
class Hasher {
  public:
    void add(std::uint64_t word) {
        first_ = mix(first_ ^ word);
        second_ = mix((second_ + word) * 0xff51afd7ed558ccdULL);
    }
    // The values' bytes, eight to a word (a 32-bit id costs half a word, a task kind an eighth):
    // the chains' latency per word is what hashing a large DAG costs. The count comes first,
    // so arrays of different lengths never read alike.
    template <class T>
    void add_all(std::span<const T> values) {
        static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(std::uint64_t));
        add(values.size());
        const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
        const std::size_t size = values.size_bytes();
        std::size_t at = 0;
        for (; at + sizeof(std::uint64_t) <= size; at += sizeof(std::uint64_t)) {
            std::uint64_t word = 0;
            std::memcpy(&word, bytes + at, sizeof word);
            add(word);
        }
        if (at < size) {
            std::uint64_t word = 0;
            std::memcpy(&word, bytes + at, size - at);
            add(word);
        }
    }
    [[nodiscard]] TimingHash result() const { return {first_, second_}; }

  private:
    std::uint64_t first_ = 0x243f6a8885a308d3ULL, second_ = 0x13198a2e03707344ULL;
};

}  // namespace

TimingHash timing_hash(const Schedule& s, bool resize_by_payload,
                       std::span<const Rank> true_destinations) {
    Hasher h;
    for (std::uint64_t part :
         {static_cast<std::uint64_t>(s.shape.collective), static_cast<std::uint64_t>(s.shape.ranks),
          s.shape.bytes, std::uint64_t{s.shape.pieces}})
        h.add(part);
    h.add_all<TaskKind>(s.kind);
    h.add_all<Rank>(s.src);
    h.add_all<Rank>(s.dst);
    h.add_all<std::uint32_t>(s.deps.offsets);
    h.add_all<TaskId>(s.deps.items);
    h.add_all<std::uint32_t>(s.sent_deps.offsets);
    h.add_all<TaskId>(s.sent_deps.items);
    h.add(s.size());
    for (TaskId t = 0; t < s.size(); ++t) h.add(s.bytes(t));
    if (resize_by_payload) {
        h.add_all<std::uint32_t>(s.payload.offsets);
        h.add_all<std::uint32_t>(s.payload.items);
    }
    if (!true_destinations.empty()) h.add_all<Rank>(true_destinations);
    return h.result();
}

}  // namespace piccolo::detail
