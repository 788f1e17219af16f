#include "sweep.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>

#include "piccolo/core/error.hpp"
#include "piccolo/profiler/run_info.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "piccolo/schedules/verify.hpp"

namespace piccolo::exec {

namespace {

// The real hosts: most ranks on one (shared-memory domain) and fewest cores online on one.
void describe_hosts(const Context& c, RunHeader& h, int& host_key) {
    MPI_Comm shared = MPI_COMM_NULL;
    MPI_Comm_split_type(c.comm, MPI_COMM_TYPE_SHARED, c.rank, MPI_INFO_NULL, &shared);
    MPI_Allreduce(&c.rank, &host_key, 1, MPI_INT, MPI_MIN, shared);
    int on_host = 0;
    MPI_Comm_size(shared, &on_host);
    MPI_Comm_free(&shared);
    const int cores = static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
    MPI_Allreduce(&on_host, &h.ranks_per_host, 1, MPI_INT, MPI_MAX, c.comm);
    MPI_Allreduce(&cores, &h.cores_per_host, 1, MPI_INT, MPI_MIN, c.comm);
}

// Nodes as the profiler finds them: --node-size consecutive ranks, or shared-memory domains.
RunHeader describe(const Context& c, const RunOptions& o, RunHeader h) {
    h.ranks = c.size;
    int node_key = 0;
    describe_hosts(c, h, node_key);
    if (o.node_size > 0) node_key = c.rank / o.node_size;
    std::vector<int> keys(static_cast<std::size_t>(c.size));
    MPI_Allgather(&node_key, 1, MPI_INT, keys.data(), 1, MPI_INT, c.comm);
    std::map<int, int> per_node;
    for (int k : keys) ++per_node[k];
    h.nodes = static_cast<int>(per_node.size());
    h.ranks_per_node = per_node.begin()->second;
    for (const auto& [key, count] : per_node)
        if (count != h.ranks_per_node) h.ranks_per_node = 0;
    char name[MPI_MAX_PROCESSOR_NAME + 1] = {};
    int length = 0;
    MPI_Get_processor_name(name, &length);
    h.host = name;
    h.date = profiler::utc_now();
    h.command_line = o.command_line;
    h.root = o.root;
    return h;
}

// The radices to run for an algorithm at p ranks: -k's list (those valid), or the k a sweep
// takes by default (swept_radices: every valid k but for recexch, k <= 16).
std::vector<int> radices_for(const AlgorithmInfo& info, const RunOptions& o, Rank p) {
    if (!info.has_radix) return {0};
    if (o.radices.empty()) return swept_radices(info, p);
    std::vector<int> out;
    for (int k : info.valid_radices(p))
        if (std::find(o.radices.begin(), o.radices.end(), k) != o.radices.end()) out.push_back(k);
    return out;
}

// -a, or by default the candidates `piccolo select` sweeps for the collective (bruck when named);
// none under --library-only, which times the library's own collective alone.
std::vector<std::string> algorithms_for(const RunOptions& o, Collective collective) {
    if (o.library_only) return {};
    if (!o.algorithms.empty()) return o.algorithms;
    std::vector<std::string> out;
    for (const AlgorithmInfo& info : algorithms())
        if (default_candidate(info, collective)) out.emplace_back(info.name);
    return out;
}

struct Sweep {
    std::vector<Row> rows;
    int skipped = 0;
    std::string first_skip;
};

void run_generated(const Context& c, const RunOptions& o, const Backend& b, Sweep& sweep) {
    const bool rooted = std::any_of(o.collectives.begin(), o.collectives.end(), [](Collective x) {
        return x == Collective::bcast || x == Collective::reduce;
    });
    if (rooted && o.root >= c.size)
        throw InputError(fmt::format("--root: rank {} is not one of the p = {} ranks (use 0..{})",
                                     o.root, c.size, c.size - 1));
    for (Collective collective : o.collectives)
        for (std::uint64_t bytes : o.sizes) {
            if (o.reference) sweep.rows.push_back(b.run_reference(collective, bytes));
            for (const std::string& name : algorithms_for(o, collective)) {
                const AlgorithmInfo& info = find_algorithm(name);
                for (int k : radices_for(info, o, c.size))
                    for (Style style : o.styles) {
                        Schedule schedule;
                        try {
                            schedule =
                                generate({collective, name, k, c.size, bytes, true, style, o.root});
                        } catch (const InputError& e) {  // e.g. a ring Allreduce under p bytes
                            if (sweep.skipped++ == 0) sweep.first_skip = e.what();
                            continue;
                        }
                        sweep.rows.push_back(b.run_schedule(schedule));
                    }
            }
        }
}

void run_file(const Context& c, const RunOptions& o, const RunHeader& h, const Backend& b,
              Sweep& sweep) {
    const Schedule loaded = read_schedule_xml(o.schedule_file).schedule;
    const VerifyReport report = verify(loaded);
    if (!report.ok() && (!report.data_flow_checked || !o.allow_race))
        throw InputError(fmt::format(
            "{}: {}{}", o.schedule_file, report.violation->message,
            report.data_flow_checked ? " (--allow-race runs it anyway, to see the race)" : ""));
    if (!report.ok() && c.rank == 0)
        fmt::print(stderr, "{}: warning: {}: {}; running it anyway (--allow-race)\n", h.tool,
                   o.schedule_file, report.violation->message);
    const std::vector<std::uint64_t> sizes =
        o.sizes.empty() ? std::vector<std::uint64_t>{loaded.shape.bytes} : o.sizes;
    for (std::uint64_t bytes : sizes) {
        if (o.reference) sweep.rows.push_back(b.run_reference(loaded.shape.collective, bytes));
        sweep.rows.push_back(b.run_schedule(with_message_size(loaded, bytes)));
    }
}

void write_outputs(const RunHeader& h, const RunOptions& o, const Sweep& sweep) {
    if (!o.quiet) print_table(std::cout, h, sweep.rows);
    if (!o.csv_file.empty()) {
        std::ofstream out(o.csv_file);
        write_csv(out, h, sweep.rows);
        if (!out) throw InputError(fmt::format("--csv {}: cannot write the file", o.csv_file));
    }
    if (!o.json_file.empty()) {
        std::ofstream out(o.json_file);
        write_json(out, h, sweep.rows);
        if (!out) throw InputError(fmt::format("--json {}: cannot write the file", o.json_file));
    }
    if (sweep.skipped > 0 && !o.quiet)
        fmt::print(stderr, "{}: skipped {} candidate(s) that do not exist here ({})\n", h.tool,
                   sweep.skipped, sweep.first_skip);
}

int run(const Context& c, const RunOptions& o, const RunHeader& identity,
        const std::function<Backend(const Context&, const RunOptions&)>& make_backend) {
    RunHeader header = describe(c, o, identity);
    const Backend backend = make_backend(c, o);
    header.mpi_library = backend.library;
    Sweep sweep;
    if (o.schedule_file.empty())
        run_generated(c, o, backend, sweep);
    else
        run_file(c, o, header, backend, sweep);
    if (sweep.rows.empty() ||
        (sweep.rows.size() == 1 && o.reference && o.schedule_file.empty() && !o.library_only))
        throw InputError(fmt::format("nothing to run at {} ranks{}", c.size,
                                     sweep.skipped ? ": " + sweep.first_skip : std::string()));
    if (c.rank == 0) write_outputs(header, o, sweep);
    return 0;
}

}  // namespace

std::string mpi_library_version() {
    char library[MPI_MAX_LIBRARY_VERSION_STRING + 1] = {};
    int length = 0;
    MPI_Get_library_version(library, &length);
    const std::string text(library, library + length);
    return text.substr(0, text.find_first_of(",\n"));
}

void agree(const Context& context, const std::function<void()>& step) {
    std::string message;
    int failed = -1;
    try {
        step();
    } catch (const InputError& e) {
        message = e.what();
        failed = context.rank;
    }
    int any = -1;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, context.comm);
    if (any >= 0) throw RankError(any, 2, message);
}

