#pragma once
// What piccolo-run-mpi reports: one row per case, as a table, CSV or JSON, with a header saying
// where and when it was measured.

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace piccolo::exec {

struct RunHeader {
    std::string tool;  // the program that measured: piccolo-run-mpi, piccolo-run-nccl
    std::string host;
    std::string date;         // UTC, ISO 8601
    std::string mpi_library;  // the library that moved the data (NCCL names NCCL and MPI)
    int ranks = 0;
    int nodes = 0;
    int ranks_per_node = 0;  // 0 when nodes differ in size (nodes as --node-size pretends)
    // The real hosts (shared-memory domains): the most ranks on one, and the fewest cores online
    // on one. More ranks than cores means ranks take turns on a core: timings are noisy.
    int ranks_per_host = 0;
    int cores_per_host = 0;
    std::string command_line;
    int root = 0;  // Bcast, Reduce: the rank their rows were measured from or to (--root)
};

struct Row {
    std::string collective;
    std::string algorithm;  // or the library call for the reference row
    int k = 0;
    std::string style;  // "library" for the reference row
    std::uint64_t bytes = 0;
    std::string element;
    double median_s = 0, ci_low_s = 0, ci_high_s = 0;
    int runs = 0;
    std::uint64_t staged_bytes = 0;   // bytes packed/unpacked per run, all ranks together
    std::uint64_t dropped_waits = 0;  // cross-rank dependencies no rank could wait for
};

void print_table(std::ostream& out, const RunHeader& header, const std::vector<Row>& rows);
void write_csv(std::ostream& out, const RunHeader& header, const std::vector<Row>& rows);
void write_json(std::ostream& out, const RunHeader& header, const std::vector<Row>& rows);

}  // namespace piccolo::exec
