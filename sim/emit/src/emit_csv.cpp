// CSV: one row per (collective, scale, size, algorithm) with the algorithm's best k. Sizes in
// bytes, times in seconds; each row says what its size means, so rows can be read on their own.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "piccolo/emit/select_emit.hpp"

namespace piccolo {

namespace {

std::string quoted(std::string_view text) {
    std::string out = "\"";
    for (char ch : text) {
        if (ch == '"') out += '"';
        out += ch;
    }
    return out + "\"";
}

}  // namespace

std::string emit_csv(const SelectResult& result) {
    std::string out =
        "collective,size_bytes,size_meaning,machine,style,nodes,ppn,ranks,contention,algorithm,k,"
        "same_schedule_k,time_s,speedup_vs_baseline,baseline,best,skipped\n";
    for (const PointSelection& p : result.points)
        for (std::size_t a = 0; a < p.algorithms.size(); ++a) {
            const AlgorithmOutcome& o = p.algorithms[a];
            const std::string head =
                fmt::format("{},{},{},{},{},{},{},{},{},{},", to_string(p.collective), p.bytes,
                            selection_size_meaning(p.collective), quoted(result.machine),
                            to_string(result.style), p.scale.nodes, p.scale.ranks_per_node,
                            p.scale.ranks(), result.contention ? 1 : 0, o.algorithm);
            if (!o.available) {
                out += head + fmt::format(",,,,{},0,{}\n", p.baseline, quoted(o.skipped));
                continue;
            }
            out += head + fmt::format("{},{},{},{},{},{},\n",
                                      o.has_radix ? fmt::format("{}", o.k) : std::string(),
                                      fmt::join(o.same_schedule_k, ";"), o.time,
                                      p.baseline_time / o.time, p.baseline,
                                      static_cast<int>(a) == p.best ? 1 : 0);
        }
    return out;
}

}  // namespace piccolo
