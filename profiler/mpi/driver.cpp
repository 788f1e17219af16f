#include "driver.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <thread>

#include <sys/utsname.h>  // uname(), for the profile's header

#include "piccolo/core/error.hpp"
#include "piccolo/profiler/fit.hpp"
#include "piccolo/profiler/run_info.hpp"

#include "communicator.hpp"
#include "hierarchy.hpp"
#include "node_probes.hpp"

namespace piccolo::profiler {
namespace {

constexpr int samples_tag = 3;

struct Options {
    std::string output = "machine.yaml";
    std::string raw;
    std::string name;
    bool quick = false;
    bool quiet = false;
    std::string group_of;
    int node_size = 0;
    int devices_per_node = 0;
    std::size_t min_size = 0;
    std::size_t max_size = 0;
    int train_length = 0;
    std::string command_line;
};

// Waits for every rank without spinning, so that idle ranks do not steal the CPU from the
// pair being measured.
void idle_barrier(MPI_Comm comm) {
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ibarrier(comm, &request);
    int done = 0;
    while (true) {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done) return;
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
}

// Moves the samples recorded on `from` to rank 0 (as raw CSV text, which round-trips exactly).
void ship_samples(MPI_Comm comm, int rank, int from, std::vector<RawSample>& mine,
                  std::vector<RawSample>& at_root) {
    if (from == 0) {
        if (rank == 0) at_root.insert(at_root.end(), mine.begin(), mine.end());
        mine.clear();
        return;
    }
    if (rank == from) {
        RawData data;
        data.samples = std::move(mine);
        std::ostringstream text;
        write_raw_csv(text, data);
        const std::string payload = text.str();
        const auto length = static_cast<unsigned long long>(payload.size());
        MPI_Send(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, samples_tag, comm);
        MPI_Send(payload.data(), static_cast<int>(payload.size()), MPI_CHAR, 0, samples_tag, comm);
        mine.clear();
    } else if (rank == 0) {
        unsigned long long length = 0;
        MPI_Recv(&length, 1, MPI_UNSIGNED_LONG_LONG, from, samples_tag, comm, MPI_STATUS_IGNORE);
        std::string payload(length, '\0');
        MPI_Recv(payload.data(), static_cast<int>(length), MPI_CHAR, from, samples_tag, comm,
                 MPI_STATUS_IGNORE);
        std::istringstream in(payload);
        RawData data = parse_raw_csv(in, fmt::format("samples of rank {}", from));
        at_root.insert(at_root.end(), data.samples.begin(), data.samples.end());
    }
}

// Before MPI_Init the rank is unknown, but launchers export it: only the first process reports
// option errors, so that `mpirun -n 4 TOOL --bad` prints one line rather than four.
bool first_process() {
    for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}) {
        if (const char* value = std::getenv(name)) return std::string_view(value) == "0";
    }
    return true;
}

MeasureSettings settings_for(const Options& o) {
    MeasureSettings s = o.quick ? MeasureSettings::quick() : MeasureSettings::full();
    if (o.min_size > 0) s.min_bytes = o.min_size;
    if (o.max_size > 0) s.max_bytes = o.max_size;
    if (o.train_length > 0) s.train_length = o.train_length;
    return s;
}

void validate(const Options& o) {
    if (!o.group_of.empty()) {
        try {
            const std::regex check(o.group_of);
        } catch (const std::regex_error& e) {
            throw InputError(fmt::format("--group-of '{}': not a valid regular expression ({})",
                                         o.group_of, e.what()));
        }
    }
    const MeasureSettings s = settings_for(o);
    if (s.min_bytes > s.max_bytes) {
        throw InputError(fmt::format("--min-size {} is above --max-size {} (swap them)",
                                     s.min_bytes, s.max_bytes));
    }
    if (s.max_bytes > (std::size_t{1} << 30)) {
        throw InputError(
            fmt::format("--max-size {} is above 1 GiB (profile smaller messages; "
                        "the table is flat beyond its last row)",
                        s.max_bytes));
    }
    if (o.output.empty()) throw InputError("--output: empty file name (give a path)");
}

// "MODEL, N hardware threads" of rank 0's host, for the profile's header (Linux: the first
// "model name" of /proc/cpuinfo; elsewhere just the thread count).
std::string cpu_description() {
    std::string model = "unknown CPU";
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
            model = line.substr(line.find(':') + 2);
            break;
        }
    }
    return fmt::format("{}, {} hardware threads", model, std::thread::hardware_concurrency());
}

