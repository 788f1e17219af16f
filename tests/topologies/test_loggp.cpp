// LogGP tables: interpolation by hand, flat extrapolation, validation messages.
#include <doctest/doctest.h>

#include <limits>

#include "piccolo/core/error.hpp"
#include "piccolo/topologies/machine.hpp"

using namespace piccolo;

namespace {

// Parameters in made-up units that are exact in binary, so interpolation can be checked with ==.
LogGPRow row(double s, double L, double o_s, double o_r, double g, double G) {
    return LogGPRow{s, LogGP{L, o_s, o_r, g, G}};
}

const LogGPTable& three_rows() {
    static const LogGPTable table({
        row(100, 1, 2, 3, 4, 0.5),
        row(300, 3, 2, 1, 8, 1.5),
        row(1100, 7, 2, 0, 8, 0.5),
    });
    return table;
}

std::string error_of(std::vector<LogGPRow> rows) {
    try {
        LogGPTable table(std::move(rows));
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("interpolation between rows, computed by hand") {
    // s = 200 is halfway between 100 and 300: t = (200 - 100) / (300 - 100) = 0.5.
    // L = 1 + 0.5 (3 - 1) = 2; o_s = 2; o_r = 3 + 0.5 (1 - 3) = 2; g = 4 + 0.5 (8 - 4) = 6;
    // G = 0.5 + 0.5 (1.5 - 0.5) = 1.
    const LogGP mid = three_rows().at(200);
    CHECK(mid.L == 2.0);
    CHECK(mid.o_s == 2.0);
    CHECK(mid.o_r == 2.0);
    CHECK(mid.g == 6.0);
    CHECK(mid.G == 1.0);

    // s = 150: t = 50 / 200 = 0.25. L = 1 + 0.25 * 2 = 1.5; o_r = 3 - 0.25 * 2 = 2.5;
    // g = 4 + 0.25 * 4 = 5; G = 0.5 + 0.25 * 1 = 0.75.
    const LogGP quarter = three_rows().at(150);
    CHECK(quarter.L == 1.5);
    CHECK(quarter.o_r == 2.5);
    CHECK(quarter.g == 5.0);
    CHECK(quarter.G == 0.75);

    // Second segment: s = 700, t = (700 - 300) / (1100 - 300) = 0.5. L = 3 + 0.5 (7 - 3) = 5;
    // o_r = 1 + 0.5 (0 - 1) = 0.5; g = 8; G = 1.5 + 0.5 (0.5 - 1.5) = 1.
    const LogGP second = three_rows().at(700);
    CHECK(second.L == 5.0);
    CHECK(second.o_r == 0.5);
    CHECK(second.g == 8.0);
    CHECK(second.G == 1.0);
}

TEST_CASE("sizes on a row give that row exactly") {
    CHECK(three_rows().at(100) == LogGP{1, 2, 3, 4, 0.5});
    CHECK(three_rows().at(300) == LogGP{3, 2, 1, 8, 1.5});
    CHECK(three_rows().at(1100) == LogGP{7, 2, 0, 8, 0.5});
}

TEST_CASE("flat outside the measured range") {
    const LogGP first{1, 2, 3, 4, 0.5};
    const LogGP last{7, 2, 0, 8, 0.5};
    CHECK(three_rows().at(0) == first);
    CHECK(three_rows().at(1) == first);
    CHECK(three_rows().at(99.999) == first);
    CHECK(three_rows().at(1100.5) == last);
    CHECK(three_rows().at(1e15) == last);
}

TEST_CASE("a one-row table is constant") {
    const LogGPTable constant({row(0, 1e-6, 2e-6, 3e-6, 4e-6, 5e-11)});
    for (double s : {0.0, 1.0, 4096.0, 1e9}) {
        CHECK(constant.at(s) == LogGP{1e-6, 2e-6, 3e-6, 4e-6, 5e-11});
    }
}

TEST_CASE("invalid tables are refused with the row and the field") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    CHECK(error_of({}) == "LogGP table: needs at least one row (s, L, o_s, o_r, g, G)");
    CHECK(error_of({row(1, -1e-6, 0, 0, 0, 0)}) ==
          "LogGP table row 0: L: must be finite and >= 0 (got -1e-06)");
    CHECK(error_of({row(1, 0, 0, 0, 0, 0), row(2, 0, 0, 0, 0, nan)}) ==
          "LogGP table row 1: G: must be finite and >= 0 (got nan)");
    CHECK(error_of({row(1, 0, 0, inf, 0, 0)}) ==
          "LogGP table row 0: o_r: must be finite and >= 0 (got inf)");
    CHECK(error_of({row(-4, 0, 0, 0, 0, 0)}) ==
          "LogGP table row 0: s: must be finite and >= 0 (got -4)");
    CHECK(error_of({row(8, 0, 0, 0, 0, 0), row(8, 0, 0, 0, 0, 0)}) ==
          "LogGP table row 1: s: sizes must increase strictly (8 after 8); sort the rows by s and "
          "drop duplicates");
    CHECK(error_of({row(8, 0, 0, 0, 0, 0), row(4, 0, 0, 0, 0, 0)}) ==
          "LogGP table row 1: s: sizes must increase strictly (4 after 8); sort the rows by s and "
          "drop duplicates");
}
