#pragma once
// Raw PRTT samples generated from known LogGP parameters, with multiplicative Gaussian noise and
// a fraction of outliers (delays of 1.5x to 4x, as preemption or interrupts cause), reproducible
// from a seed on every platform (mt19937_64 is fully specified; the normal variates come from
// our own Box-Muller transform, not from std::normal_distribution).

#include <cstdint>
#include <vector>

#include "piccolo/profiler/raw_data.hpp"
#include "piccolo/topologies/machine.hpp"

namespace piccolo::profiler::testing {

struct SyntheticSegment {
    double up_to_bytes;  // the segment holds for sizes <= this (the last one for all larger)
    LogGP params;
};

struct SyntheticOptions {
    std::vector<std::size_t> sizes;
    int n = 16;
    int reps = 300;
    double noise = 0.05;         // relative standard deviation of every sample
    double outlier_rate = 0.02;  // fraction of samples replaced by outliers
    std::uint64_t seed = 20261121;
};

// The noise-free PRTT values of the model (DESIGN.md semantics, d = PRTT(1,0,s)).
double model_prtt1(const LogGP& p, double bytes);
double model_prtt_n(const LogGP& p, double bytes, int n);
double model_prtt_nd(const LogGP& p, double bytes, int n, double delay);

RawData synthetic_raw(const std::vector<SyntheticSegment>& segments,
                      const SyntheticOptions& options);

}  // namespace piccolo::profiler::testing