std::string os_description() {
    utsname name{};
    if (uname(&name) != 0) return "unknown";
    return fmt::format("{} {} {}", name.sysname, name.release, name.machine);
}

std::string default_raw_path(const std::string& output) {
    std::filesystem::path p(output);
    p.replace_extension();
    return p.string() + ".raw.csv";
}

void write_outputs(const Options& options, const DriverHooks& hooks,
                   const MeasureSettings& settings, const Hierarchy& h,
                   const std::vector<LevelProbe>& levels, int size, int devices_per_node,
                   RawData& raw, const ProgressLog& root_log);

// --devices-per-node, or the transport's count (at least the ranks found on one node).
int devices_per_node_for(const Options& options, const DriverHooks& hooks, const Hierarchy& h) {
    const int found = ranks_per_node(h);
    if (options.devices_per_node == 0)
        return std::max(found, hooks.devices_per_node ? hooks.devices_per_node() : 1);
    if (options.devices_per_node < found)
        throw InputError(
            fmt::format("--devices-per-node {} is below the {} ranks found on one node",
                        options.devices_per_node, found));
    return options.devices_per_node;
}

RankContext rank_context(MPI_Comm world, int rank, int size, const Hierarchy& h) {
    RankContext context;
    context.world = world;
    context.rank = rank;
    context.size = size;
    context.node = h.node_of[static_cast<std::size_t>(rank)];
    for (int r = 0; r < rank; ++r)
        context.local_rank += h.node_of[static_cast<std::size_t>(r)] == context.node ? 1 : 0;
    return context;
}

// What one measurement step needs besides its own arguments.
struct Run {
    MPI_Comm world;
    int rank = 0;
    int size = 0;
    Transport& transport;
    const MeasureSettings& settings;
    const ProgressLog& log;       // every rank's
    const ProgressLog& root_log;  // rank 0's (empty elsewhere)
    const DriverHooks& hooks;
};

// PRTT (and, with the first pair, the device radix) between the rank pair of each level.
void measure_levels(const Run& run, const Hierarchy& h, const std::vector<LevelProbe>& levels,
                    RawData& raw) {
    bool device_radix_done = false;
    for (const LevelProbe& level : levels) {
        if (!level.pair) {
            if (run.root_log)
                run.root_log(fmt::format(
                    "level {}: no rank pair has it as lowest common level; not measured",
                    level.name));
            continue;
        }
        const auto [client, partner] = *level.pair;
        if (run.root_log) {
            run.root_log(fmt::format("level {}: ranks {} ({}) and {} ({})", level.name, client,
                                     h.host_of[static_cast<std::size_t>(client)], partner,
                                     h.host_of[static_cast<std::size_t>(partner)]));
        }
        std::vector<RawSample> mine;
        if (run.rank == client) {
            measure_loggp(run.transport, partner, run.settings, level.name, mine, run.log);
            if (!device_radix_done)
                measure_radix(run.transport, partner, run.settings, "device", mine, run.log);
            finish_serving(run.transport, partner);
        } else if (run.rank == partner) {
            serve(run.transport, client);
        }
        if (run.hooks.measure_reclaim)
            run.hooks.measure_reclaim(run.world, run.rank, client, partner, level.name,
                                      run.settings, mine);
        idle_barrier(run.world);
        ship_samples(run.world, run.rank, client, mine, raw.samples);
        device_radix_done = true;
    }
}

// node_radix needs two nodes: probe between the nodes of the first inter-node pair.
void measure_node_radix(const Run& run, const Hierarchy& h, const std::vector<LevelProbe>& levels,
                        RawData& raw) {
    for (const LevelProbe& level : levels) {
        if (level.name == "node" || !level.pair) continue;
        const int node_a = h.node_of[static_cast<std::size_t>(level.pair->first)];
        const int node_b = h.node_of[static_cast<std::size_t>(level.pair->second)];
        int first_sender = run.size;
        for (int r = 0; r < run.size; ++r) {
            if (h.node_of[static_cast<std::size_t>(r)] == node_a)
                first_sender = std::min(first_sender, r);
        }
        if (run.root_log)
            run.root_log(fmt::format("node radix: from node {} to node {}", node_a, node_b));
        std::vector<RawSample> mine;
        probe_node_radix(run.world, run.rank, h.node_of, node_a, node_b, run.transport,
                         run.settings, mine, run.log);
        idle_barrier(run.world);
        ship_samples(run.world, run.rank, first_sender, mine, raw.samples);
        return;
    }
}

