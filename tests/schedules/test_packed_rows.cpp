// PackedRows (packed_rows.hpp): every row reads back exactly what was emitted for it, in order,
// across stripe boundaries, in stripes of byte ends and in wide stripes (more than 255 items).
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <vector>

#include "piccolo/schedules/packed_rows.hpp"

using namespace piccolo;

namespace {

// The rows as a PackedRows built from them, emitted row after row.
PackedRows packed(const std::vector<std::vector<std::uint32_t>>& rows) {
    auto each = [&](auto emit) {
        for (std::size_t r = 0; r < rows.size(); ++r)
            for (std::uint32_t item : rows[r]) emit(static_cast<std::uint32_t>(r), item);
    };
    return PackedRows::build(
        rows.size(), [&](auto count) { each([&](std::uint32_t r, std::uint32_t) { count(r); }); },
        each);
}

void check_rows(const PackedRows& got, const std::vector<std::vector<std::uint32_t>>& rows) {
    REQUIRE(got.rows() == rows.size());
    std::size_t items = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        INFO(fmt::format("row {}", r));
        const auto row = got.row(r);
        CHECK(std::vector<std::uint32_t>(row.begin(), row.end()) == rows[r]);
        items += rows[r].size();
    }
    CHECK(got.size() == items);
}

}  // namespace

TEST_CASE("packed rows: empty, short and across stripes of 64 rows") {
    CHECK(PackedRows().rows() == 0);
    CHECK(PackedRows().empty());
    CHECK(!packed({{}}).empty());
    check_rows(packed({}), {});
    check_rows(packed({{}}), {{}});
    check_rows(packed({{7}, {}, {1, 2, 3}}), {{7}, {}, {1, 2, 3}});
    // 200 rows of r % 4 items: 96 items a stripe of 64 rows, 4 stripes, the last of 8 rows.
    std::vector<std::vector<std::uint32_t>> rows(200);
    for (std::uint32_t r = 0; r < 200; ++r)
        for (std::uint32_t j = 0; j < r % 4; ++j) rows[r].push_back(1000 * r + j);
    check_rows(packed(rows), rows);
}

TEST_CASE("packed rows: a stripe of exactly 255 items keeps byte ends, 256 make it wide") {
    for (const std::uint32_t last : {63u, 64u}) {
        // Rows 0..62 of 4 items (252), row 63 of 3 or 4: 255 or 256 items in stripe 0; then rows
        // in the next stripe.
        std::vector<std::vector<std::uint32_t>> rows(70);
        for (std::uint32_t r = 0; r < 63; ++r) rows[r] = {r, r + 1, r + 2, r + 3};
        for (std::uint32_t j = 0; j < last - 60; ++j) rows[63].push_back(500 + j);
        rows[64] = {9};
        rows[69] = {1, 2};
        check_rows(packed(rows), rows);
    }
    // A row of 255 items alone in its stripe, and one of 256.
    for (const std::uint32_t length : {255u, 256u}) {
        std::vector<std::vector<std::uint32_t>> rows(3);
        for (std::uint32_t j = 0; j < length; ++j) rows[1].push_back(j);
        rows[2] = {5};
        check_rows(packed(rows), rows);
    }
}

TEST_CASE("packed rows: wide and narrow stripes side by side, items emitted out of row order") {
    // Row 5 holds 300 items (its stripe is wide), row 70 holds 1000, row 130 one: stripe 2 stays
    // narrow. Items are emitted round-robin over the rows, each row's own in order.
    std::vector<std::vector<std::uint32_t>> rows(140);
    for (std::uint32_t j = 0; j < 300; ++j) rows[5].push_back(j);
    for (std::uint32_t j = 0; j < 1000; ++j) rows[70].push_back(7 * j);
    rows[64] = {1, 2};
    rows[63] = {4};
    rows[130] = {42};
    // Counted backwards, row by row.
    const PackedRows got = PackedRows::build(
        rows.size(),
        [&](auto count) {
            for (std::size_t r = rows.size(); r-- > 0;)
                for (std::size_t j = 0; j < rows[r].size(); ++j)
                    count(static_cast<std::uint32_t>(r));
        },
        [&](auto emit) {
            for (std::size_t j = 0; j < 1000; ++j)
                for (std::size_t r = 0; r < rows.size(); ++r)
                    if (j < rows[r].size()) emit(static_cast<std::uint32_t>(r), rows[r][j]);
        });
    check_rows(got, rows);
}
