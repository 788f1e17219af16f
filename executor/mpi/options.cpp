#include "options.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>

#include "piccolo/core/error.hpp"
#include "piccolo/core/size_parse.hpp"
#include "piccolo/schedules/generate.hpp"

namespace piccolo::exec {

namespace {

struct RawOptions {
    std::vector<std::string> collectives{"allgather", "allreduce"};
    std::vector<std::string> algorithms;
    std::vector<int> radices;
    std::vector<std::string> styles{"mpi"};
    std::vector<std::string> sizes;
    std::string type = "auto";
};

// -k narrows the k of the algorithms to run that have a radix (sweep.cpp, radices_for); where
// none has one, or a schedule file is run, it would narrow nothing, so it is refused.
void check_radix_taken(const RunOptions& o) {
    if (!o.schedule_file.empty())
        throw InputError(
            "-k: a schedule file brings its own k; drop -k (it is for the generated "
            "schedules of -a)");
    std::vector<std::string_view> names;
    auto add = [&](const AlgorithmInfo& info) {
        if (std::find(names.begin(), names.end(), info.name) == names.end())
            names.push_back(info.name);
    };
    for (const std::string& name : o.algorithms) add(find_algorithm(name));
    if (o.algorithms.empty())  // the default candidates of each collective (sweep.cpp)
        for (Collective c : o.collectives)
            for (const AlgorithmInfo& info : algorithms())
                if (default_candidate(info, c)) add(info);
    for (std::string_view name : names)
        if (find_algorithm(name).has_radix) return;
    throw InputError(no_radix_message(names, o.collectives));
}

void finish(const RawOptions& raw, RunOptions& o) {
    for (const std::string& c : raw.collectives) {
        try {
            o.collectives.push_back(parse_collective(c));
        } catch (const InputError& e) {
            throw InputError(fmt::format("--collective: {}", e.what()));
        }
    }
    for (const std::string& a : raw.algorithms) {
        try {
            o.algorithms.emplace_back(find_algorithm(a).name);
        } catch (const InputError& e) {
            throw InputError(fmt::format("--algorithm: {}", e.what()));
        }
    }
    if (o.library_only) {
        if (!o.reference)
            throw InputError("--library-only times the library's collectives: drop --no-reference");
        if (!o.schedule_file.empty() || !raw.algorithms.empty() || !raw.radices.empty())
            throw InputError("--library-only runs no schedule: drop --schedule, -a and -k");
    }
    for (int k : raw.radices)
        if (k < 2) throw InputError(fmt::format("-k: {} is not a radix (give k >= 2)", k));
    if (!raw.radices.empty()) check_radix_taken(o);
    o.radices = raw.radices;
    if (o.root < 0)
        throw InputError(fmt::format("--root: rank {} is not a rank (give 0 <= root < p)", o.root));
    for (const std::string& s : raw.styles) {
        try {
            o.styles.push_back(parse_style(s));
        } catch (const InputError& e) {
            throw InputError(fmt::format("--style: {}", e.what()));
        }
    }
    if (!raw.sizes.empty()) o.sizes = parse_size_list(raw.sizes);
    if (o.sizes.empty() && o.schedule_file.empty()) o.sizes = {8};
    if (raw.type != "auto") o.element = parse_element(raw.type);
    if (o.check_only) o.timing = {0, 1, 1, 1.0, 0.0};
    if (o.timing.min_runs < 1 || o.timing.max_runs < o.timing.min_runs || o.timing.warmup < 0)
        throw InputError("--min-runs/--max-runs/--warmup: need 0 <= warmup, 1 <= min <= max");
}

}  // namespace

Parsed parse_options(int argc, char** argv, bool print, std::string_view tool) {
    CLI::App app{fmt::format(
        "{}: runs piccolo schedules with real buffers, checks every byte of the result and times "
        "them (and the library's own collective)",
        tool)};
    RunOptions o;
    RawOptions raw;
    app.add_option("--schedule", o.schedule_file, "run this schedule XML file (piccolo gen -o)");
    app.add_option("-c,--collective", raw.collectives,
                   "allgather, allreduce, bcast, reduce, reduce_scatter, alltoall (default: "
                   "allgather, allreduce)")
        ->delimiter(',');
    app.add_option("-a,--algorithm", raw.algorithms,
                   "ring, k-ring, rd, rm, prd, prm, bruck, knomial, binomial, scatter-rd, "
                   "scatter-ring, pairwise, scattered, rh, rabenseifner, recexch (default: per "
                   "collective, those that build it; for Allgather and Allreduce the first six)")
        ->delimiter(',');
    app.add_option("-k,--radix", raw.radices, "radices to run (default every valid k)")
        ->delimiter(',');
    app.add_option("--style", raw.styles, "mpi, nccl, pipelined (default mpi)")->delimiter(',');
    app.add_option("-s,--sizes", raw.sizes,
                   "bytes per rank (Allgather) or vector bytes (Allreduce): 8,4KiB or 8-4MiB")
        ->delimiter(',');
    app.add_option("--type", raw.type, "Allreduce element: auto, double, float, byte");
    app.add_option("--warmup", o.timing.warmup, "untimed runs first");
    app.add_option("--min-runs", o.timing.min_runs, "timed runs at least");
    app.add_option("--max-runs", o.timing.max_runs, "timed runs at most");
    app.add_option("--target-ci", o.timing.target_ci, "stop at this relative CI half-width");
    app.add_option("--budget", o.timing.budget_s, "seconds per case after --min-runs");
    app.add_flag("--check-only", o.check_only, "one checked run per case, no timing");
    app.add_flag("!--no-reference", o.reference, "do not time MPI_Allgather / MPI_Allreduce");
    app.add_flag("--library-only", o.library_only,
                 "time only MPI_Allgather / MPI_Allreduce (checked), e.g. under a tuning file");
    app.add_flag("--allow-race", o.allow_race,
                 "run a schedule the verifier finds a race in (to watch it go wrong)");
    app.add_option("--node-size", o.node_size,
                   "pretend nodes of this many consecutive ranks (default: shared memory)");
    app.add_option("--root", o.root, "Bcast, Reduce: the root rank (default 0)");
    app.add_option("--csv", o.csv_file, "also write the rows as CSV");
    app.add_option("--json", o.json_file, "also write the rows as JSON");
    app.add_flag("-q,--quiet", o.quiet, "no table on stdout");
    for (int i = 0; i < argc; ++i) o.command_line += (i ? " " : "") + std::string(argv[i]);
    try {
        app.parse(argc, argv);
        finish(raw, o);
    } catch (const CLI::CallForHelp& e) {
        if (print) app.exit(e);
        return {std::nullopt, 0};
    } catch (const CLI::ParseError& e) {
        if (print) fmt::print(stderr, "{}: error: {} (see --help)\n", tool, e.what());
        return {std::nullopt, 2};
    } catch (const InputError& e) {
        if (print) fmt::print(stderr, "{}: error: {}\n", tool, e.what());
        return {std::nullopt, 2};
    }
    return {std::move(o), 0};
}

}  // namespace piccolo::exec
