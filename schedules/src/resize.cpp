#include <fmt/format.h>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/generate.hpp"

namespace piccolo {

void set_message_size(Schedule& schedule, std::uint64_t bytes) {
    const CollectiveShape old_shape = schedule.shape;
    if (bytes == 0) throw InputError("message size must be at least 1 byte");
    const bool gather = pieces_follow_ranks(old_shape.collective);  // pieces of `bytes` each
    if (!gather && old_shape.cut == Cut::ceil && !old_shape.cuts_at(bytes))
        throw InputError(fmt::format(
            "a {}-byte buffer cut as MPICH's scatter over {} ranks has {} segments that hold "
            "bytes, not the schedule's {}; generate the schedule at that size",
            bytes, old_shape.ranks, ceil_cut_pieces(bytes, old_shape.ranks), old_shape.pieces));
    if (!gather && bytes < old_shape.pieces)
        throw InputError(fmt::format("a {}-byte vector cannot be cut into {} segments", bytes,
                                     old_shape.pieces));
    if (!gather && !schedule.has_payload())
        throw std::invalid_argument("set_message_size: an allreduce needs payload descriptors");

    schedule.shape.bytes = bytes;
    std::vector<std::uint64_t> old_sizes;
    old_sizes.swap(schedule.size_values);
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    std::uint64_t last_size = 0;  // neighbouring tasks mostly share a size: skip the hash then
    std::uint32_t last_class = 0;
    auto intern = [&](std::uint64_t size) {
        if (size == last_size && !schedule.size_values.empty()) return last_class;
        auto [it, inserted] =
            index.try_emplace(size, static_cast<std::uint32_t>(schedule.size_values.size()));
        if (inserted) schedule.size_values.push_back(size);
        last_size = size;
        last_class = it->second;
        return last_class;
    };
    if (old_shape.pieces_are_whole()) {
        // Every Allgather size is a whole number of blocks (or buffers, for a permute), and every
        // size of an Allreduce of one segment a whole number of vectors, so a task's new size
        // follows from its old class: one lookup per class, not per task.
        constexpr std::uint32_t unseen = ~std::uint32_t{0};
        std::vector<std::uint32_t> new_class(old_sizes.size(), unseen);
        for (std::uint32_t& c : schedule.size_class) {
            if (new_class[c] == unseen)
                new_class[c] = intern(old_sizes[c] / old_shape.bytes * bytes);
            c = new_class[c];
        }
        return;
    }
    for (TaskId t = 0; t < schedule.size(); ++t)
        schedule.size_class[t] = intern(schedule.shape.pieces_bytes(schedule.payload.row(t)));
}

Schedule with_message_size(const Schedule& schedule, std::uint64_t bytes) {
    Schedule resized = schedule;
    set_message_size(resized, bytes);
    return resized;
}

}  // namespace piccolo
