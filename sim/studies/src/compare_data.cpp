// CSV and JSON of a comparison, for scripts: per (collective, scale, size) each machine's best
// choice, time, speedup over ring/RD and time ratio to the reference; JSON also lists the changes
// and the full parameters of every machine.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "piccolo/emit/point_json.hpp"
#include "piccolo/studies/compare.hpp"
#include "piccolo/topologies/machine_io.hpp"

namespace piccolo {

namespace {

using Json = nlohmann::ordered_json;

std::string csv_quoted(std::string_view text) {
    std::string out = "\"";
    for (char ch : text) {
        if (ch == '"') out += '"';
        out += ch;
    }
    return out + "\"";
}

Json machine_choice(const Comparison& c, std::size_t machine, std::size_t point) {
    const PointSelection& p = c.results[machine].points[point];
    Json j;
    j["machine"] = c.results[machine].machine;
    if (const AlgorithmOutcome* best = p.best_outcome()) {
        j["algorithm"] = best->algorithm;
        if (best->has_radix) j["k"] = best->k;
        j["time_s"] = best->time;
        j["speedup_vs_baseline"] = p.speedup();
        j["time_ratio_vs_reference"] = time_ratio(c, machine, point);
    }
    j["same_choice_as_reference"] = same_choice(c.results[0].points[point], p);
    return j;
}

Json point_json(const Comparison& c, std::size_t point) {
    Json j = detail::point_identity(c.results[0].points[point]);
    Json choices = Json::array();
    for (std::size_t m = 0; m < c.results.size(); ++m)
        choices.push_back(machine_choice(c, m, point));
    j["choices"] = std::move(choices);
    return j;
}

}  // namespace

std::string emit_compare_csv(const Comparison& c) {
    std::string out =
        "collective,size_bytes,size_meaning,nodes,ppn,ranks,machine,reference,algorithm,k,time_s,"
        "speedup_vs_baseline,time_ratio_vs_reference,same_choice_as_reference\n";
    for (std::size_t point = 0; point < c.point_count(); ++point)
        for (std::size_t m = 0; m < c.results.size(); ++m) {
            const PointSelection& p = c.results[m].points[point];
            const AlgorithmOutcome* best = p.best_outcome();
            out += fmt::format("{},{},{},{},{},{},{},{},", to_string(p.collective), p.bytes,
                               selection_size_meaning(p.collective), p.scale.nodes, p.scale.ranks_per_node,
                               p.scale.ranks(), csv_quoted(c.results[m].machine),
                               csv_quoted(c.results[0].machine));
            if (best)
                out += fmt::format("{},{},{},{},{},", best->algorithm,
                                   best->has_radix ? fmt::format("{}", best->k) : std::string(),
                                   best->time, p.speedup(), time_ratio(c, m, point));
            else
                out += ",,,,,";
            out += fmt::format("{}\n", same_choice(c.results[0].points[point], p) ? 1 : 0);
        }
    return out;
}

std::string emit_compare_json(const Comparison& c) {
    Json j;
    Json machines = Json::array();
    for (const Machine& m : c.machines) {
        Json entry;
        entry["name"] = m.name;
        entry["yaml"] = machine_to_yaml(m);
        machines.push_back(std::move(entry));
    }
    j["machines"] = std::move(machines);
    if (!c.results.empty()) {
        j["style"] = to_string(c.results[0].style);
        j["contention"] = c.results[0].contention;
    }
    Json points = Json::array();
    for (std::size_t p = 0; p < c.point_count(); ++p) points.push_back(point_json(c, p));
    j["points"] = std::move(points);
    Json changes = Json::array();
    for (const ChoiceChange& change : choice_changes(c)) {
        Json entry = point_json(c, change.point);
        entry["choices"] = Json::array({entry["choices"][0], entry["choices"][change.machine]});
        changes.push_back(std::move(entry));
    }
    j["changes"] = std::move(changes);
    j["notes"] = c.notes;
    return j.dump(2) + "\n";
}

}  // namespace piccolo
