#include "piccolo/schedules/packed_rows.hpp"

#include <algorithm>

#include "piccolo/schedules/schedule.hpp"

namespace piccolo {

PackedRows::PackedRows(std::size_t rows)
    : stripes_((rows + stripe_rows - 1) / stripe_rows), ends_(rows + stripes_.size(), 0) {}

std::size_t PackedRows::lay_out(const std::vector<std::uint32_t>& counts) {
    // The wide stripes first, to allocate their entries at once.
    std::size_t wide_entries = 0;
    for (std::size_t b = 0; b < stripes_.size(); ++b) {
        const std::size_t first = b * stripe_rows;
        const std::size_t last = std::min(first + stripe_rows, counts.size());
        std::uint64_t items = 0;
        for (std::size_t i = first; i < last; ++i) items += counts[i];
        if (items > narrow_items) wide_entries += last - first + 1;
    }
    wide_ends_.reserve(wide_entries);
    std::uint64_t start = 0;
    for (std::size_t b = 0; b < stripes_.size(); ++b) {
        const std::uint32_t* const count = counts.data() + b * stripe_rows;
        const std::size_t rows_in_stripe = std::min(stripe_rows, counts.size() - b * stripe_rows);
        std::uint8_t* const entries = ends_.data() + b * (stripe_rows + 1) + 1;
        std::uint64_t at = 0;  // the stripe's items before the row
        for (std::size_t i = 0; i < rows_in_stripe; ++i) {
            entries[i] = static_cast<std::uint8_t>(at);  // wraps past narrow_items: then unused
            at += count[i];
        }
        stripes_[b].start = static_cast<std::uint32_t>(start);
        start += at;
        if (start > Csr<std::uint32_t>::max_items) throw_csr_too_long();
        if (at <= narrow_items) continue;
        std::fill(entries, entries + rows_in_stripe, std::uint8_t{0});
        // At most 2^32 / 256 wide stripes of 65 entries: the index fits.
        stripes_[b].wide = static_cast<std::uint32_t>(wide_ends_.size() + 1);
        wide_ends_.push_back(0);
        std::uint32_t wide_at = 0;
        for (std::size_t i = 0; i < rows_in_stripe; ++i) {
            wide_ends_.push_back(wide_at);
            wide_at += count[i];
        }
    }
    return start;
}

}  // namespace piccolo
