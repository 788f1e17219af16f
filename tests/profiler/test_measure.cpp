#include <doctest/doctest.h>

#include <thread>
#include <vector>

#include "piccolo/profiler/fit.hpp"
#include "piccolo/profiler/measure.hpp"
#include "synthetic.hpp"
#include "virtual_transport.hpp"

using namespace piccolo::profiler;
using piccolo::LogGP;
using testing::VirtualLink;

namespace {

// Few repetitions suffice: the virtual link has no noise, every sample is exact.
MeasureSettings exact_settings() {
    MeasureSettings s;
    s.min_bytes = 8;
    s.max_bytes = std::size_t{1} << 20;
    s.grid_factor = 4;
    s.train_length = 8;
    s.warmup = 1;
    s.batch = 4;
    s.min_reps = 4;
    s.max_reps = 8;
    return s;
}

// Runs the client on this thread and the partner on another, as two ranks would.
RawData measure_over(VirtualLink& link, const MeasureSettings& settings, bool radix) {
    RawData raw;
    raw.levels = {{"node", 2}, {"system", 0}};
    std::jthread partner([&] { serve(link.endpoint(1), 0); });
    measure_loggp(link.endpoint(0), 1, settings, "node", raw.samples);
    if (radix) measure_radix(link.endpoint(0), 1, settings, "device", raw.samples);
    finish_serving(link.endpoint(0), 1);
    return raw;
}

void check_relative(double actual, double expected, double tolerance = 1e-9) {
    CHECK(actual == doctest::Approx(expected).epsilon(tolerance));
}

}  // namespace

TEST_CASE("geometric size grid") {
    CHECK(geometric_sizes(8, 64, 2) == std::vector<std::size_t>{8, 16, 32, 64});
    // 8, 32, then 128 > 100: the maximum closes the grid
    CHECK(geometric_sizes(8, 100, 4) == std::vector<std::size_t>{8, 32, 100});
    // round(1 * 1.2) = 1 is not larger: sizes still increase by at least one byte
    CHECK(geometric_sizes(1, 3, 1.2) == std::vector<std::size_t>{1, 2, 3});
}

TEST_CASE("grid refinement: nothing added along a straight line") {
    const std::vector<std::size_t> sizes{8, 16, 32, 64};
    CHECK(refinement_sizes(sizes, {1.8, 2.6, 4.2, 7.4}, 0.1).empty());  // 1 + 0.1 s
}

TEST_CASE("grid refinement: midpoints around a step") {
    // At 32 the chord from (16, 1) to (64, 5) gives 1 + 4 * 16/48 = 2.33, 133% off 1: the
    // geometric midpoints round(sqrt(16*32)) = 23 and round(sqrt(32*64)) = 45 are added.
    const std::vector<std::size_t> sizes{8, 16, 32, 64};
    CHECK(refinement_sizes(sizes, {1, 1, 1, 5}, 0.1) == std::vector<std::size_t>{23, 45});
}

TEST_CASE("PRTT over an exact LogGP link recovers every parameter") {
    const LogGP truth{1.5e-6, 0.4e-6, 0.6e-6, 0.9e-6, 0.08e-9};
    VirtualLink link({truth, 1});
    const RawData raw = measure_over(link, exact_settings(), false);
    const ProfileFit fit = fit_profile(raw, "virtual");
    REQUIRE(fit.levels.size() == 1);
    const LevelFit& level = fit.levels.front();
    REQUIRE(level.segments.size() == 1);  // one protocol: a straight gap line
    const LogGP p = level.segments.front().parameters();
    check_relative(p.L, truth.L);
    check_relative(p.o_s, truth.o_s);
    check_relative(p.o_r, truth.o_r);
    check_relative(p.g, truth.g);
    check_relative(p.G, truth.G);
    // The grid 8, 32, ..., 512 KiB, 1 MiB (factor 4) needs no refinement on straight curves.
    REQUIRE(level.rows.size() == 10);
    for (const auto& row : level.rows) {
        check_relative(row.params.L, truth.L, 1e-6);
        check_relative(row.params.o_s, truth.o_s, 1e-6);
        check_relative(row.params.o_r, truth.o_r, 1e-6);
        check_relative(row.params.g, truth.g);
        check_relative(row.params.G, truth.G);
    }
    CHECK(level.notes.empty());
}

