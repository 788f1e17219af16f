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
#include <map>
#include <regex>
#include <sstream>
#include <thread>

#include <sys/utsname.h>  // uname(), for the profile's header

#include "piccolo/error.hpp"
#include "piccolo/profiler/fit.hpp"
#include "piccolo/profiler/run_info.hpp"

#include "communicator.hpp"
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

struct Hierarchy {
    std::vector<int> node_of;   // per world rank
    std::vector<int> group_of;  // per world rank; empty without --group-of
    std::vector<std::string> host_of;
    int nodes = 0;
    int groups = 0;
};

struct LevelPlan {
    std::string name;
    int fanout = 0;
    std::optional<std::pair<int, int>> pair;  // (client, partner) world ranks
};

std::vector<int> allgather(MPI_Comm comm, int mine, int size) {
    std::vector<int> all(static_cast<std::size_t>(size));
    MPI_Allgather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, comm);
    return all;
}

std::vector<std::string> allgather(MPI_Comm comm, const std::string& mine, int size) {
    constexpr std::size_t width = MPI_MAX_PROCESSOR_NAME + 1;
    std::vector<char> buffer(width, '\0');
    std::copy_n(mine.begin(), std::min(mine.size(), width - 1), buffer.begin());
    std::vector<char> all(width * static_cast<std::size_t>(size));
    MPI_Allgather(buffer.data(), static_cast<int>(width), MPI_CHAR, all.data(),
                  static_cast<int>(width), MPI_CHAR, comm);
    std::vector<std::string> result;
    for (int r = 0; r < size; ++r)
        result.emplace_back(all.data() + width * static_cast<std::size_t>(r));
    return result;
}

// Dense ids 0, 1, ... in order of first appearance.
template <typename Key>
std::vector<int> dense_ids(const std::vector<Key>& keys, int& count) {
    std::map<Key, int> ids;
    std::vector<int> result;
    for (const Key& k : keys) {
        const auto [it, inserted] = ids.emplace(k, static_cast<int>(ids.size()));
        result.push_back(it->second);
    }
    count = static_cast<int>(ids.size());
    return result;
}

Hierarchy discover(const Options& options, MPI_Comm world, int rank, int size) {
    Hierarchy h;
    int node_key = 0;
    if (options.node_size > 0) {
        node_key = rank / options.node_size;
    } else {
        MPI_Comm shared = MPI_COMM_NULL;
        MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared);
        MPI_Allreduce(&rank, &node_key, 1, MPI_INT, MPI_MIN, shared);  // the node's lowest rank
        MPI_Comm_free(&shared);
    }
    h.node_of = dense_ids(allgather(world, node_key, size), h.nodes);

    char name[MPI_MAX_PROCESSOR_NAME + 1] = {};
    int length = 0;
    MPI_Get_processor_name(name, &length);
    h.host_of = allgather(world, std::string(name, static_cast<std::size_t>(length)), size);

    if (!options.group_of.empty()) {
        const std::regex pattern(options.group_of);
        std::vector<std::string> keys;
        for (int r = 0; r < size; ++r) {
            std::smatch match;
            const std::string& host = h.host_of[static_cast<std::size_t>(r)];
            if (!std::regex_search(host, match, pattern)) {
                throw InputError(fmt::format(
                    "--group-of '{}': host name '{}' (rank {}) does not match (the expression "
                    "must match every host; its first capture group, or the whole match, names "
                    "the group)",
                    options.group_of, host, r));
            }
            keys.push_back(match.size() > 1 && match[1].matched ? match[1].str() : match[0].str());
        }
        h.group_of = dense_ids(keys, h.groups);
    }
    return h;
}

std::vector<LevelPlan> plan_levels(const Hierarchy& h, int devices_per_node) {
    const int size = static_cast<int>(h.node_of.size());
    auto first_pair = [&](auto&& wanted) -> std::optional<std::pair<int, int>> {
        for (int a = 0; a < size; ++a) {
            for (int b = a + 1; b < size; ++b) {
                if (wanted(a, b)) return std::pair{a, b};
            }
        }
        return std::nullopt;
    };
    auto node = [&](int r) { return h.node_of[static_cast<std::size_t>(r)]; };
    auto group = [&](int r) { return h.group_of[static_cast<std::size_t>(r)]; };
    const bool grouped = !h.group_of.empty();

    std::vector<LevelPlan> levels;
    levels.push_back(
        {"node", devices_per_node, first_pair([&](int a, int b) { return node(a) == node(b); })});
    if (grouped) {
        std::vector<std::vector<int>> nodes_in_group(static_cast<std::size_t>(h.groups));
        for (int r = 0; r < size; ++r) {
            auto& list = nodes_in_group[static_cast<std::size_t>(group(r))];
            if (std::find(list.begin(), list.end(), node(r)) == list.end()) list.push_back(node(r));
        }
        int fanout = 1;
        for (const auto& list : nodes_in_group)
            fanout = std::max(fanout, static_cast<int>(list.size()));
        levels.push_back({"group", fanout, first_pair([&](int a, int b) {
                              return group(a) == group(b) && node(a) != node(b);
                          })});
    }
    LevelPlan system{"system", 0, first_pair([&](int a, int b) {
                         return grouped ? group(a) != group(b) : node(a) != node(b);
                     })};
    // Measured across units: any number of them may be simulated (fanout 0). Not measured
    // (one node, or one group): its table is a copy of an inner level's, so the profile only
    // admits as many units as were there, rather than pricing unmeasured links silently.
    if (!system.pair) system.fanout = grouped ? h.groups : h.nodes;
    levels.push_back(system);
    return levels;
}

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
                   const std::vector<LevelPlan>& levels, int size, int devices_per_node,
                   RawData& raw, const ProgressLog& root_log);

