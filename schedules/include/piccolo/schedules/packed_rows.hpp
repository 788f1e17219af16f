#pragma once
// Rows of variable length stored back to back, built once and then only read: the successor lists
// (Schedule::Successors). As in a Csr, the rows' items follow each other in row order, but where
// each row ends costs about a byte instead of four: a 32-bit start per stripe of 64 rows, and per
// row a byte, its end within its stripe (a row starts where the one before it in its stripe ends,
// the first at the stripe's start). A stripe whose rows hold more than 255 items keeps 32-bit ends
// beside its unused bytes: 325 bytes for 256 items or more, at most 1.3 bytes an item. A replay
// reads a row per completion; the successor lists of a 4096-rank ring (16.8 M rows of about two
// items) take 153 MB instead of 201 MB (tools/bench/history.md, "Packed successor lists").

#include <cstdint>
#include <span>
#include <vector>

namespace piccolo {

class PackedRows {
  public:
    static constexpr std::size_t stripe_rows = 64;
    static constexpr std::uint64_t narrow_items = 0xFF;  // most items of a stripe of byte ends

    PackedRows() = default;  // no rows at all

    [[nodiscard]] bool empty() const { return ends_.empty(); }  // no rows at all
    // A stripe's first entry is its start; every other entry is a row's end.
    [[nodiscard]] std::size_t rows() const { return ends_.size() - stripes_.size(); }
    [[nodiscard]] std::size_t size() const { return items_.size(); }  // items of every row
    [[nodiscard]] std::span<const std::uint32_t> row(std::size_t i) const {
        const std::size_t b = i / stripe_rows;
        const Stripe& stripe = stripes_[b];
        if (stripe.wide == 0) [[likely]] {
            const std::uint8_t* const entry = ends_.data() + i + b;
            return {items_.data() + stripe.start + entry[0], std::size_t{entry[1]} - entry[0]};
        }
        const std::uint32_t* const entry = wide_ends_.data() + (stripe.wide - 1) + i % stripe_rows;
        return {items_.data() + stripe.start + entry[0], std::size_t{entry[1] - entry[0]}};
    }

    // Rows 0 .. rows - 1: `rows_of(count)` calls count(row) once for every item of the row, in
    // any order; `each(emit)` calls emit(row, item) for every item, the items of one row in their
    // order in the row. Throws std::length_error past 2^32 - 1 items (the Csr limit).
    template <class RowsOf, class Each>
    static PackedRows build(std::size_t rows, RowsOf&& rows_of, Each&& each) {
        PackedRows out(rows);
        std::size_t total = 0;
        {
            // Exact counts first, 4 bytes a row but only while the rows are laid out: the items
            // are allocated once they are gone.
            std::vector<std::uint32_t> counts(rows, 0);
            std::uint32_t* const count = counts.data();
            rows_of([count](std::uint32_t row) { ++count[row]; });
            total = out.lay_out(counts);
        }
        out.items_.resize(total);
        // Pointers in locals: a store through a byte pointer may alias any member, which would
        // then be loaded again at every item. A row's end is its cursor, at its start before its
        // items are placed: row r's is entry r + r / stripe_rows + 1.
        const Stripe* const stripes = out.stripes_.data();
        std::uint8_t* const entries = out.ends_.data();
        std::uint32_t* const wide = out.wide_ends_.data();
        std::uint32_t* const items = out.items_.data();
        each([stripes, entries, wide, items](std::uint32_t row, std::uint32_t item) {
            const Stripe& b = stripes[row / stripe_rows];
            std::uint32_t* const first = items + b.start;
            if (b.wide == 0) [[likely]]
                first[entries[row + row / stripe_rows + 1]++] = item;
            else
                first[wide[b.wide + row % stripe_rows]++] = item;
        });
        return out;
    }

  private:
    struct Stripe {
        std::uint32_t start = 0;  // items before the stripe's first row
        // 0: the rows' ends are bytes of `ends_`; else 1 + the index of the stripe's first entry
        // in `wide_ends_`, which holds its entries whole.
        std::uint32_t wide = 0;
    };

    explicit PackedRows(std::size_t rows);
    // Each row's count becomes its start within its stripe (the cursor of its end), in a wide
    // stripe 32-bit, and the stripes get their starts. Returns the items of every row.
    std::size_t lay_out(const std::vector<std::uint32_t>& counts);

    std::vector<std::uint32_t> items_;
    std::vector<Stripe> stripes_;
    // Per stripe, its first row's start within it (0), then each row's end within it: row i of
    // stripe b runs from entry i + b to entry i + b + 1. A wide stripe's entries are 0 and unused.
    std::vector<std::uint8_t> ends_;
    // Per wide stripe, the same entries, 32-bit.
    std::vector<std::uint32_t> wide_ends_;
};

}  // namespace piccolo
