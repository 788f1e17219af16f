// `piccolo select` command line: bad inputs give one-line InputErrors before any simulation,
// --emit KIND -o FILE pairing, byte-identical files for --threads 1 and 2.
#include <doctest/doctest.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "piccolo/cli/commands.hpp"
#include "piccolo/core/error.hpp"

namespace {

namespace fs = std::filesystem;

// Runs `piccolo ARGS` with only the select command; returns the InputError/ParseError text, or
// "" on success.
std::string run(std::vector<std::string> args) {
    CLI::App app{"piccolo"};
    app.require_subcommand(1);
    piccolo::cli::add_select_command(app);
    args.insert(args.begin(), "piccolo");
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const piccolo::InputError& e) {
        return e.what();
    } catch (const CLI::ParseError& e) {
        return std::string("parse error: ") + e.what();
    }
    return "";
}

std::string read(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

fs::path scratch(const std::string& name) {
    const fs::path dir = fs::path(PICCOLO_BINARY_DIR) / "test-select-cli";
    fs::create_directories(dir);
    return dir / name;
}

void check_error(const std::vector<std::string>& args, const std::string& expected) {
    const std::string message = run(args);
    INFO("args: " << [&] {
        std::string all;
        for (const auto& a : args) all += a + " ";
        return all;
    }());
    CHECK(message.find(expected) != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);  // one line
    CHECK_FALSE(message.empty());
}

}  // namespace

TEST_CASE("bad inputs: one line naming the option") {
    check_error({"select", "--algorithms", "rm,bogus"},
                "unknown algorithm 'bogus' (known: ring, k-ring, rd, rm, prd, prm, bruck, knomial, "
                "binomial, scatter-rd, scatter-ring, pairwise, scattered, rh, rabenseifner, "
                "recexch)");
    check_error({"select", "-k", "1"}, "-k: every k must be at least 2 (got 1)");
    check_error({"select", "-k", "512"},
                "-k: k = 512 is larger than every p of the sweep (largest p = 256)");
    check_error({"select", "-k", "3", "--algorithms", "k-ring", "--nodes", "1"},
                "-k: no k in {3} is valid for k-ring at any scale (p = 4;");
    check_error({"select", "-k", "two"}, "-k: 'two' is not a whole number");
    check_error({"select", "--sizes", ""}, "--sizes: empty list");
    check_error({"select", "--sizes", ","}, "--sizes: 1 required TEXT missing");  // CLI11
    check_error({"select", "--sizes", "0"}, "--sizes: '0' must be at least 1 byte");
    check_error({"select", "--sizes=-8"}, "--sizes: '-8' is not a size");
    check_error({"select", "--sizes", "8,1.5KiB"}, "--sizes: '1.5KiB' has an unknown unit");
    check_error({"select", "--sizes", "1MiB-8"},
                "--sizes: '1MiB-8' is not a range a-b with a <= b");
    check_error({"select", "--nodes", "0"}, "--nodes: must be >= 1 (got 0)");
    check_error({"select", "--ppn", "8"}, "ranks per node must be between 1 and the 4 devices");
    check_error({"select", "--threads", "-1"}, "--threads: must be >= 1 (got -1)");
    check_error({"select", "--threads", "0"}, "--threads: must be >= 1 (got 0)");
    check_error({"select", "--ppn", "0"}, "--ppn: must be >= 1 (got 0)");
    check_error({"select", "--collective", "allscatter"}, "unknown collective 'allscatter'");
    check_error({"select", "-c", "bcastt"},
                "-c/--collective: unknown collective 'bcastt' (expected allgather, allreduce, "
                "bcast, reduce, reduce_scatter, alltoall or all)");
    check_error({"select", "-a", "pairwise", "-c", "bcast"},
                "-a/--algorithms: pairwise builds none of the collectives asked for (bcast); it "
                "builds reduce_scatter, alltoall; for bcast use knomial, binomial, scatter-rd, scatter-ring");
    check_error({"select", "-c", "allgather,bcast", "--emit", "piccl-env", "-o", "x.env"},
                "--emit piccl-env with -c bcast: piccl-env writes allgather and allreduce "
                "only; leave bcast out of -c, or write the selection with --format table, csv, "
                "json or yaml");
    check_error({"select", "--machine", "no-such-machine"}, "no-such-machine");
    check_error({"select", "--format", "xml"}, "--format: unknown output kind 'xml'");
    check_error({"select", "--format", "mpich-json"}, "--format: 'mpich-json' is not one of");
    check_error({"select", "--emit", "csv"},
                "--emit csv: give its file with -o FILE right after it");
    check_error({"select", "--emit", "bogus", "-o", "x"}, "--emit: unknown output kind 'bogus'");
    check_error({"select", "-o", "a", "-o", "b"}, "-o b: the table/--format output already goes");
    check_error({"select", "--emit", "piccl-env", "-o", "x.env"},
                "--emit piccl-env: PICCL takes one setting per run, but the sweep has 7 scales");
    check_error({"select", "--nodes", "4", "--emit", "piccl-env", "-o", "x.env"},
                "--emit piccl-env: PICCL takes one algorithm per collective for the whole run; "
                "say for which message size with --size SIZE");
    check_error({"select", "--nodes", "4", "--size", "3000", "--emit", "piccl-env", "-o", "x"},
                "--size: 3000 B is not one of the swept sizes");
    check_error({"select", "--mpich-base", "/no/such/file.json", "--emit", "mpich-json", "-o", "x"},
                "/no/such/file.json: cannot open for reading");
}