int measure(const Options& options, const DriverHooks& hooks, int rank, int size) {
    const Communicator world(MPI_COMM_WORLD);
    const Communicator transport_world(MPI_COMM_WORLD);
    if (size % 2 != 0) {
        throw InputError(fmt::format(
            "{} ranks: the profiler measures rank pairs and needs an even number of ranks >= 2 "
            "(e.g. mpirun -n 2)",
            size));
    }
    const Hierarchy h = discover(options, world.get(), rank, size);
    int ranks_per_node = 0;
    for (int n = 0; n < h.nodes; ++n) {
        ranks_per_node = std::max<int>(
            ranks_per_node, static_cast<int>(std::count(h.node_of.begin(), h.node_of.end(), n)));
    }
    int devices_per_node = options.devices_per_node;
    if (devices_per_node == 0) {
        devices_per_node =
            std::max(ranks_per_node, hooks.devices_per_node ? hooks.devices_per_node() : 1);
    } else if (devices_per_node < ranks_per_node) {
        throw InputError(
            fmt::format("--devices-per-node {} is below the {} ranks found on one node",
                        devices_per_node, ranks_per_node));
    }
    const std::vector<LevelPlan> levels = plan_levels(h, devices_per_node);
    const MeasureSettings settings = settings_for(options);

    RankContext context;
    context.world = transport_world.get();
    context.rank = rank;
    context.size = size;
    context.node = h.node_of[static_cast<std::size_t>(rank)];
    for (int r = 0; r < rank; ++r)
        context.local_rank += h.node_of[static_cast<std::size_t>(r)] == context.node ? 1 : 0;
    const int max_in_flight =
        *std::max_element(settings.radix_concurrency.begin(), settings.radix_concurrency.end());
    const std::size_t capacity = std::max(
        settings.max_bytes, settings.radix_bytes * static_cast<std::size_t>(max_in_flight));
    const std::unique_ptr<Transport> transport = hooks.make_transport(context, capacity);

    const ProgressLog log = [&](std::string_view line) {
        if (!options.quiet)
            std::cerr << fmt::format("[{} rank {}] {}\n", hooks.tool, rank, line) << std::flush;
    };
    const ProgressLog root_log = rank == 0 ? log : ProgressLog{};

    RawData raw;
    if (root_log) {
        root_log(fmt::format("{} ranks on {} node(s){}; {} mode", size, h.nodes,
                             h.group_of.empty() ? "" : fmt::format(" in {} group(s)", h.groups),
                             options.quick ? "quick" : "full"));
    }
    bool device_radix_done = false;
    for (const LevelPlan& level : levels) {
        if (!level.pair) {
            if (root_log)
                root_log(fmt::format(
                    "level {}: no rank pair has it as lowest common level; not measured",
                    level.name));
            continue;
        }
        const auto [client, partner] = *level.pair;
        if (root_log) {
            root_log(fmt::format("level {}: ranks {} ({}) and {} ({})", level.name, client,
                                 h.host_of[static_cast<std::size_t>(client)], partner,
                                 h.host_of[static_cast<std::size_t>(partner)]));
        }
        std::vector<RawSample> mine;
        if (rank == client) {
            measure_loggp(*transport, partner, settings, level.name, mine, log);
            if (!device_radix_done)
                measure_radix(*transport, partner, settings, "device", mine, log);
            finish_serving(*transport, partner);
        } else if (rank == partner) {
            serve(*transport, client);
        }
        idle_barrier(world.get());
        ship_samples(world.get(), rank, client, mine, raw.samples);
        device_radix_done = true;
    }
    // node_radix needs two nodes: probe between the nodes of the first inter-node pair.
    for (const LevelPlan& level : levels) {
        if (level.name == "node" || !level.pair) continue;
        const int node_a = h.node_of[static_cast<std::size_t>(level.pair->first)];
        const int node_b = h.node_of[static_cast<std::size_t>(level.pair->second)];
        int first_sender = size;
        for (int r = 0; r < size; ++r) {
            if (h.node_of[static_cast<std::size_t>(r)] == node_a)
                first_sender = std::min(first_sender, r);
        }
        if (root_log) root_log(fmt::format("node radix: from node {} to node {}", node_a, node_b));
        std::vector<RawSample> mine;
        probe_node_radix(world.get(), rank, h.node_of, node_a, node_b, *transport, settings, mine,
                         log);
        idle_barrier(world.get());
        ship_samples(world.get(), rank, first_sender, mine, raw.samples);
        break;
    }
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
                   const std::vector<LevelPlan>& levels, int size, int devices_per_node,
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
        for (const LevelPlan& level : levels) raw.levels.push_back({level.name, level.fanout});
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
