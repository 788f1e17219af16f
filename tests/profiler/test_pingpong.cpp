// Issue 5's end-to-end check: the engine, fed the committed measured profile of this machine,
// predicts the round trip the profiler measured. The measured PRTT(1,0,s) are the medians of the
// raw samples saved beside the profile (computed here independently of the fit); the prediction
// is a simulated 2-rank ping-pong (a message and the reply that depends on it).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "piccolo/engine.hpp"
#include "piccolo/machine_io.hpp"
#include "piccolo/profiler/raw_data.hpp"
#include "piccolo/schedule_xml.hpp"

using namespace piccolo;

namespace {

const std::string profile = "laptop-measured-2026-11-22";

double measured_round_trip(const profiler::RawData& raw, std::size_t bytes) {
    std::vector<double> samples;
    for (const profiler::RawSample& s : raw.samples)
        if (s.kind == profiler::SampleKind::prtt && s.n == 1 && s.delay == 0 && s.bytes == bytes &&
            s.level == "node")
            samples.push_back(s.seconds);
    REQUIRE(!samples.empty());
    std::nth_element(samples.begin(), samples.begin() + samples.size() / 2, samples.end());
    return samples[samples.size() / 2];
}

double simulated_round_trip(const Machine& machine, std::size_t bytes) {
    const std::string xml = fmt::format(
        "<collective name=\"allgather\" nodes=\"2\" buffer_size=\"{0}\">\n"
        "<transfer id=\"0\" size=\"{1}\" src=\"0\" dst=\"1\" deps=\"-1\"/>\n"
        "<transfer id=\"1\" size=\"{1}\" src=\"1\" dst=\"0\" deps=\"0\"/>\n</collective>\n",
        2 * bytes, bytes);
    const Schedule ping_pong = parse_schedule_xml(xml, "ping-pong.xml").schedule;
    return simulate(ping_pong, machine, RankLayout(machine, 1, 2)).makespan;
}

}  // namespace

TEST_CASE("a simulated ping-pong predicts the measured PRTT(1,0,s) within 15%") {
    const Machine machine = load_preset(profile);
    const profiler::RawData raw = profiler::read_raw_csv(std::string(PICCOLO_SOURCE_DIR) +
                                                         "/profiler/data/" + profile + ".raw.csv");
    for (std::size_t bytes : {std::size_t{8}, std::size_t{64} << 10, std::size_t{1} << 20}) {
        const double measured = measured_round_trip(raw, bytes);
        const double simulated = simulated_round_trip(machine, bytes);
        INFO(fmt::format("{} B: measured {:.4g} us, simulated {:.4g} us", bytes, measured * 1e6,
                         simulated * 1e6));
        CHECK(std::abs(simulated / measured - 1) <= 0.15);
    }
}