Timing timed(const Context& context, const TimingSettings& settings, const TimedOperation& op) {
    try {
        return time_operation(context.comm, settings, op);
    } catch (const WrongResult& e) {
        throw RankError(e.rank, 1, e.what());
    }
}

void fill(Row& row, const Timing& timing) {
    row.median_s = timing.summary.median;
    row.ci_low_s = timing.summary.ci_low;
    row.ci_high_s = timing.summary.ci_high;
    row.runs = timing.runs;
}

Row timed_schedule_row(const Context& context, const Schedule& schedule, const RankPlan& plan,
                       const TimingSettings& settings, const TimedOperation& op) {
    Row row{std::string(to_string(schedule.shape.collective)),
            schedule.algorithm,
            schedule.k,
            schedule.style.empty() ? std::string("file") : schedule.style,
            schedule.shape.bytes,
            std::string(to_string(plan.element))};
    fill(row, timed(context, settings, op));
    unsigned long long mine[2] = {plan.staged_bytes, plan.dropped_waits}, all[2] = {};
    MPI_Allreduce(mine, all, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, context.comm);
    row.staged_bytes = all[0];
    row.dropped_waits = all[1];
    return row;
}

std::string case_label(const Schedule& s) {
    return fmt::format("{} {}{} ({} style, {} ranks, {} B)", to_string(s.shape.collective),
                       s.algorithm, s.k > 0 ? fmt::format(" k={}", s.k) : "",
                       s.style.empty() ? "file's" : s.style, s.shape.ranks, s.shape.bytes);
}

