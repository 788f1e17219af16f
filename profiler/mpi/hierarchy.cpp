#include "hierarchy.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <map>
#include <regex>

#include "piccolo/core/error.hpp"

namespace piccolo::profiler {

namespace {

std::vector<int> allgather(MPI_Comm comm, int mine, int size) {
    std::vector<int> all(static_cast<std::size_t>(size));
    MPI_Allgather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, comm);
    return all;
}

std::vector<std::string> allgather(MPI_Comm comm, const std::string& mine, int size) {
    constexpr std::size_t width = MPI_MAX_PROCESSOR_NAME + 1;
    std::vector<char> buffer(width, '\0');
    std::copy_n(mine.begin(), std::min(mine.size(), width - 1), buffer.begin());
    std::vector<char> all(width * static_cast<std::size_t>(size));
    MPI_Allgather(buffer.data(), static_cast<int>(width), MPI_CHAR, all.data(),
                  static_cast<int>(width), MPI_CHAR, comm);
    std::vector<std::string> result;
    for (int r = 0; r < size; ++r)
        result.emplace_back(all.data() + width * static_cast<std::size_t>(r));
    return result;
}

// Dense ids 0, 1, ... in order of first appearance.
template <typename Key>
std::vector<int> dense_ids(const std::vector<Key>& keys, int& count) {
    std::map<Key, int> ids;
    std::vector<int> result;
    for (const Key& k : keys) {
        const auto [it, inserted] = ids.emplace(k, static_cast<int>(ids.size()));
        result.push_back(it->second);
    }
    count = static_cast<int>(ids.size());
    return result;
}

}  // namespace

Hierarchy discover(MPI_Comm world, int rank, int size, int node_size, const std::string& group_of) {
    Hierarchy h;
    int node_key = 0;
    if (node_size > 0) {
        node_key = rank / node_size;
    } else {
        MPI_Comm shared = MPI_COMM_NULL;
        MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared);
        MPI_Allreduce(&rank, &node_key, 1, MPI_INT, MPI_MIN, shared);  // the node's lowest rank
        MPI_Comm_free(&shared);
    }
    h.node_of = dense_ids(allgather(world, node_key, size), h.nodes);

    char name[MPI_MAX_PROCESSOR_NAME + 1] = {};
    int length = 0;
    MPI_Get_processor_name(name, &length);
    h.host_of = allgather(world, std::string(name, static_cast<std::size_t>(length)), size);

    if (!group_of.empty()) {
        const std::regex pattern(group_of);
        std::vector<std::string> keys;
        for (int r = 0; r < size; ++r) {
            std::smatch match;
            const std::string& host = h.host_of[static_cast<std::size_t>(r)];
            if (!std::regex_search(host, match, pattern)) {
                throw InputError(fmt::format(
                    "--group-of '{}': host name '{}' (rank {}) does not match (the expression "
                    "must match every host; its first capture group, or the whole match, names "
                    "the group)",
                    group_of, host, r));
            }
            keys.push_back(match.size() > 1 && match[1].matched ? match[1].str() : match[0].str());
        }
        h.group_of = dense_ids(keys, h.groups);
    }
    return h;
}

std::vector<LevelProbe> level_probes(const Hierarchy& h, int devices_per_node) {
    const int size = static_cast<int>(h.node_of.size());
    auto first_pair = [&](auto&& wanted) -> std::optional<std::pair<int, int>> {
        for (int a = 0; a < size; ++a) {
            for (int b = a + 1; b < size; ++b) {
                if (wanted(a, b)) return std::pair{a, b};
            }
        }
        return std::nullopt;
    };
    auto node = [&](int r) { return h.node_of[static_cast<std::size_t>(r)]; };
    auto group = [&](int r) { return h.group_of[static_cast<std::size_t>(r)]; };
    const bool grouped = !h.group_of.empty();

    std::vector<LevelProbe> levels;
    levels.push_back(
        {"node", devices_per_node, first_pair([&](int a, int b) { return node(a) == node(b); })});
    if (grouped) {
        std::vector<std::vector<int>> nodes_in_group(static_cast<std::size_t>(h.groups));
        for (int r = 0; r < size; ++r) {
            auto& list = nodes_in_group[static_cast<std::size_t>(group(r))];
            if (std::find(list.begin(), list.end(), node(r)) == list.end()) list.push_back(node(r));
        }
        int fanout = 1;
        for (const auto& list : nodes_in_group)
            fanout = std::max(fanout, static_cast<int>(list.size()));
        levels.push_back({"group", fanout, first_pair([&](int a, int b) {
                              return group(a) == group(b) && node(a) != node(b);
                          })});
    }
    LevelProbe system{"system", 0, first_pair([&](int a, int b) {
                          return grouped ? group(a) != group(b) : node(a) != node(b);
                      })};
    // Measured across units: any number of them may be simulated (fanout 0). Not measured
    // (one node, or one group): its table is a copy of an inner level's, so the profile only
    // admits as many units as were there, rather than pricing unmeasured links silently.
    if (!system.pair) system.fanout = grouped ? h.groups : h.nodes;
    levels.push_back(system);
    return levels;
}

int ranks_per_node(const Hierarchy& h) {
    int most = 0;
    for (int n = 0; n < h.nodes; ++n)
        most = std::max(most, static_cast<int>(std::count(h.node_of.begin(), h.node_of.end(), n)));
    return most;
}

}  // namespace piccolo::profiler
