#include "reclaim.hpp"

#include <algorithm>
#include <span>

namespace piccolo::detail {

namespace {

// The bytes of the pieces two sorted lists share.
std::uint64_t shared_bytes(const CollectiveShape& shape, std::span<const std::uint32_t> a,
                           std::span<const std::uint32_t> b) {
    std::uint64_t bytes = 0;
    auto i = a.begin();
    auto j = b.begin();
    while (i != a.end() && j != b.end()) {
        if (*i < *j) {
            ++i;
        } else if (*j < *i) {
            ++j;
        } else {
            bytes += shape.piece_bytes(*i);
            ++i;
            ++j;
        }
    }
    return bytes;
}

std::vector<std::uint32_t> sorted(std::span<const std::uint32_t> row) {
    std::vector<std::uint32_t> copy(row.begin(), row.end());
    std::ranges::sort(copy);
    return copy;
}

}  // namespace

std::vector<SimTime> reclaim_times(const Schedule& s, const Machine& machine,
                                   const std::function<std::size_t(TaskId)>& level_of) {
    if (!prices_reclaim(machine) || !s.has_payload()) return {};
    std::vector<SimTime> times(s.size(), 0);
    bool any = false;
    for (TaskId r = 0; r < s.size(); ++r) {
        if (s.kind[r] != TaskKind::reduce) continue;
        const std::vector<std::uint32_t> written = sorted(s.payload.row(r));
        SimTime dearest = 0;
        for (std::span<const TaskId> row : {s.deps.row(r), s.sent_deps_of(r)}) {
            for (TaskId t : row) {
                if (s.kind[t] != TaskKind::transfer || s.src[t] != s.src[r]) continue;
                const std::uint64_t bytes = shared_bytes(s.shape, sorted(s.payload.row(t)), written);
                const double per_byte = machine.levels[level_of(t)].reclaim_per_byte;
                dearest = std::max(dearest, per_byte_time(bytes, per_byte));
            }
        }
        times[r] = dearest;
        any = any || dearest > 0;
    }
    if (!any) return {};
    return times;
}

}  // namespace piccolo::detail
