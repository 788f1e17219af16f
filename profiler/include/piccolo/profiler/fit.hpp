#pragma once
// From raw PRTT samples to LogGP tables (profiler/README.md, "Method"):
//   gap(s) = [PRTT(n,0,s) - PRTT(1,0,s)] / (n-1)     fitted piecewise as g + (s-1) G
//   o_s(s) = [PRTT(n,d,s) - PRTT(1,0,s)] / (n-1) - d with d = PRTT(1,0,s)
//   o_r(s) measured at the receiver
//   L(s)   = PRTT(1,0,s)/2 - o_s - o_r - (s-1) G     (so L does not count the overheads twice)
// Medians after MAD outlier rejection per series; segments (protocols) chosen on the gap and
// half-round-trip curves together; residuals reported per segment.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "piccolo/profiler/raw_data.hpp"
#include "piccolo/profiler/segmented_fit.hpp"
#include "piccolo/topologies/machine.hpp"

namespace piccolo::profiler {

// Medians of the four series at one message size.
struct SizePoint {
    double bytes = 0;
    int n = 0;         // train length of PRTT(n, ., s)
    double delay = 0;  // d of PRTT(n, d, s)
    double prtt1 = 0, prtt_n = 0, prtt_nd = 0, o_r = 0;
    std::size_t samples = 0, rejected = 0;

    [[nodiscard]] double gap() const { return (prtt_n - prtt1) / (n - 1); }
    [[nodiscard]] double o_s() const { return (prtt_nd - prtt1) / (n - 1) - delay; }
    [[nodiscard]] double half_round_trip() const { return prtt1 / 2; }
};

struct SegmentFit {
    double first_bytes = 0, last_bytes = 0;
    std::size_t points = 0;
    // All four are lines in x = s - 1 over the segment's sizes.
    LineFit gap;              // intercept g, slope G
    LineFit half_round_trip;  // intercept L + o_s + o_r
    LineFit o_s, o_r;
    // Parameters at the segment's first size, before the consistency adjustments of the table.
    [[nodiscard]] LogGP parameters() const;
};

struct LevelFit {
    std::string level;
    std::vector<SizePoint> points;
    std::vector<SegmentFit> segments;
    std::vector<LogGPRow> rows;      // the table written to the machine file
    std::vector<std::string> notes;  // consistency adjustments, in words
};

struct RadixFit {
    std::string scope;  // device, node, group, ...
    std::size_t bytes = 0;
    std::vector<int> concurrency;
    std::vector<double> throughput;  // bytes per second, aggregate
    int knee = 0;
    bool saturated = false;  // false: throughput still grew at the largest concurrency
};

// Transfers started together inside one unit of a level (the concurrent node probe): n = 1 is
// one transfer alone, n > 1 that many at once between distinct rank pairs or directions.
struct ConcurrencyFit {
    std::string level;
    std::size_t bytes = 0;           // per transfer, the largest size probed
    std::vector<int> transfers;      // n, ascending, starting at 1
    std::vector<double> throughput;  // bytes per second, aggregate of the n transfers
    // The largest n reached less than min_scaling x n x the rate of one: the transfers share a
    // bandwidth, and `capacity` (the highest aggregate seen) is the unit's internal capacity.
    bool shared = false;
    double capacity = 0;
    double scaling = 0;  // aggregate at the largest n over n x the rate of one
};

struct ComputeFit {
    std::string kind;  // reduce or copy
    double seconds_per_byte = 0;
};

// A reduction into data just sent over a level, against one into data not sent (the reclaim
// probe): the median extra per byte over every size and repetition, and 0 where that median is
// not above 0 (no core kept the lines: the difference is noise).
struct ReclaimFit {
    std::string level;
    double seconds_per_byte = 0;  // Level::reclaim_per_byte
    double median = 0;            // the median itself, signed, s/B
    std::size_t samples = 0;
};

struct ProfileFit {
    std::vector<LevelFit> levels;
    std::vector<RadixFit> radices;
    std::vector<ComputeFit> compute;
    std::vector<ConcurrencyFit> concurrency;
    std::vector<ReclaimFit> reclaims;
};

struct FitOptions {
    SegmentationOptions segmentation;
    double radix_min_gain = 0.10;
    // Independent transfers scale with their number up to timer noise; a measured aggregate
    // below this fraction of n x the single rate is a shared bandwidth.
    double concurrent_min_scaling = 0.90;
};

// Throughputs and the capacity decision of the concurrent probe of one level; `by_count` maps n
// to the repetition times of n transfers of `bytes` each. Throws InputError (naming `origin`)
// without a single-transfer (n = 1) series.
ConcurrencyFit fit_concurrency(const std::string& origin, const std::string& level,
                               std::size_t bytes,
                               const std::map<int, std::vector<double>>& by_count,
                               double min_scaling = 0.90);

// First c whose successor raises the throughput by less than min_gain (relative); the last c
// (saturated = false) when every step still gains. Inputs sorted by concurrency, non-empty.
RadixFit find_knee(RadixFit probe, double min_gain = 0.10);

// The reclaim rows of `raw` (kind reclaim), per level: the median of every row's extra seconds
// per byte, and 0 where it is not above 0. Throws InputError (naming `origin`) for rows of 0
// bytes or of a level no '# level:' line names.
std::vector<ReclaimFit> fit_reclaims(const RawData& raw, const std::string& origin);

// Throws InputError (naming `origin`) when a level lacks one of the series.
ProfileFit fit_profile(const RawData& raw, const std::string& origin,
                       const FitOptions& options = {});

// Machine with one level per raw.levels entry (tables of unmeasured levels copied from the
// nearest measured one, noted in `notes`), radices from the knees, compute costs if measured,
// an internal capacity (fair sharing) on a level whose concurrent probe saturated, and each
// probed level's reclaim cost.
Machine to_machine(const RawData& raw, const ProfileFit& fit,
                   std::vector<std::string>* notes = nullptr);

// Human-readable fit report (one line per segment, per size and per radix probe).
std::string format_report(const ProfileFit& fit);

// The machine YAML with a '#' header: raw.info lines (date, command, host, ...), the report
// and the notes. This is the file `piccolo sim --machine FILE` reads.
std::string profile_yaml(const RawData& raw, const ProfileFit& fit);

}  // namespace piccolo::profiler