namespace {

// An MPI error (a tuning file that names an algorithm the library cannot run shows up in the
// first collective of any kind) reaches this handler instead of the default one. Open MPI 4.1
// relays the default handler's message through mpirun's help channel, which sometimes loses it
// when every rank aborts at once (show_help.c: "Data unpack would read past end of buffer"); here
// each rank prints its own line on stderr and ends the job.
void report_mpi_error(MPI_Comm* comm, int* code, ...) {
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(*code, text, &length);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::fprintf(stderr, "MPI error on rank %d: %.*s\n", rank, length, text);
    std::fflush(stderr);
    MPI_Abort(*comm, 1);
}

}  // namespace

int run_executor(int argc, char** argv, const RunHeader& identity,
                 const std::function<Backend(const Context&, const RunOptions&)>& make_backend) {
    MPI_Errhandler reporter = MPI_ERRHANDLER_NULL;  // the world's, inherited by its duplicates
    MPI_Comm_create_errhandler(report_mpi_error, &reporter);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, reporter);
    MPI_Errhandler_free(&reporter);  // the world keeps it while attached
    MPI_Comm comm = MPI_COMM_NULL;  // the executor's own messages stay off the world
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    Context context{comm, 0, 0};
    MPI_Comm_rank(comm, &context.rank);
    MPI_Comm_size(comm, &context.size);
    int status = 0;
    const Parsed parsed = parse_options(argc, argv, context.rank == 0, identity.tool);
    if (!parsed.options) {
        status = parsed.status;
    } else {
        try {
            status = run(context, *parsed.options, identity, make_backend);
        } catch (const RankError& e) {
            if (context.rank == e.rank)
                fmt::print(stderr, "{}: {}{}\n", identity.tool, e.status == 2 ? "error: " : "",
                           e.what());
            status = e.status;
        } catch (const InputError& e) {  // the same on every rank (options, files, generators)
            if (context.rank == 0) fmt::print(stderr, "{}: error: {}\n", identity.tool, e.what());
            status = 2;
        }
    }
    MPI_Comm_free(&comm);
    return status;
}

}  // namespace piccolo::exec
