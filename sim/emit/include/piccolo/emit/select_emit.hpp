#pragma once
// Output formats of the selector, one file each (sim/emit/src/emit_*.cpp). Every output states what
// a message size means (selection_size_meaning(): Allgather: per-rank contribution; Allreduce: vector size
// = MPICH's avg_msg_size; Bcast, Reduce: the buffer, at root 0; Reduce_scatter, Alltoall: a
// block) and whether contention was modelled.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "piccolo/select/select.hpp"

namespace piccolo {

enum class EmitKind { table, csv, json, yaml, mpich_json, openmpi_rules, piccl_env };

EmitKind parse_emit_kind(std::string_view name);  // throws InputError listing the kinds
std::string_view to_string(EmitKind kind);
std::vector<std::string_view> emit_kind_names();

// What an emitter produced: the file's text, plus remarks for the user (stderr), e.g. where
// MPICH has no equivalent of the simulated best algorithm.
struct Emitted {
    std::string text;
    std::vector<std::string> remarks;
};

struct EmitOptions {
    // piccl-env: the message size to write variables for (PICCL takes one algorithm per
    // collective for the whole run); 0 = the sweep's only size.
    std::uint64_t piccl_bytes = 0;
    // mpich-json: a complete MPICH tuning file (its name and text) into which the allgather and
    // allreduce entries are merged; empty = write only those two entries.
    std::string mpich_base;
    std::string mpich_base_text;
    // mpich-json: the MPICH series to write for ("4.0" ... "4.3", or a release such as "4.0.2");
    // empty = the newest known. `mpich_version_origin` says why, for the remark (e.g. "detected
    // from mpichversion").
    std::string mpich_version;
    std::string mpich_version_origin;
};

// MPICH series mpich-json can be written for ("4.0" ... "4.3"), oldest first, and the series of a
// release number such as "4.0.2" (empty when it is none of them).
std::vector<std::string_view> mpich_series_known();
std::string mpich_series(std::string_view release);

// Throws InputError, before any simulation, when `kind` cannot be written for a sweep of these
// collectives, `scales` scales and these sizes (piccl-env: one scale, one size; the tuning files:
// check_tuned_collectives()).
void check_emit(EmitKind kind, std::span<const Collective> collectives, std::size_t scales,
                const std::vector<std::uint64_t>& sizes, const EmitOptions& options);
// The tuning files (mpich-json, openmpi-rules, piccl-env) are written for Allgather and Allreduce
// only: for any other collective they throw InputError, one line naming the emitter, the
// collectives and what it writes, rather than leave rows out. The other kinds take every one.
void check_tuned_collectives(EmitKind kind, std::span<const Collective> collectives);

// Human-readable: one table per collective and scale.
std::string emit_table(const SelectResult& result);
// One row per (collective, scale, size, algorithm): best k, time, speedup, whether it won.
std::string emit_csv(const SelectResult& result);
// Everything, including every simulated k with its time.
std::string emit_json(const SelectResult& result);
std::string emit_yaml(const SelectResult& result);
// MPICH's MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE; see emit_mpich_json.cpp for the mapping.
Emitted emit_mpich_json(const SelectResult& result, const EmitOptions& options);
// Open MPI's coll_tuned dynamic rules file (coll_tuned_dynamic_rules_filename); see
// emit_openmpi_rules.cpp for the format and the algorithm numbers.
Emitted emit_openmpi_rules(const SelectResult& result);
// PICCL_<COLL>_ALGO / PICCL_<COLL>_K lines for one scale and one message size (check_emit()).
Emitted emit_piccl_env(const SelectResult& result, const EmitOptions& options);

// Dispatch on kind.
Emitted emit(EmitKind kind, const SelectResult& result, const EmitOptions& options = {});

}  // namespace piccolo
