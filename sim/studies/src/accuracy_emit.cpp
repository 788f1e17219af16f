// The accuracy report as a table, CSV and JSON. Every format names the run (host, ranks, MPI
// library, date), the profile, and whether the timings are noisy.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "accuracy_text.hpp"
#include "piccolo/select/select_text.hpp"
#include "piccolo/studies/accuracy.hpp"

namespace piccolo {

namespace detail {

std::string candidate_label(const MeasuredRow& row) {
    return fmt::format("{}{} ({})", row.algorithm, row.k > 0 ? fmt::format(" k={}", row.k) : "",
                       row.style);
}

std::string run_summary(const AccuracyReport& r) {
    const Measurement& m = r.measurement;
    return fmt::format(
        "measured on {} ({} ranks, {} node(s) of {}), {}, {}; predicted on profile {} ({})",
        m.host.empty() ? "an unnamed host" : m.host, m.ranks, m.nodes, m.ranks_per_node,
        m.mpi_library.empty() ? "MPI library not recorded" : m.mpi_library,
        m.date.empty() ? "date not recorded" : m.date, r.machine, r.profile);
}

std::string ratio_text(double v) {
    if (!std::isfinite(v)) return "-";
    return std::abs(v) >= 0.01 || v == 0 ? fmt::format("{:.4f}", v) : fmt::format("{:.1e}", v);
}

}  // namespace detail

namespace {

using detail::candidate_label;
using detail::ratio_text;

const MeasuredRow& row_of(const AccuracyReport& r, const SizeScore& s, std::size_t i) {
    return r.measurement.candidates[s.candidates[i].row];
}

}  // namespace

std::string accuracy_table(const AccuracyReport& r) {
    std::string out = fmt::format("# piccolo accuracy: {}\n", detail::run_summary(r));
    for (const std::string& reason : r.noise) out += fmt::format("# NOISY: {}\n", reason);
    // The first column as wide as its longest name ("reduce_scatter"), at least "collective".
    std::size_t width = 10;
    for (const SizeScore& s : r.sizes) width = std::max(width, to_string(s.collective).size());
    out += fmt::format("{:<{}} {:>9} {:>5} {:<22} {:>11} {:<22} {:>11} {:>8} {:>8}\n",
                       "collective", width, "size", "cands", "measured best", "time",
                       "predicted best", "its time", "captured", "spearman");
    for (const SizeScore& s : r.sizes) {
        const CandidateScore& best = s.candidates[s.measured_best];
        const CandidateScore& chosen = s.candidates[s.predicted_best];
        out += fmt::format(
            "{:<{}} {:>9} {:>5} {:<22} {:>11} {:<22} {:>11} {:>8} {:>8}{}\n",
            to_string(s.collective), width, detail::size_label(s.bytes), s.candidates.size(),
            candidate_label(row_of(r, s, s.measured_best)), detail::time_label(best.measured_s),
            candidate_label(row_of(r, s, s.predicted_best)), detail::time_label(chosen.measured_s),
            ratio_text(s.captured), ratio_text(s.spearman), s.within_noise ? " (within CI)" : "");
    }
    for (const auto& [collective, mean] : r.geomean_by_collective)
        out += fmt::format("geometric mean of the captured share, {}: {}\n", to_string(collective),
                           ratio_text(mean));
    out +=
        fmt::format("geometric mean of the captured share, all sizes: {}\n", ratio_text(r.geomean));
    return out;
}

std::string accuracy_csv(const AccuracyReport& r) {
    const Measurement& m = r.measurement;
    std::string out = fmt::format(
        "# piccolo accuracy\n# host: {}\n# date: {}\n# mpi_library: {}\n# ranks: {}\n# nodes: "
        "{}\n# ranks_per_node: {}\n# profile: {}\n# machine: {}\n# noisy: {}\n",
        m.host, m.date, m.mpi_library, m.ranks, m.nodes, m.ranks_per_node, r.profile, r.machine,
        r.noise.empty() ? "no" : "yes");
    out +=
        "collective,bytes,candidates,measured_best,measured_best_s,predicted_best,"
        "predicted_best_measured_s,captured_share,spearman,within_ci,library_s\n";
    for (const SizeScore& s : r.sizes)
        out += fmt::format(
            "{},{},{},{},{:.9g},{},{:.9g},{:.6f},{},{},{}\n", to_string(s.collective), s.bytes,
            s.candidates.size(), candidate_label(row_of(r, s, s.measured_best)),
            s.candidates[s.measured_best].measured_s,
            candidate_label(row_of(r, s, s.predicted_best)),
            s.candidates[s.predicted_best].measured_s, s.captured,
            std::isfinite(s.spearman) ? fmt::format("{:.6f}", s.spearman) : "",
            s.within_noise ? 1 : 0, s.library_s ? fmt::format("{:.9g}", *s.library_s) : "");
    return out;
}

namespace {

nlohmann::ordered_json number_or_null(double v) {
    return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json size_json(const AccuracyReport& r, const SizeScore& s) {
    nlohmann::ordered_json candidates = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < s.candidates.size(); ++i) {
        const MeasuredRow& row = row_of(r, s, i);
        candidates.push_back({{"algorithm", row.algorithm},
                              {"k", row.k},
                              {"style", row.style},
                              {"measured_s", s.candidates[i].measured_s},
                              {"ci_low_s", row.ci_low_s},
                              {"ci_high_s", row.ci_high_s},
                              {"predicted_s", s.candidates[i].predicted_s}});
    }
    return {{"collective", to_string(s.collective)},
            {"bytes", s.bytes},
            {"measured_best", candidate_label(row_of(r, s, s.measured_best))},
            {"predicted_best", candidate_label(row_of(r, s, s.predicted_best))},
            {"captured_share", s.captured},
            {"spearman", number_or_null(s.spearman)},
            {"within_ci", s.within_noise},
            {"library_s",
             s.library_s ? nlohmann::ordered_json(*s.library_s) : nlohmann::ordered_json(nullptr)},
            {"candidates", std::move(candidates)}};
}

}  // namespace

std::string accuracy_json(const AccuracyReport& r) {
    const Measurement& m = r.measurement;
    nlohmann::ordered_json doc{
        {"tool", "piccolo accuracy"},         {"host", m.host},       {"date", m.date},
        {"mpi_library", m.mpi_library},       {"ranks", m.ranks},     {"nodes", m.nodes},
        {"ranks_per_node", m.ranks_per_node}, {"profile", r.profile}, {"machine", r.machine},
        {"noisy", !r.noise.empty()},          {"noise", r.noise}};
    nlohmann::ordered_json means = nlohmann::ordered_json::object();
    for (const auto& [collective, mean] : r.geomean_by_collective)
        means[std::string(to_string(collective))] = number_or_null(mean);
    means["all"] = number_or_null(r.geomean);
    doc["geomean_captured_share"] = std::move(means);
    nlohmann::ordered_json sizes = nlohmann::ordered_json::array();
    for (const SizeScore& s : r.sizes) sizes.push_back(size_json(r, s));
    doc["sizes"] = std::move(sizes);
    return doc.dump(1) + "\n";
}

}  // namespace piccolo
