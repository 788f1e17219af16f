#include "piccolo/executor/data.hpp"

#include <fmt/format.h>
#include <cstring>

namespace piccolo::exec {

namespace {

std::byte gather_byte(std::uint64_t block, std::uint64_t j) {
    return static_cast<std::byte>((131 * block + 37 * (block >> 8) + 7 * j + 1) % 255);
}

double value(Rank r, std::uint64_t i) {
    return static_cast<double>((5 * static_cast<std::uint64_t>(r) + 3 * i) % 11 + 1);
}

std::byte reduce_byte(Rank r, std::uint64_t x) {
    return static_cast<std::byte>((29 * static_cast<std::uint64_t>(r) + 7 * x + 3) & 0xFF);
}

// Element i of `image` set to the sum of `value` over ranks [first, last].
template <class T>
void fill_sums(std::vector<std::byte>& image, Rank first, Rank last) {
    const std::size_t n = image.size() / sizeof(T);
    for (std::size_t i = 0; i < n; ++i) {
        double sum = 0;
        for (Rank r = first; r <= last; ++r) sum += value(r, i);
        const T v = static_cast<T>(sum);
        std::memcpy(image.data() + i * sizeof(T), &v, sizeof(T));
    }
}

template <class T>
void add(std::byte* to, const std::byte* from, std::uint64_t bytes) {
    // The arena holds T at these offsets (the plan keeps every stretch element-aligned).
    T* out = reinterpret_cast<T*>(to);
    const T* in = reinterpret_cast<const T*>(from);
    const std::uint64_t n = bytes / sizeof(T);
    for (std::uint64_t i = 0; i < n; ++i) out[i] += in[i];
}

std::string_view result_name(Collective collective) {
    switch (collective) {
        case Collective::allgather:
            return "Allgather";
        case Collective::allreduce:
            return "Allreduce";
        case Collective::bcast:
            return "Bcast";
        case Collective::reduce:
            return "Reduce";
        case Collective::reduce_scatter:
            return "Reduce_scatter";
        case Collective::alltoall:
            return "Alltoall";
    }
    return "?";
}

}  // namespace

Images make_images(const CollectiveShape& shape, Element element, Rank rank) {
    Images images;
    if (shape.collective == Collective::allgather) {
        const std::uint64_t total = shape.bytes * static_cast<std::uint64_t>(shape.ranks);
        images.expected.resize(total);
        for (std::uint64_t b = 0; b < static_cast<std::uint64_t>(shape.ranks); ++b)
            for (std::uint64_t j = 0; j < shape.bytes; ++j)
                images.expected[b * shape.bytes + j] = gather_byte(b, j);
        images.input = images.expected;
        return images;
    }
    if (shape.collective == Collective::alltoall) {  // block s p + d goes from s to d
        const auto p = static_cast<std::uint64_t>(shape.ranks);
        const auto me = static_cast<std::uint64_t>(rank);
        images.input.resize(p * shape.bytes);
        images.expected.resize(p * shape.bytes);
        for (std::uint64_t other = 0; other < p; ++other)
            for (std::uint64_t j = 0; j < shape.bytes; ++j) {
                images.input[other * shape.bytes + j] = gather_byte(me * p + other, j);
                images.expected[other * shape.bytes + j] = gather_byte(other * p + me, j);
            }
        return images;
    }
    // Allreduce, Reduce, Reduce_scatter: the whole vector, summed (the plan checks the rank's
    // part); Bcast: the root's buffer.
    const std::uint64_t vector = shape.total_buffer_bytes();
    images.input.resize(vector);
    images.expected.resize(vector);
    if (shape.collective == Collective::bcast) {  // the root's buffer, everywhere
        for (std::uint64_t j = 0; j < shape.bytes; ++j)
            images.expected[j] = gather_byte(static_cast<std::uint64_t>(shape.root), j);
        images.input = images.expected;  // only the root's plan copies it in
        return images;
    }
    if (element == Element::u8) {
        for (std::uint64_t x = 0; x < vector; ++x) {
            images.input[x] = reduce_byte(rank, x);
            unsigned sum = 0;
            for (Rank r = 0; r < shape.ranks; ++r)
                sum += std::to_integer<unsigned>(reduce_byte(r, x));
            images.expected[x] = static_cast<std::byte>(sum & 0xFF);
        }
    } else if (element == Element::f64) {
        fill_sums<double>(images.input, rank, rank);
        fill_sums<double>(images.expected, 0, shape.ranks - 1);
    } else {
        fill_sums<float>(images.input, rank, rank);
        fill_sums<float>(images.expected, 0, shape.ranks - 1);
    }
    return images;
}

void prepare(const RankPlan& plan, const Images& images, std::span<std::byte> arena) {
    std::memset(arena.data(), std::to_integer<int>(poison), arena.size());
    for (const Stretch& r : plan.input)
        std::memcpy(arena.data() + r.to, images.input.data() + r.from, r.bytes);
}

std::optional<std::string> check_result(const RankPlan& plan, const Images& images,
                                        std::span<const std::byte> arena) {
    for (const Stretch& r : plan.result) {
        const std::byte* got = arena.data() + r.to;
        const std::byte* want = images.expected.data() + r.from;
        if (std::memcmp(got, want, r.bytes) == 0) continue;
        std::uint64_t i = 0;
        while (got[i] == want[i]) ++i;
        const std::uint64_t offset = r.from + i;
        const bool gather = moves_blocks(plan.shape.collective);
        return fmt::format(
            "rank {}: wrong byte at offset {} of the {} result ({} {}, byte {}): expected "
            "0x{:02x}, "
            "got 0x{:02x}",
            plan.rank, offset, result_name(plan.shape.collective), gather ? "block" : "element",
            gather ? offset / plan.shape.bytes : offset / element_bytes(plan.element),
            gather ? offset % plan.shape.bytes : offset % element_bytes(plan.element),
            std::to_integer<unsigned>(want[i]), std::to_integer<unsigned>(got[i]));
    }
    return std::nullopt;
}

void apply_copies(std::span<const Stretch> stretches, std::span<std::byte> arena) {
    for (const Stretch& r : stretches)
        std::memcpy(arena.data() + r.to, arena.data() + r.from, r.bytes);
}

void apply_reduces(std::span<const Stretch> stretches, Element element,
                   std::span<std::byte> arena) {
    for (const Stretch& r : stretches) {
        std::byte* to = arena.data() + r.to;
        const std::byte* from = arena.data() + r.from;
        switch (element) {
            case Element::f64:
                add<double>(to, from, r.bytes);
                break;
            case Element::f32:
                add<float>(to, from, r.bytes);
                break;
            case Element::u8:
                add<unsigned char>(to, from, r.bytes);
                break;
        }
    }
}

}  // namespace piccolo::exec