TEST_CASE("-c all: the six collectives, in every format that carries them") {
    const fs::path json = scratch("all-collectives.json"), csv = scratch("all-collectives.csv");
    for (const fs::path& f : {json, csv}) fs::remove(f);
    CHECK(run({"select", "-c", "all", "--nodes", "1", "--sizes", "8", "-f", "json", "-o",
               json.string(), "--emit", "csv", "-o", csv.string(), "--quiet"}) == "");
    const auto tree = nlohmann::json::parse(read(json));
    REQUIRE(tree["selections"].size() == 6);  // 6 collectives x 1 scale x 1 size
    std::vector<std::string> collectives;
    for (const auto& point : tree["selections"])
        collectives.push_back(point["collective"].get<std::string>());
    CHECK(collectives == std::vector<std::string>{"allgather", "allreduce", "bcast", "reduce",
                                                  "reduce_scatter", "alltoall"});
    CHECK(tree["selections"][2]["root"] == 0);
    CHECK(tree["size_meaning"]["alltoall"] == "block each rank sends each rank");
    CHECK(read(csv).find("\nalltoall,8,block each rank sends each rank,") != std::string::npos);
}

TEST_CASE("--emit KIND -o FILE pairs, a lone -o takes the --format output") {
    const fs::path main_csv = scratch("main.csv"), json = scratch("all.json"),
                   mpich = scratch("tuning.json"), env = scratch("piccl.env");
    for (const fs::path& f : {main_csv, json, mpich, env}) fs::remove(f);
    CHECK(run({"select",     "--nodes",      "2",           "--sizes",         "8,1MiB",
               "--format",   "csv",          "-o",          main_csv.string(), "--emit",
               "json",       "-o",           json.string(), "--emit",          "mpich-json",
               "-o",         mpich.string(), "--emit",      "piccl-env",       "-o",
               env.string(), "--size",       "1MiB",        "--style",         "nccl"}) == "");
    CHECK(read(main_csv).rfind("collective,size_bytes,size_meaning,", 0) == 0);
    const auto all = nlohmann::json::parse(read(json));
    CHECK(all["selections"].size() == 4);  // 2 collectives x 1 scale x 2 sizes
    const auto tuning = nlohmann::json::parse(read(mpich));
    CHECK(tuning.contains("collective=allgather"));
    CHECK(tuning.contains("collective=allreduce"));
    const std::string piccl = read(env);
    CHECK(piccl.find("\nPICCL_ALLGATHER_ALGO=") != std::string::npos);
    CHECK(piccl.find("\nPICCL_ALLREDUCE_ALGO=") != std::string::npos);
}

