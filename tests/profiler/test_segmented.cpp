#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "piccolo/profiler/segmented_fit.hpp"

using namespace piccolo::profiler;

TEST_CASE("least squares line through exact points") {
    const std::vector<double> x{0, 1, 2, 3}, y{2, 5, 8, 11}, w{1, 1, 1, 1};
    const LineFit fit = fit_line(x, y, w);
    CHECK(fit.intercept == doctest::Approx(2));
    CHECK(fit.slope == doctest::Approx(3));
    CHECK(fit.weighted_sse == doctest::Approx(0));
    CHECK_FALSE(fit.at_bound);
}

TEST_CASE("slope bound: a falling line becomes the flat mean") {
    // unconstrained slope -0.5 < 0: slope 0, intercept = mean 0.5, SSE 0.25 + 0 + 0.25
    const std::vector<double> x{0, 1, 2}, y{1, 0.5, 0}, w{1, 1, 1};
    const LineFit fit = fit_line(x, y, w, {-1e300, 0});
    CHECK(fit.at_bound);
    CHECK(fit.slope == 0);
    CHECK(fit.intercept == doctest::Approx(0.5));
    CHECK(fit.weighted_sse == doctest::Approx(0.5));
}

TEST_CASE("intercept bound: the line is pinned at the bound and refitted") {
    // unconstrained y = -1 + 2x; with a >= 0: b = sum x y / sum x^2 = (0 + 1 + 6) / 5 = 1.4,
    // SSE = 1 + 0.16 + 0.04 = 1.2
    const std::vector<double> x{0, 1, 2}, y{-1, 1, 3}, w{1, 1, 1};
    const LineFit fit = fit_line(x, y, w, {0, -1e300});
    CHECK(fit.at_bound);
    CHECK(fit.intercept == 0);
    CHECK(fit.slope == doctest::Approx(1.4));
    CHECK(fit.weighted_sse == doctest::Approx(1.2));
}

TEST_CASE("relative weights: residuals count relative to each value") {
    // Points (0, 1), (1, 1), (1, 4) weigh 1, 1, 1/16. The line passes through (0, 1) and the
    // weighted mean at x = 1, (1 + 4/16) / (1 + 1/16) = 20/17, so the slope is 3/17 and
    // SSE = (3/17)^2 + (48/17)^2 / 16 = 9/289 + 144/289 = 9/17; rms = sqrt(9/17 / 3) = sqrt(3/17).
    const std::vector<double> x{0, 1, 1}, y{1, 1, 4};
    const LineFit fit = fit_line_relative(x, y);
    CHECK(fit.intercept == doctest::Approx(1));
    CHECK(fit.slope == doctest::Approx(3.0 / 17));
    CHECK(fit.weighted_sse == doctest::Approx(9.0 / 17));
    CHECK(fit.rms() == doctest::Approx(std::sqrt(3.0 / 17)));
}

TEST_CASE("segmentation finds one protocol switch") {
    std::vector<double> x, y;
    for (int i = 0; i < 10; ++i) {
        x.push_back(i);
        y.push_back(i <= 4 ? 1 + i : 20 + 2 * i);
    }
    const Segmentation s = segment_curves(x, {y}, {LineBounds{}});
    REQUIRE(s.pieces.size() == 2);
    CHECK(s.pieces[0].first == 0);
    CHECK(s.pieces[0].last == 4);
    CHECK(s.pieces[1].first == 5);
    CHECK(s.pieces[1].last == 9);
}

TEST_CASE("segmentation keeps one straight line whole") {
    std::vector<double> x, y;
    for (int i = 0; i < 12; ++i) {
        x.push_back(i);
        y.push_back(1 + 0.5 * i);
    }
    const Segmentation s = segment_curves(x, {y}, {LineBounds{}});
    REQUIRE(s.pieces.size() == 1);
    CHECK(s.pieces[0].last == 11);
}

TEST_CASE("segmentation finds three protocols and uses every curve") {
    // The first curve switches at 4 and 8; the second is one line: the cut comes from the first.
    std::vector<double> x, y, straight;
    for (int i = 0; i < 12; ++i) {
        x.push_back(i);
        y.push_back(i < 4 ? 1 + i : (i < 8 ? 50 + i : 200 + 3 * i));
        straight.push_back(3 + i);
    }
    const Segmentation s = segment_curves(x, {y, straight}, {LineBounds{}, LineBounds{}});
    REQUIRE(s.pieces.size() == 3);
    CHECK(s.pieces[0].last == 3);
    CHECK(s.pieces[1].first == 4);
    CHECK(s.pieces[1].last == 7);
    CHECK(s.pieces[2].first == 8);
}
