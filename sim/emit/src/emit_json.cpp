// JSON: the whole selection, every simulated k included, for scripts and plots. Keys keep their
// insertion order (ordered_json) so the file reads top-down like the table.
#include <nlohmann/json.hpp>

#include "piccolo/emit/point_json.hpp"
#include "piccolo/emit/select_emit.hpp"
#include "piccolo/select/select_text.hpp"

namespace piccolo {

namespace detail {

namespace {

using Json = nlohmann::ordered_json;

Json choice(const AlgorithmOutcome& o) {
    Json j;
    j["algorithm"] = o.algorithm;
    if (o.has_radix) j["k"] = o.k;
    j["time_s"] = o.time;
    return j;
}

Json algorithm(const AlgorithmOutcome& o) {
    Json j;
    j["algorithm"] = o.algorithm;
    if (!o.available) {
        j["skipped"] = o.skipped;
        return j;
    }
    if (o.has_radix) {
        j["k"] = o.k;
        j["same_schedule_k"] = o.same_schedule_k;
    }
    j["time_s"] = o.time;
    if (o.has_radix) {
        Json all = Json::array();
        for (const auto& [k, t] : o.candidates) all.push_back(Json::array({k, t}));
        j["candidates"] = std::move(all);  // [k, time_s] for every simulated k
    }
    return j;
}

}  // namespace

Json result_tree(const SelectResult& result) {
    Json root;
    root["tool"] = "piccolo select";
    root["machine"] = result.machine;
    root["style"] = std::string(to_string(result.style));
    root["contention"] = result.contention;
    Json meaning = Json::object();
    for (Collective c : result.collectives)
        meaning[std::string(to_string(c))] = c == Collective::allreduce
                                                 ? "vector size (MPICH avg_msg_size)"
                                                 : std::string(selection_size_meaning(c));
    root["size_meaning"] = std::move(meaning);
    root["size_unit"] = "bytes";
    root["time_unit"] = "seconds";
    root["baseline"] =
        detail::baseline_phrase(result.collectives) + "; speedup = baseline time / best time";
    root["runner_up"] =
        "the fastest candidate of another algorithm with a different schedule; margin = (its "
        "time - best time) / best time";
    root["notes"] = result.notes;
    Json points = Json::array();
    for (const PointSelection& p : result.points) {
        Json j = detail::point_identity(p);
        j["best"] = p.best_outcome() ? choice(*p.best_outcome()) : Json();
        j["baseline"] = p.baseline.empty()
                            ? Json()
                            : Json{{"algorithm", p.baseline}, {"time_s", p.baseline_time}};
        j["speedup"] = p.speedup();
        if (p.runner_up) {
            Json runner;
            runner["algorithm"] = p.runner_up->algorithm;
            if (p.runner_up->has_radix) runner["k"] = p.runner_up->k;
            runner["time_s"] = p.runner_up->time;
            runner["margin"] = p.margin();
            j["runner_up"] = std::move(runner);
        } else {
            j["runner_up"] = Json();
        }
        Json all = Json::array();
        for (const AlgorithmOutcome& o : p.algorithms) all.push_back(algorithm(o));
        j["algorithms"] = std::move(all);
        points.push_back(std::move(j));
    }
    root["selections"] = std::move(points);
    return root;
}

}  // namespace detail

std::string emit_json(const SelectResult& result) {
    return detail::result_tree(result).dump(1) + "\n";
}

}  // namespace piccolo
