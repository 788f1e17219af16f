// The reclaim probe's fit (fit.hpp, ReclaimFit): per level, the median extra seconds per byte
// of a reduction into just-sent data.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "piccolo/core/error.hpp"
#include "piccolo/profiler/fit.hpp"
#include "piccolo/profiler/stats.hpp"

namespace piccolo::profiler {

// Per level: the median of every reclaim sample's extra seconds per byte.
std::vector<ReclaimFit> fit_reclaims(const RawData& raw, const std::string& origin) {
    std::map<std::string, std::vector<double>> per_byte;
    for (const RawSample& s : raw.samples) {
        if (s.kind != SampleKind::reclaim) continue;
        if (s.bytes == 0)
            throw InputError(fmt::format("{}: level '{}': a reclaim sample of 0 bytes (re-run the "
                                         "profiler)",
                                         origin, s.level));
        per_byte[s.level].push_back(s.seconds / static_cast<double>(s.bytes));
    }
    std::vector<ReclaimFit> fits;
    for (const auto& entry : per_byte) {
        const std::string& level = entry.first;
        const std::vector<double>& values = entry.second;
        const bool listed = std::any_of(raw.levels.begin(), raw.levels.end(),
                                        [&](const LevelInfo& l) { return l.name == level; });
        if (!listed)
            throw InputError(fmt::format("{}: reclaim samples of level '{}', which no '# level:' "
                                         "line names (add the line or remove the samples)",
                                         origin, level));
        // Every sample counts (no outlier rejection): the cost is the typical repetition's.
        const double middle = median(values);
        fits.push_back({level, std::max(middle, 0.0), middle, values.size()});
    }
    return fits;
}

}  // namespace piccolo::profiler
