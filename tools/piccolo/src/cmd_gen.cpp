// piccolo gen: write the schedule of one (collective, algorithm, k, p, size) as XML.
#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>

#include "common_options.hpp"
#include "piccolo/cli/commands.hpp"
#include "piccolo/core/size_parse.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "radix_option.hpp"
#include "style_option.hpp"
#include "text_files.hpp"

namespace piccolo::cli {

namespace {

struct GenOptions {
    std::string collective = "allgather";
    std::string algorithm;
    std::optional<int> k;  // -k: absent for algorithms without a radix
    int ranks = 0;
    std::string bytes;
    std::string output = "-";
    bool no_payload = false;
    std::string style = "mpi";
    int root = 0;
};

void run_gen(const GenOptions& o) {
    check_writable(o.output);
    GenerateRequest request;
    request.collective = parse_collective(o.collective);
    request.algorithm = o.algorithm;
    request.k = radix_for(o.k, o.algorithm, request.collective);
    request.ranks = o.ranks;
    request.bytes = parse_bytes(o.bytes, "--bytes");
    request.payload = !o.no_payload;
    request.style = parse_style_option(o.style);
    request.root = o.root;
    const Schedule schedule = generate(request);
    if (o.output == "-")
        write_schedule_xml(schedule, std::cout);
    else
        write_schedule_xml(schedule, o.output);
}

}  // namespace

void add_gen_command(CLI::App& app) {
    auto options = std::make_shared<GenOptions>();
    CLI::App* gen = app.add_subcommand(
        "gen", "Generate a schedule (message-dependency DAG) and write it as XML");
    gen->add_option("--collective,-c", options->collective,
                    "allgather, allreduce, bcast, reduce, reduce_scatter or alltoall")
        ->capture_default_str();
    gen->add_option("--algorithm,-a", options->algorithm,
                    "ring, k-ring, rd, rm, prd, prm, bruck, knomial, binomial, scatter-rd, "
                    "scatter-ring, pairwise, scattered, rh, rabenseifner, recexch (piccolo "
                    "algorithms)")
        ->required();
    add_radix_option(*gen, options->k,
                     "radix k (k-ring, rm, prm, bruck, knomial, recexch): 2 <= k <= p; refused "
                     "for the others");
    add_ranks_option(*gen, options->ranks, "number of ranks p >= 2")->required();
    gen->add_option("--bytes,-b", options->bytes,
                    "per-rank contribution (allgather) or the whole buffer (others), e.g. 64KiB")
        ->required();
    gen->add_option("--root", options->root, "bcast, reduce: the root rank, 0 <= root < p")
        ->capture_default_str();
    gen->add_option("-o,--output", options->output, "output file, - for stdout")
        ->capture_default_str();
    add_style_option(*gen, options->style, "mpi");
    gen->add_flag("--no-payload", options->no_payload,
                  "omit the blocks/segments attributes (smaller files, no data-flow proof)");
    gen->callback([options] { run_gen(*options); });
}

}  // namespace piccolo::cli
