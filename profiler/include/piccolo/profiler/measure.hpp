#pragma once
// The PRTT measurement of Hoefler, Lichei and Rehm ("Low-overhead LogGP parameter assessment
// for modern interconnection networks", IPDPS 2007; the method of Netgauge), run over any
// Transport. One side (the client) drives: it chooses the sizes, decides when a median is
// precise enough and records the samples. The other side runs serve() and only answers.
//
// PRTT(n, d, s): the client sends n messages of s bytes with a busy-wait of d seconds between
// consecutive sends; the partner receives all n and replies with one message of s bytes; the
// client times from the first send until the reply has arrived.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "piccolo/profiler/raw_data.hpp"
#include "piccolo/profiler/transport.hpp"

namespace piccolo::profiler {

struct MeasureSettings {
    std::size_t min_bytes = 8;
    std::size_t max_bytes = std::size_t{4} << 20;
    double grid_factor = 2;       // geometric spacing of the initial size grid
    int refine_rounds = 2;        // passes that add sizes where the curves bend
    double bend_tolerance = 0.1;  // relative deviation from the neighbours' chord that counts
    int train_length = 16;        // n of PRTT(n, d, s)
    int warmup = 2;               // discarded repetitions before each series
    int batch = 10;               // repetitions per request to the partner
    int min_reps = 20;
    int max_reps = 300;
    double target_ci = 0.02;     // stop once the median's 95 % CI half-width is below this
    double series_budget_s = 2;  // ... or once a series took this long (after min_reps)
    std::vector<int> radix_concurrency{1, 2, 4, 8, 16};
    std::size_t radix_bytes = std::size_t{1} << 20;

    static MeasureSettings full() { return {}; }
    // For CI: a coarse grid and few repetitions; finishes in seconds over shared memory.
    static MeasureSettings quick();
};

// Medians of one message size, as seen live by the client (the fit recomputes them from the
// raw samples).
struct LiveSizePoint {
    std::size_t bytes = 0;
    double prtt1 = 0;    // PRTT(1, 0, s)
    double prtt_n = 0;   // PRTT(n, 0, s)
    double prtt_nd = 0;  // PRTT(n, d, s), d = PRTT(1, 0, s)
    double o_r = 0;
};

using ProgressLog = std::function<void(std::string_view)>;

// Size grid: min, min*f, min*f^2, ... (rounded, strictly increasing), always ending in max.
std::vector<std::size_t> geometric_sizes(std::size_t min_bytes, std::size_t max_bytes,
                                         double factor);

// Sizes to add between measured ones where `values` bends: an interior point that deviates
// from the straight chord of its two neighbours by more than `tolerance` (relative) gets the
// geometric midpoints of both adjacent intervals. A piecewise linear curve (LogGP inside one
// protocol) never triggers; a protocol switch does. `sizes` must be increasing.
std::vector<std::size_t> refinement_sizes(const std::vector<std::size_t>& sizes,
                                          const std::vector<double>& values, double tolerance);

// Client: measures the four PRTT series at every grid size (with refinement) and appends the
// raw samples, tagged with `level`, to `out`. Returns the live medians per size.
std::vector<LiveSizePoint> measure_loggp(Transport& transport, int peer,
                                         const MeasureSettings& settings, const std::string& level,
                                         std::vector<RawSample>& out, const ProgressLog& log = {});

// Client: time for c = settings.radix_concurrency transfers of settings.radix_bytes in flight
// at once (then a 1-byte acknowledgement). `scope` names whose radix this probes.
void measure_radix(Transport& transport, int peer, const MeasureSettings& settings,
                   const std::string& scope, std::vector<RawSample>& out,
                   const ProgressLog& log = {});

// Partner: answers the client's requests until finish_serving() arrives.
void serve(Transport& transport, int client);
// Client: releases the partner's serve().
void finish_serving(Transport& transport, int partner);

}  // namespace piccolo::profiler
