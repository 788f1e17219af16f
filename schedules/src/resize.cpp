#include <fmt/format.h>
#include <stdexcept>
#include <unordered_map>

#include "piccolo/error.hpp"
#include "piccolo/generate.hpp"

namespace piccolo {

Schedule with_message_size(const Schedule& schedule, std::uint64_t bytes) {
    const CollectiveShape& old_shape = schedule.shape;
    if (bytes == 0) throw InputError("message size must be at least 1 byte");
    const bool gather = old_shape.collective == Collective::allgather;
    if (!gather && bytes < old_shape.pieces)
        throw InputError(fmt::format("a {}-byte vector cannot be cut into {} segments", bytes,
                                     old_shape.pieces));
    if (!gather && !schedule.has_payload())
        throw std::invalid_argument("with_message_size: an allreduce needs payload descriptors");

    Schedule resized = schedule;
    resized.shape.bytes = bytes;
    resized.size_values.clear();
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    auto intern = [&](std::uint64_t size) {
        auto [it, inserted] =
            index.try_emplace(size, static_cast<std::uint32_t>(resized.size_values.size()));
        if (inserted) resized.size_values.push_back(size);
        return it->second;
    };
    for (TaskId t = 0; t < schedule.size(); ++t) {
        std::uint64_t size = 0;
        if (gather) {
            // Every Allgather size is a whole number of blocks (or buffers, for a permute).
            size = schedule.bytes(t) / old_shape.bytes * bytes;
        } else {
            for (std::uint32_t piece : schedule.payload.row(t))
                size += resized.shape.piece_bytes(piece);
        }
        resized.size_class[t] = intern(size);
    }
    return resized;
}

}  // namespace piccolo