TEST_CASE("L does not include o_s + o_r") {
    // Overheads dominate: one message takes o_s + (s-1)G + L + o_r = 3.2 us + (s-1)G; half the
    // round trip minus the wire time would call that all latency. piccolo subtracts both
    // overheads: L comes back as 0.2 us. (g >= o_r keeps the receiver from throttling trains.)
    const LogGP truth{0.2e-6, 1.0e-6, 2.0e-6, 2.5e-6, 0.1e-9};
    VirtualLink link({truth, 1});
    const ProfileFit fit = fit_profile(measure_over(link, exact_settings(), false), "virtual");
    const LevelFit& level = fit.levels.front();
    for (std::size_t i = 0; i < level.rows.size(); ++i) {
        const auto& row = level.rows[i];
        const double x = row.bytes - 1;
        const double half_round_trip = level.points[i].prtt1 / 2;
        check_relative(row.params.L, 0.2e-6, 1e-6);
        CHECK(half_round_trip - x * truth.G == doctest::Approx(3.2e-6).epsilon(1e-9));
        // The simulator's one-way time from the table is the measured half round trip.
        check_relative(row.params.o_s + x * row.params.G + row.params.L + row.params.o_r,
                       half_round_trip);
    }
}

TEST_CASE("radix probe: knee at the number of slots") {
    // 4 slots per direction, 1 MiB transfers: up to 4 in flight the wire time overlaps, beyond
    // that transfers queue, so 8 gains nothing over 4.
    const LogGP truth{1e-6, 0.2e-6, 0.3e-6, 0.5e-6, 0.1e-9};
    VirtualLink link({truth, 4});
    const RawData raw = measure_over(link, exact_settings(), true);
    const ProfileFit fit = fit_profile(raw, "virtual");
    REQUIRE(fit.radices.size() == 1);
    CHECK(fit.radices.front().scope == "device");
    CHECK(fit.radices.front().concurrency == std::vector<int>{1, 2, 4, 8, 16});
    CHECK(fit.radices.front().knee == 4);
    CHECK(fit.radices.front().saturated);
    CHECK(piccolo::profiler::to_machine(raw, fit).device_radix == 4);
}

TEST_CASE("radix probe: no knee when every step still gains") {
    const LogGP truth{1e-6, 0.2e-6, 0.3e-6, 0.5e-6, 0.1e-9};
    VirtualLink link({truth, 64});
    const ProfileFit fit = fit_profile(measure_over(link, exact_settings(), true), "virtual");
    CHECK(fit.radices.front().knee == 16);
    CHECK_FALSE(fit.radices.front().saturated);
}

TEST_CASE("virtual link follows the DESIGN semantics for one message") {
    // Both clocks start at 0. The sender is busy o_s = 0.4 us; the data is usable at the
    // receiver after o_s + (m-1)G + L + o_r = 0.4 + 0.8 + 1.5 + 0.6 = 3.3 us for m = 10001 B
    // at G = 0.08 ns/B.
    const LogGP p{1.5e-6, 0.4e-6, 0.6e-6, 0.9e-6, 0.08e-9};
    VirtualLink link({p, 1});
    double received = 0;
    std::jthread receiver([&] {
        link.endpoint(1).start_timer();
        link.endpoint(1).recv(0, 10001);
        received = link.endpoint(1).stop_timer();
    });
    link.endpoint(0).start_timer();
    link.endpoint(0).send(1, 10001, 0);
    CHECK(link.endpoint(0).stop_timer() == doctest::Approx(0.4e-6));
    receiver.join();
    CHECK(received == doctest::Approx(3.3e-6));
    CHECK(testing::model_prtt1(p, 10001) / 2 == doctest::Approx(3.3e-6));
}

TEST_CASE("virtual link: an exchange is a send and a receive in flight together") {
    // Both endpoints exchange m = 10001 B at once. Each injects its message (busy o_s = 0.4 us),
    // then its receive completes o_r after the peer's last byte arrives: o_s + (m-1)G + L + o_r
    // = 0.4 + 0.8 + 1.5 + 0.6 = 3.3 us on both sides, the time of one message alone.
    const LogGP p{1.5e-6, 0.4e-6, 0.6e-6, 0.9e-6, 0.08e-9};
    VirtualLink link({p, 1});
    double peer = 0;
    std::jthread other([&] {
        link.endpoint(1).start_timer();
        link.endpoint(1).exchange(0, 10001);
        peer = link.endpoint(1).stop_timer();
    });
    link.endpoint(0).start_timer();
    link.endpoint(0).exchange(1, 10001);
    CHECK(link.endpoint(0).stop_timer() == doctest::Approx(3.3e-6));
    other.join();
    CHECK(peer == doctest::Approx(3.3e-6));
}
