#pragma once
// How well simulation picks (algorithm, k, style): piccolo-run-mpi's measurements of every
// candidate, read back, next to the engine's predictions of the same candidates on a machine
// profile. Per (collective, size): the measured best, the predicted best, the share of the
// measured optimum the prediction captures and Spearman's rank correlation (docs/accuracy.md).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "piccolo/core/style.hpp"
#include "piccolo/schedules/schedule.hpp"
#include "piccolo/topologies/machine.hpp"

namespace piccolo {

// One measured row: a generated candidate, or (style "library") the MPI library's collective.
struct MeasuredRow {
    Collective collective = Collective::allgather;
    std::string algorithm;
    int k = 0;  // 0: the algorithm has no radix
    std::string style;
    std::uint64_t bytes = 0;
    double median_s = 0, ci_low_s = 0, ci_high_s = 0;
    int runs = 0;
    std::size_t line = 0;  // where the row is in its file (1-based), for messages
};

struct Measurement {
    std::string origin;  // the file, for messages
    std::string host, date, mpi_library, command;
    int ranks = 0;
    int nodes = 0;
    int ranks_per_node = 0;  // 0: nodes of unequal size
    int ranks_per_host = 0;  // 0: unknown (older files)
    int cores_per_host = 0;  // 0: unknown
    int root = 0;            // Bcast, Reduce: the root their rows were measured with
    std::vector<MeasuredRow> candidates;
    std::vector<MeasuredRow> library;
};

// piccolo-run-mpi's CSV (--csv) or JSON (--json); JSON when the text starts with '{' or '['. Throws
// InputError "ORIGIN:LINE: FIELD: what is wrong" on anything malformed or out of range.
Measurement parse_measurement(std::string_view text, std::string_view origin);
Measurement read_measurement(const std::filesystem::path& file);

// Ranks 1..n of `values`, ties sharing the mean of the ranks they span (1, 2.5, 2.5, 4).
std::vector<double> average_ranks(std::span<const double> values);
// Spearman's rho: Pearson's correlation of the average ranks. NaN when it is undefined (fewer
// than two values, or every value of one side tied).
double spearman(std::span<const double> a, std::span<const double> b);
// exp(mean(log v)); NaN for an empty list.
double geometric_mean(std::span<const double> values);

struct CandidateScore {
    std::size_t row = 0;  // index into Measurement::candidates
    double measured_s = 0;
    double predicted_s = 0;
};

// One (collective, size). Ties go to the candidate listed first in the file.
struct SizeScore {
    Collective collective = Collective::allgather;
    std::uint64_t bytes = 0;
    std::vector<CandidateScore> candidates;
    std::size_t measured_best = 0;   // index into candidates
    std::size_t predicted_best = 0;  // index into candidates
    double captured = 0;  // measured time of the measured best / of the predicted best, 0..1
    double spearman = 0;  // NaN when undefined
    // Whether the two bests' 95 % confidence intervals overlap: the measurement cannot tell them
    // apart, and a captured share below 1 is within noise.
    bool within_noise = false;
    std::optional<double> library_s;  // the MPI library's own collective at this size
};

struct AccuracyReport {
    Measurement measurement;
    std::string machine;  // the profile's name
    std::string profile;  // as the user named it (preset or file)
    std::vector<SizeScore> sizes;
    // Geometric mean of the captured share over the sizes of each collective, then of all.
    std::vector<std::pair<Collective, double>> geomean_by_collective;
    double geomean = 0;
    std::vector<std::string> noise;  // why the timings are noisy; empty when nothing says so
};

// The engine's time of every candidate of `m`, in order, on `machine` with m.nodes nodes of
// m.ranks_per_node ranks. Throws InputError if the layout or a candidate cannot be simulated.
std::vector<double> predict_candidates(const Measurement& m, const Machine& machine);

// Scores the measurement against `predicted` (one time per candidate, as predict_candidates).
AccuracyReport score_accuracy(Measurement m, std::span<const double> predicted);

std::string accuracy_table(const AccuracyReport& r);
std::string accuracy_csv(const AccuracyReport& r);
std::string accuracy_json(const AccuracyReport& r);
// A self-contained HTML page: predicted vs measured time per candidate, captured share per size.
std::string accuracy_html(const AccuracyReport& r, std::string_view command_line);

}  // namespace piccolo
