#pragma once
// Raw profiler samples and their CSV file, so that a profile measured once can be refitted
// offline (`piccolo fit RAW.csv`). Format (documented in profiler/README.md):
//
//   # machine: NAME                      optional header lines "# key: value"
//   # description: TEXT
//   # level: NAME FANOUT                  one per machine level, innermost first
//   # date: ... / # command: ... / ...    anything else is kept and echoed into the YAML header
//   level,kind,n,delay_s,bytes,rep,seconds
//   node,prtt,16,2.1e-06,4096,0,3.7e-05
//
// kind = prtt (round trip of n messages with delay_s between sends, then one reply of the same
// size), o_r (receive call on an already arrived message, after waiting delay_s), radix (n
// transfers in flight at once; `level` names the unit whose radix is probed: device, node, ...)
// compute (`level` = reduce or copy: one local pass over `bytes` bytes) or concurrent (n
// transfers of `bytes` each inside one unit of `level`, each between its own rank pair or
// direction, started together; seconds until the last completed; optional, older files lack it)
// or reclaim (the level's probe pair: how much longer a reduction of `bytes` into data just sent
// to the partner took than the same reduction into data not sent, one repetition; may be
// negative by noise; optional, older files and GPU profiles lack it).

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace piccolo::profiler {

enum class SampleKind { prtt, o_r, radix, compute, concurrent, reclaim };

const char* to_string(SampleKind kind);

struct RawSample {
    std::string level;
    SampleKind kind = SampleKind::prtt;
    int n = 1;
    double delay = 0;  // seconds
    std::size_t bytes = 0;
    int rep = 0;
    double seconds = 0;
};

struct LevelInfo {
    std::string name;
    int fanout = 0;  // children per unit; 0 = any
};

struct RawData {
    std::string machine_name;
    std::string description;
    std::vector<LevelInfo> levels;                          // innermost first
    std::vector<std::pair<std::string, std::string>> info;  // other header lines, in order
    std::vector<RawSample> samples;
};

inline constexpr const char* raw_csv_columns = "level,kind,n,delay_s,bytes,rep,seconds";

void write_raw_csv(std::ostream& out, const RawData& data);
void write_raw_csv(const std::filesystem::path& file, const RawData& data);

// Throws InputError "FILE:LINE: field 'F': problem (how to fix)" on malformed input.
RawData parse_raw_csv(std::istream& in, const std::string& origin);
RawData read_raw_csv(const std::filesystem::path& file);

}  // namespace piccolo::profiler
