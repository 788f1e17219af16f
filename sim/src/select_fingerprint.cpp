#include "select_fingerprint.hpp"

#include <algorithm>

namespace piccolo::detail {

namespace {

// splitmix64's finaliser: every input bit affects every output bit.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

template <class T>
bool equal(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace

std::uint64_t timing_signature(const Schedule& s, bool resize_by_payload) {
    std::uint64_t h = 0;
    for (std::uint64_t part :
         {static_cast<std::uint64_t>(s.shape.collective), static_cast<std::uint64_t>(s.shape.ranks),
          s.shape.bytes, std::uint64_t{s.shape.pieces}, std::uint64_t{s.size()},
          std::uint64_t{s.deps.items.size()}, std::uint64_t{s.sent_deps.items.size()},
          std::uint64_t{s.size_values.size()},
          resize_by_payload ? std::uint64_t{s.payload.items.size()} : 0})
        h = mix(h ^ part);
    return h;
}

bool same_timing(const Schedule& a, const Schedule& b, bool resize_by_payload) {
    if (a.shape.collective != b.shape.collective || a.shape.ranks != b.shape.ranks ||
        a.shape.bytes != b.shape.bytes || a.shape.pieces != b.shape.pieces || a.size() != b.size())
        return false;
    if (!equal(a.kind, b.kind) || !equal(a.src, b.src) || !equal(a.dst, b.dst) ||
        !equal(a.deps.offsets, b.deps.offsets) || !equal(a.deps.items, b.deps.items) ||
        !equal(a.sent_deps.offsets, b.sent_deps.offsets) ||
        !equal(a.sent_deps.items, b.sent_deps.items))
        return false;
    for (TaskId t = 0; t < a.size(); ++t)
        if (a.bytes(t) != b.bytes(t)) return false;
    if (resize_by_payload)
        return equal(a.payload.offsets, b.payload.offsets) &&
               equal(a.payload.items, b.payload.items);
    return true;
}

}  // namespace piccolo::detail
