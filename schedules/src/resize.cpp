#include <fmt/format.h>
#include <stdexcept>
#include <unordered_map>

#include "piccolo/error.hpp"
#include "piccolo/generate.hpp"

namespace piccolo {

void set_message_size(Schedule& schedule, std::uint64_t bytes) {
    const CollectiveShape old_shape = schedule.shape;
    if (bytes == 0) throw InputError("message size must be at least 1 byte");
    const bool gather = old_shape.collective == Collective::allgather;
    if (!gather && bytes < old_shape.pieces)
        throw InputError(fmt::format("a {}-byte vector cannot be cut into {} segments", bytes,
                                     old_shape.pieces));
    if (!gather && !schedule.has_payload())
        throw std::invalid_argument("set_message_size: an allreduce needs payload descriptors");

    schedule.shape.bytes = bytes;
    std::vector<std::uint64_t> old_sizes;
    old_sizes.swap(schedule.size_values);
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    auto intern = [&](std::uint64_t size) {
        auto [it, inserted] =
            index.try_emplace(size, static_cast<std::uint32_t>(schedule.size_values.size()));
        if (inserted) schedule.size_values.push_back(size);
        return it->second;
    };
    for (TaskId t = 0; t < schedule.size(); ++t) {
        std::uint64_t size = 0;
        if (gather) {
            // Every Allgather size is a whole number of blocks (or buffers, for a permute).
            size = old_sizes[schedule.size_class[t]] / old_shape.bytes * bytes;
        } else {
            for (std::uint32_t piece : schedule.payload.row(t))
                size += schedule.shape.piece_bytes(piece);
        }
        schedule.size_class[t] = intern(size);
    }
}

Schedule with_message_size(const Schedule& schedule, std::uint64_t bytes) {
    Schedule resized = schedule;
    set_message_size(resized, bytes);
    return resized;
}

}  // namespace piccolo
