#include "radix_option.hpp"

#include <CLI/CLI.hpp>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/generate.hpp"

namespace piccolo::cli {

void add_radix_option(CLI::App& command, std::optional<int>& k, const std::string& help) {
    command.add_option("-k,--radix", k, help);
}

int radix_for(const std::optional<int>& k, std::string_view algorithm, Collective collective) {
    if (!k) return 0;
    const AlgorithmInfo& info = find_algorithm(algorithm);
    if (!info.has_radix && builds(info, collective))
        throw InputError(no_radix_message({info.name}, {collective}));
    return *k;
}

}  // namespace piccolo::cli