int measure(const Options& options, const DriverHooks& hooks, int rank, int size) {
    const Communicator world(MPI_COMM_WORLD);
    const Communicator transport_world(MPI_COMM_WORLD);
    if (size % 2 != 0) {
        throw InputError(fmt::format(
            "{} rank{}: the profiler measures rank pairs and needs an even number of ranks >= 2 "
            "(e.g. mpirun -n 2)",
            size, size == 1 ? "" : "s"));
    }
    const Hierarchy h = discover(world.get(), rank, size, options.node_size, options.group_of);
    const int devices_per_node = devices_per_node_for(options, hooks, h);
    const std::vector<LevelProbe> levels = level_probes(h, devices_per_node);
    const MeasureSettings settings = settings_for(options);

    const int max_in_flight =
        *std::max_element(settings.radix_concurrency.begin(), settings.radix_concurrency.end());
    // A train of PRTT(n, d, s) sends n distinct messages, each written before it (produce()).
    const std::size_t capacity =
        std::max(settings.max_bytes * static_cast<std::size_t>(std::max(settings.train_length, 2)),
                 settings.radix_bytes * static_cast<std::size_t>(max_in_flight));
    const std::unique_ptr<Transport> transport =
        hooks.make_transport(rank_context(transport_world.get(), rank, size, h), capacity);

    const ProgressLog log = [&](std::string_view line) {
        if (!options.quiet)
            std::cerr << fmt::format("[{} rank {}] {}\n", hooks.tool, rank, line) << std::flush;
    };
    const ProgressLog root_log = rank == 0 ? log : ProgressLog{};
    if (root_log) {
        root_log(fmt::format("{} ranks on {} node(s){}; {} mode", size, h.nodes,
                             h.group_of.empty() ? "" : fmt::format(" in {} group(s)", h.groups),
                             options.quick ? "quick" : "full"));
    }
    const Run run{world.get(), rank, size, *transport, settings, log, root_log, hooks};
    RawData raw;
    measure_levels(run, h, levels, raw);
    measure_node_radix(run, h, levels, raw);
    if (root_log) root_log("node concurrency: rank pairs of the first node at once");
    probe_node_concurrency(world.get(), rank, h.node_of, *transport, settings, raw.samples, log);
    idle_barrier(world.get());

    int status = 0;
    if (rank == 0) {
        try {
            write_outputs(options, hooks, settings, h, levels, size, devices_per_node, raw,
                          root_log);
        } catch (const InputError& e) {
            // Only rank 0 writes: report here so that the other ranks are not left waiting.
            std::cerr << fmt::format("{}: error: {}\n", hooks.tool, e.what());
            status = 2;
        }
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, world.get());
    return status;
}

void write_outputs(const Options& options, const DriverHooks& hooks,
                   const MeasureSettings& settings, const Hierarchy& h,
                   const std::vector<LevelProbe>& levels, int size, int devices_per_node,
                   RawData& raw, const ProgressLog& root_log) {
    {
        if (hooks.measure_compute) {
            root_log("compute: timing a local reduce and copy");
            hooks.measure_compute(settings, raw.samples);
        }
        const std::string host = h.host_of.front();
        raw.machine_name = options.name.empty() ? host + "-measured" : options.name;
        raw.description = fmt::format(
            "Measured by {} ({}) on {}: {} rank(s) on {} node(s), {} mode, {}", hooks.tool,
            hooks.transport, host, size, h.nodes, options.quick ? "quick" : "full", utc_now());
        for (const LevelProbe& level : levels) raw.levels.push_back({level.name, level.fanout});
        raw.info.emplace_back("date", utc_now());
        raw.info.emplace_back("command", options.command_line);
        raw.info.emplace_back("host", host);
        raw.info.emplace_back("cpu", cpu_description());
        raw.info.emplace_back("os", os_description());
        char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
        int length = 0;
        MPI_Get_library_version(version, &length);
        std::string library(version, static_cast<std::size_t>(length));
        library = library.substr(0, library.find_first_of("\r\n,"));
        raw.info.emplace_back("transport", fmt::format("{} ({})", hooks.transport, library));
        raw.info.emplace_back(
            "layout", fmt::format("{} rank(s), {} node(s), {} group(s), node fanout {}", size,
                                  h.nodes, std::max(h.groups, 1), devices_per_node));
        raw.info.emplace_back(
            "settings",
            fmt::format("sizes {}..{} B x{} (+{} refinement rounds), n = {}, {}..{} reps, CI "
                        "target {}%, radix {} B",
                        settings.min_bytes, settings.max_bytes, settings.grid_factor,
                        settings.refine_rounds, settings.train_length, settings.min_reps,
                        settings.max_reps, settings.target_ci * 100, settings.radix_bytes));
        const std::string raw_path =
            options.raw.empty() ? default_raw_path(options.output) : options.raw;
        write_raw_csv(raw_path, raw);
        const ProfileFit fit = fit_profile(raw, raw_path);
        const std::string yaml = profile_yaml(raw, fit);
        std::ofstream out(options.output);
        if (!out || !(out << yaml)) {
            throw InputError(fmt::format(
                "{}: cannot write the machine profile (check the directory)", options.output));
        }
        std::cout << format_report(fit)
                  << fmt::format("wrote {} and {}\n", options.output, raw_path);
        for (const LevelFit& level : fit.levels) {
            for (const std::string& note : level.notes) {
                if (note.find("NOISY") != std::string::npos) {
                    std::cerr << fmt::format("{}: warning: {}\n", hooks.tool, note);
                }
            }
        }
    }
}

}  // namespace

