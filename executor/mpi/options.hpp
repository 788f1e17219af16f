#pragma once
// The command line of piccolo-run-mpi and the list of cases it expands to.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "piccolo/core/style.hpp"
#include "piccolo/executor/plan.hpp"
#include "timing.hpp"

namespace piccolo::exec {

struct RunOptions {
    std::string schedule_file;  // empty: generate
    std::vector<Collective> collectives;
    std::vector<std::string> algorithms;  // empty: per collective, those that build it (sweep.cpp)
    std::vector<int> radices;  // empty: every valid k
    std::vector<Style> styles;
    std::vector<std::uint64_t> sizes;  // empty with a file: the file's size
    std::optional<Element> element;    // nullopt: auto
    TimingSettings timing;
    bool check_only = false;
    bool reference = true;
    bool library_only = false;  // time only the library's own collectives
    bool allow_race = false;
    int node_size = 0;
    int root = 0;  // Bcast, Reduce: the root rank (--root)
    std::string csv_file, json_file;
    bool quiet = false;
    std::string command_line;
};

// Parses argv. Returns the exit status when the program should stop (help: 0, bad input: 2,
// after printing one line, prefixed with `tool`, when `print`), or the options.
struct Parsed {
    std::optional<RunOptions> options;
    int status = 0;
};
Parsed parse_options(int argc, char** argv, bool print, std::string_view tool);

}  // namespace piccolo::exec
