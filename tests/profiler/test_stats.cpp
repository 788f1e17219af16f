#include <doctest/doctest.h>

#include <vector>

#include "piccolo/profiler/stats.hpp"

using namespace piccolo::profiler;

TEST_CASE("median of odd and even samples") {
    CHECK(median(std::vector<double>{3, 1, 2}) == 2);
    CHECK(median(std::vector<double>{4, 1, 3, 2}) == 2.5);  // (2 + 3) / 2
}

TEST_CASE("median absolute deviation") {
    // median 3; deviations 2, 1, 0, 1, 97 -> median 1
    CHECK(median_absolute_deviation(std::vector<double>{1, 2, 3, 4, 100}) == 1);
}

TEST_CASE("MAD rule drops a far outlier and keeps the rest") {
    // robust sigma = 1.4826 * 1; cutoff 3.5 sigma = 5.19 around 3: 100 goes, 1..4 stay
    const auto kept = reject_outliers(std::vector<double>{1, 2, 3, 4, 100});
    CHECK(kept == std::vector<double>{1, 2, 3, 4});
}

TEST_CASE("MAD rule with MAD 0 keeps the samples equal to the median") {
    // deviations 0, 0, 0, 4 -> MAD 0: only exact matches of the median survive
    CHECK(reject_outliers(std::vector<double>{5, 5, 9, 5}) == std::vector<double>{5, 5, 5});
}

TEST_CASE("order statistics of the 95% confidence interval of the median") {
    // n = 100: 1.96 * 10 = 19.6; floor((100 - 19.6) / 2) = 40; ceil(1 + 119.6 / 2) = 61
    CHECK(median_ci_ranks(100).low == 40);
    CHECK(median_ci_ranks(100).high == 61);
    // n = 20: 1.96 * 4.472 = 8.765; floor(5.62) = 5; ceil(1 + 14.38) = 16
    CHECK(median_ci_ranks(20).low == 5);
    CHECK(median_ci_ranks(20).high == 16);
    // n = 9: floor(1.56) = 1; ceil(8.44) = 9 (the whole range)
    CHECK(median_ci_ranks(9).low == 1);
    CHECK(median_ci_ranks(9).high == 9);
    CHECK(median_ci_ranks(1).low == 1);
    CHECK(median_ci_ranks(1).high == 1);
}

TEST_CASE("summary: outlier rejected, median and interval of the rest") {
    // 1..9 and 100: median 5.5, MAD 2.5, cutoff 3.5 * 1.4826 * 2.5 = 12.97 -> 100 rejected;
    // 1..9 remain: median 5, ranks 1 and 9 -> [1, 9], relative half width (9 - 1) / (2 * 5)
    const auto s = summarize(std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 100});
    CHECK(s.kept == 9);
    CHECK(s.rejected == 1);
    CHECK(s.median == 5);
    CHECK(s.ci_low == 1);
    CHECK(s.ci_high == 9);
    CHECK(s.relative_ci_half_width() == doctest::Approx(0.8));
}
