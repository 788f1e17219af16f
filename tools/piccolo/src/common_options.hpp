#pragma once
// One spelling per notion across the subcommands: ranks -p/--ranks, nodes -n/--nodes, ranks per
// node --ppn (or --ranks-per-node), output format -f/--format, output file -o/--output, quiet
// -q/--quiet. A command adds the ones it takes through these, so the names and their meaning
// cannot drift apart; the help text says what the number means for that command.

#include <CLI/CLI.hpp>

#include <string>

namespace piccolo::cli {

template <typename T>
CLI::Option* add_ranks_option(CLI::App& command, T& ranks, const std::string& help) {
    return command.add_option("-p,--ranks", ranks, help);
}

template <typename T>
CLI::Option* add_nodes_option(CLI::App& command, T& nodes, const std::string& help) {
    return command.add_option("-n,--nodes", nodes, help);
}

inline CLI::Option* add_ppn_option(CLI::App& command, int& ppn, const std::string& help) {
    return command.add_option("--ppn,--ranks-per-node", ppn, help);
}

inline CLI::Option* add_format_option(CLI::App& command, std::string& format,
                                      const std::string& help) {
    return command.add_option("-f,--format", format, help)->capture_default_str();
}

inline CLI::Option* add_quiet_flag(CLI::App& command, bool& quiet, const std::string& help) {
    return command.add_flag("-q,--quiet", quiet, help);
}

}  // namespace piccolo::cli