int run_profiler(int argc, char** argv, const DriverHooks& hooks) {
    Options options;
    for (int i = 0; i < argc; ++i) {
        options.command_line += (i == 0 ? "" : " ") + std::string(argv[i]);
    }
    CLI::App app{fmt::format(
        "{}: measure LogGP parameters (PRTT method) per level of the machine hierarchy and write "
        "the machine YAML that piccolo sim --machine reads. Run one rank per device under "
        "mpirun, e.g. mpirun -n 2 {} -o machine.yaml",
        hooks.tool, hooks.tool)};
    app.add_option("-o,--output", options.output, "machine YAML to write")->capture_default_str();
    app.add_option("--raw", options.raw,
                   "raw samples CSV to write (default: OUTPUT with .raw.csv); refit with "
                   "piccolo fit");
    app.add_option("--name", options.name, "machine name (default: HOST-measured)");
    app.add_flag("--quick", options.quick, "coarse grid, few repetitions: seconds, for CI");
    app.add_flag("-q,--quiet", options.quiet, "no progress lines on stderr");
    app.add_option("--group-of", options.group_of,
                   "regular expression on host names whose first capture group (or whole "
                   "match) names the node's group, e.g. 'x(\\d+)c' ");
    app.add_option("--node-size", options.node_size,
                   "treat blocks of N consecutive ranks as one node instead of discovering "
                   "shared-memory nodes (tests the hierarchy on one host)")
        ->check(CLI::PositiveNumber);
    app.add_option("--devices-per-node", options.devices_per_node,
                   "fanout of the node level (default: the larger of the ranks per node and the "
                   "devices found)")
        ->check(CLI::PositiveNumber);
    app.add_option("--min-size", options.min_size, "smallest message size in bytes")
        ->check(CLI::PositiveNumber);
    app.add_option("--max-size", options.max_size, "largest message size in bytes")
        ->check(CLI::PositiveNumber);
    app.add_option("--train", options.train_length, "n of PRTT(n,d,s) (default 16, quick 8)")
        ->check(CLI::Range(2, 1000));
    try {
        app.parse(argc, argv);
        validate(options);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        if (first_process()) {
            std::cerr << fmt::format("{}: error: {} (see {} --help)\n", hooks.tool, e.what(),
                                     hooks.tool);
        }
        return 2;
    } catch (const InputError& e) {
        if (first_process()) std::cerr << fmt::format("{}: error: {}\n", hooks.tool, e.what());
        return 2;
    }
    if (hooks.preflight) {
        if (const auto problem = hooks.preflight()) {
            if (first_process()) std::cerr << fmt::format("{}: error: {}\n", hooks.tool, *problem);
            return 2;
        }
    }

    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int status = 0;
    try {
        status = measure(options, hooks, rank, size);
    } catch (const InputError& e) {
        // Every rank reaches the same verdict (the checks use allgathered data); one prints.
        if (rank == 0) std::cerr << fmt::format("{}: error: {}\n", hooks.tool, e.what());
        status = 2;
    } catch (const std::exception& e) {
        std::cerr << fmt::format("{}: internal error on rank {}: {}\n", hooks.tool, rank, e.what());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Finalize();
    return status;
}

}  // namespace piccolo::profiler
