// piccolo-run-mpi: executes piccolo schedules over MPI point-to-point (one rank per core or
// device), checks every byte of every result and times them next to the MPI library's own
// collective. Run it under mpirun; see profiler/README.md, "Executing schedules".
#include <mpi.h>

#include <fmt/format.h>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>

#include <unistd.h>

#include "cases.hpp"
#include "options.hpp"
#include "piccolo/error.hpp"
#include "piccolo/generate.hpp"
#include "piccolo/profiler/run_info.hpp"
#include "piccolo/schedule_xml.hpp"
#include "piccolo/verify.hpp"

namespace {

using namespace piccolo;
using namespace piccolo::exec;

// MPI_Init / MPI_Finalize by scope, and a duplicate of the world for the executor's messages.
class MpiSession {
  public:
    MpiSession(int& argc, char**& argv) {
        MPI_Init(&argc, &argv);
        MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    }
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
    ~MpiSession() {
        MPI_Comm_free(&comm_);
        MPI_Finalize();
    }
    [[nodiscard]] MPI_Comm comm() const { return comm_; }

  private:
    MPI_Comm comm_ = MPI_COMM_NULL;
};

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
RunHeader describe(const Context& c, const RunOptions& o) {
    RunHeader h;
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
    char library[MPI_MAX_LIBRARY_VERSION_STRING + 1] = {};
    MPI_Get_library_version(library, &length);
    h.mpi_library = std::string(library, library + length);
    h.mpi_library = h.mpi_library.substr(0, h.mpi_library.find_first_of(",\n"));
    h.date = profiler::utc_now();
    h.command_line = o.command_line;
    return h;
}

// The radices to run for an algorithm at p ranks: -k's list (those valid), or every valid k.
std::vector<int> radices_for(const AlgorithmInfo& info, const RunOptions& o, Rank p) {
    if (!info.has_radix) return {0};
    std::vector<int> out;
    for (int k : info.valid_radices(p))
        if (o.radices.empty() ||
            std::find(o.radices.begin(), o.radices.end(), k) != o.radices.end())
            out.push_back(k);
    return out;
}

struct Sweep {
    std::vector<Row> rows;
    int skipped = 0;
    std::string first_skip;
};

void run_generated(const Context& c, const RunOptions& o, Sweep& sweep) {
    for (Collective collective : o.collectives)
        for (std::uint64_t bytes : o.sizes) {
            if (o.reference) sweep.rows.push_back(run_reference(c, collective, bytes, o));
            for (const std::string& name : o.algorithms) {
                const AlgorithmInfo& info = find_algorithm(name);
                for (int k : radices_for(info, o, c.size))
                    for (Style style : o.styles) {
                        Schedule schedule;
                        try {
                            schedule = generate({collective, name, k, c.size, bytes, true, style});
                        } catch (const InputError& e) {  // e.g. a ring Allreduce under p bytes
                            if (sweep.skipped++ == 0) sweep.first_skip = e.what();
                            continue;
                        }
                        sweep.rows.push_back(run_schedule(c, schedule, o));
                    }
            }
        }
}

void run_file(const Context& c, const RunOptions& o, Sweep& sweep) {
    const Schedule loaded = read_schedule_xml(o.schedule_file).schedule;
    const VerifyReport report = verify(loaded);
    if (!report.ok() && (!report.data_flow_checked || !o.allow_race))
        throw InputError(fmt::format(
            "{}: {}{}", o.schedule_file, report.violation->message,
            report.data_flow_checked ? " (--allow-race runs it anyway, to see the race)" : ""));
    if (!report.ok() && c.rank == 0)
        fmt::print(stderr, "piccolo-run-mpi: warning: {}: {}; running it anyway (--allow-race)\n",
                   o.schedule_file, report.violation->message);
    const std::vector<std::uint64_t> sizes =
        o.sizes.empty() ? std::vector<std::uint64_t>{loaded.shape.bytes} : o.sizes;
    for (std::uint64_t bytes : sizes) {
        if (o.reference) sweep.rows.push_back(run_reference(c, loaded.shape.collective, bytes, o));
        sweep.rows.push_back(run_schedule(c, with_message_size(loaded, bytes), o));
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
        fmt::print(stderr, "piccolo-run-mpi: skipped {} candidate(s) that do not exist here ({})\n",
                   sweep.skipped, sweep.first_skip);
}

int run(const Context& c, const RunOptions& o) {
    const RunHeader header = describe(c, o);
    Sweep sweep;
    if (o.schedule_file.empty())
        run_generated(c, o, sweep);
    else
        run_file(c, o, sweep);
    if (sweep.rows.empty() || (sweep.rows.size() == 1 && o.reference && o.schedule_file.empty()))
        throw InputError(fmt::format("nothing to run at {} ranks{}", c.size,
                                     sweep.skipped ? ": " + sweep.first_skip : std::string()));
    if (c.rank == 0) write_outputs(header, o, sweep);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    MpiSession session(argc, argv);
    Context context{session.comm(), 0, 0};
    MPI_Comm_rank(context.comm, &context.rank);
    MPI_Comm_size(context.comm, &context.size);
    const Parsed parsed = parse_options(argc, argv, context.rank == 0);
    if (!parsed.options) return parsed.status;
    try {
        return run(context, *parsed.options);
    } catch (const RankError& e) {
        if (context.rank == e.rank)
            fmt::print(stderr, "piccolo-run-mpi: {}{}\n", e.status == 2 ? "error: " : "", e.what());
        return e.status;
    } catch (const InputError& e) {  // the same on every rank (options, files, generators)
        if (context.rank == 0) fmt::print(stderr, "piccolo-run-mpi: error: {}\n", e.what());
        return 2;
    }
}