TEST_CASE("--style: by default the style of the implementation a file is written for") {
    const fs::path json = scratch("style.json"), out = scratch("style.out");
    auto style_of = [&](std::vector<std::string> args) {
        fs::remove(json);
        args.insert(args.begin(), {"select", "--nodes", "1", "--ppn", "2", "--sizes", "1KiB",
                                   "--emit", "json", "-o", json.string()});
        REQUIRE(run(args) == "");
        return nlohmann::json::parse(read(json))["style"].get<std::string>();
    };
    // delta says its collectives run on NCCL; laptop-mpi that its run on MPI.
    CHECK(style_of({}) == "nccl");
    CHECK(style_of({"--machine", "laptop-mpi"}) == "mpi");
    CHECK(style_of({"--emit", "mpich-json", "-o", out.string()}) == "mpi");
    CHECK(style_of({"--emit", "piccl-env", "-o", out.string(), "--machine", "laptop-mpi"}) ==
          "nccl");
    CHECK(style_of({"--style", "pipelined"}) == "pipelined");
    CHECK(run({"select", "--emit", "mpich-json", "-o", out.string(), "--emit", "piccl-env", "-o",
               out.string(), "--nodes", "2", "--size", "8", "--sizes", "8"}) ==
          "--style: --emit mpich-json is simulated in the mpi style and --emit piccl-env in the "
          "nccl style; write them in two runs, or choose one with --style");
    CHECK(run({"select", "--style", "mpich"}) ==
          "--style: unknown style 'mpich' (known: mpi, nccl, pipelined)");
}

TEST_CASE("--mpich-base: the two entries replace the base's, the rest is kept") {
    const fs::path base = scratch("base.json"), out = scratch("merged.json");
    {
        std::ofstream b(base);
        b << R"({"collective=bcast": {"algorithm=MPIR_Bcast_intra_binomial": {}},
                 "collective=allreduce": {"algorithm=MPIR_Allreduce_intra_ring": {}}})";
    }
    CHECK(run({"select", "--nodes", "1", "--sizes", "8", "--emit", "mpich-json", "-o", out.string(),
               "--mpich-base", base.string(), "-o", scratch("table.txt").string()}) == "");
    const auto merged = nlohmann::ordered_json::parse(read(out));
    std::vector<std::string> keys;
    for (const auto& [key, value] : merged.items()) keys.push_back(key);
    CHECK(keys == std::vector<std::string>{"collective=bcast", "collective=allreduce",
                                           "collective=allgather"});
    CHECK(merged["collective=bcast"] ==
          nlohmann::ordered_json::parse(R"({"algorithm=MPIR_Bcast_intra_binomial": {}})"));
    CHECK(merged["collective=allreduce"].contains("comm_type=intra"));
}

TEST_CASE("files are byte-identical for --threads 1 and --threads 2") {
    for (const char* format : {"table", "json"}) {
        const fs::path one = scratch(std::string("one.") + format),
                       two = scratch(std::string("two.") + format);
        const std::vector<std::string> common{"select",       "--nodes",  "1,2,4", "--sizes",
                                              "8,64KiB,4MiB", "--format", format};
        auto with = [&](const char* threads, const fs::path& file) {
            std::vector<std::string> args = common;
            args.insert(args.end(), {"--threads", threads, "-o", file.string()});
            return args;
        };
        REQUIRE(run(with("1", one)) == "");
        REQUIRE(run(with("2", two)) == "");
        CHECK(read(one).size() > 100);
        CHECK(read(one) == read(two));
    }
}
