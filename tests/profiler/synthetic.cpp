#include "synthetic.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

namespace piccolo::profiler::testing {
namespace {

class Noise {
  public:
    explicit Noise(std::uint64_t seed) : engine_(seed) {}
    double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
    double normal() {
        // Box-Muller; 1 - u keeps the logarithm finite.
        const double u = 1 - uniform();
        const double v = uniform();
        return std::sqrt(-2 * std::log(u)) * std::cos(2 * std::numbers::pi * v);
    }

  private:
    std::mt19937_64 engine_;
};

}  // namespace

double model_prtt1(const LogGP& p, double bytes) {
    return 2 * (p.o_s + (bytes - 1) * p.G + p.L + p.o_r);
}

double model_prtt_n(const LogGP& p, double bytes, int n) {
    return model_prtt1(p, bytes) + (n - 1) * (std::max(p.o_s, p.g) + (bytes - 1) * p.G);
}

double model_prtt_nd(const LogGP& p, double bytes, int n, double delay) {
    return model_prtt1(p, bytes) + (n - 1) * (p.o_s + delay);
}

RawData synthetic_raw(const std::vector<SyntheticSegment>& segments,
                      const SyntheticOptions& options) {
    Noise noise(options.seed);
    auto sample = [&](double truth) {
        if (noise.uniform() < options.outlier_rate) return truth * (1.5 + 2.5 * noise.uniform());
        return truth * (1 + options.noise * noise.normal());
    };
    RawData raw;
    raw.machine_name = "synthetic";
    raw.levels = {{"node", 4}, {"system", 0}};
    for (std::size_t bytes : options.sizes) {
        const double s = static_cast<double>(bytes);
        auto segment = std::find_if(segments.begin(), segments.end(),
                                    [&](const SyntheticSegment& g) { return s <= g.up_to_bytes; });
        const LogGP& p = segment == segments.end() ? segments.back().params : segment->params;
        const double delay = model_prtt1(p, s);
        for (int rep = 0; rep < options.reps; ++rep) {
            raw.samples.push_back(
                {"node", SampleKind::prtt, 1, 0, bytes, rep, sample(model_prtt1(p, s))});
            raw.samples.push_back({"node", SampleKind::prtt, options.n, 0, bytes, rep,
                                   sample(model_prtt_n(p, s, options.n))});
            raw.samples.push_back({"node", SampleKind::prtt, options.n, delay, bytes, rep,
                                   sample(model_prtt_nd(p, s, options.n, delay))});
            raw.samples.push_back(
                {"node", SampleKind::o_r, 1, 2 * delay, bytes, rep, sample(p.o_r)});
        }
    }
    return raw;
}

}  // namespace piccolo::profiler::testing
