// PICCL environment: PICCL (github.com/PICCL-Project/PICCL, an LD_PRELOAD library over NCCL)
// reads one algorithm and one k per collective when it is loaded (src/piccl.c:
// PICCL_ALLGATHER_ALGO / PICCL_ALLREDUCE_ALGO in {RING, K_RING, RD, RM, PRD, PRM} and
// PICCL_ALLGATHER_K / PICCL_ALLREDUCE_K, README "Running PICCL"). So the file describes one run:
// one scale and one message size. Plain NAME=VALUE lines: `set -a; . FILE; set +a` exports
// them, and so do `env $(grep -v '^#' FILE) srun ...` and container --env-file options.
#include <fmt/format.h>
#include <algorithm>

#include "mpich_versions.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/emit/select_emit.hpp"
#include "piccolo/select/select_text.hpp"

namespace piccolo {

namespace {

std::string_view piccl_algo(std::string_view algorithm) {
    if (algorithm == "ring") return "RING";
    if (algorithm == "k-ring") return "K_RING";
    if (algorithm == "rd") return "RD";
    if (algorithm == "rm") return "RM";
    if (algorithm == "prd") return "PRD";
    if (algorithm == "prm") return "PRM";
    return "";
}

std::string upper(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
    return out;
}

std::uint64_t chosen_bytes(const std::vector<std::uint64_t>& sizes, const EmitOptions& options) {
    return options.piccl_bytes != 0 ? options.piccl_bytes : sizes.front();
}

}  // namespace

void check_emit(EmitKind kind, std::span<const Collective> collectives, std::size_t scales,
                const std::vector<std::uint64_t>& sizes, const EmitOptions& options) {
    check_tuned_collectives(kind, collectives);
    if (kind == EmitKind::mpich_json && !options.mpich_version.empty())
        mpich::version(options.mpich_version);  // throws for a series piccolo does not know
    if (kind != EmitKind::piccl_env) return;
    if (scales != 1)
        throw InputError(fmt::format(
            "--emit piccl-env: PICCL takes one setting per run, but the sweep has {} scales; "
            "pick one with --nodes N",
            scales));
    if (options.piccl_bytes == 0 && sizes.size() != 1)
        throw InputError(
            "--emit piccl-env: PICCL takes one algorithm per collective for the whole run; say "
            "for which message size with --size SIZE");
    if (options.piccl_bytes != 0 &&
        std::find(sizes.begin(), sizes.end(), options.piccl_bytes) == sizes.end())
        throw InputError(fmt::format("--size: {} is not one of the swept sizes; add it to --sizes",
                                     detail::size_label(options.piccl_bytes)));
}

Emitted emit_piccl_env(const SelectResult& result, const EmitOptions& options) {
    check_emit(EmitKind::piccl_env, result.collectives, result.scales.size(), result.sizes,
               options);
    const std::uint64_t bytes = chosen_bytes(result.sizes, options);
    const std::size_t z = static_cast<std::size_t>(
        std::find(result.sizes.begin(), result.sizes.end(), bytes) - result.sizes.begin());
    Emitted out;
    out.text = fmt::format(
        "# PICCL settings chosen by piccolo select (machine {}, {}, {} style, {}).\n"
        "# PICCL reads them when it is loaded: set -a; . THIS_FILE; set +a\n",
        result.machine, detail::scale_label(result.scales.front()), to_string(result.style),
        result.contention ? "contention modelled" : "no contention");
    std::string lines;
    for (std::size_t c = 0; c < result.collectives.size(); ++c) {
        const PointSelection& p = result.at(c, 0, z);
        const std::string name = upper(to_string(p.collective));
        const AlgorithmOutcome* best = p.best_outcome();
        if (!best) {
            out.text +=
                fmt::format("# {}: {} {}: no algorithm could run\n", to_string(p.collective),
                            selection_size_meaning(p.collective), detail::size_label(bytes));
            continue;
        }
        out.text += fmt::format("# {}: {} {} -> {}, predicted {} ({:.2f}x over {})\n",
                                to_string(p.collective), selection_size_meaning(p.collective),
                                detail::size_label(bytes), detail::choice_label(*best),
                                detail::time_label(best->time), p.speedup(), p.baseline);
        lines += fmt::format("PICCL_{}_ALGO={}\n", name, piccl_algo(best->algorithm));
        if (best->has_radix) lines += fmt::format("PICCL_{}_K={}\n", name, best->k);
    }
    out.text += lines;
    return out;
}

}  // namespace piccolo
