// The machine description from a profile fit: one level per measured level (unmeasured ones copy
// the nearest table), radices, execution style, the node's internal capacity, compute costs.
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "piccolo/core/error.hpp"
#include "piccolo/profiler/fit.hpp"
#include "piccolo/topologies/machine_io.hpp"

namespace piccolo::profiler {
namespace {

// The transport line of the samples, e.g. "MPI (Open MPI v4.1.4)", or "".
std::string transport_of(const RawData& raw) {
    for (const auto& [key, value] : raw.info)
        if (key == "transport") return value;
    return {};
}

// How the measured ranks execute, beyond their LogGP tables. MPI ranks are processes on cores:
// one processor carries o_s and o_r (overhead: cpu) and collectives run MPI-style. NCCL ranks are
// GPUs whose copy engines send and receive at once (offload) under grouped NCCL calls.
void describe_style(const RawData& raw, Machine& machine) {
    const std::string transport = transport_of(raw);
    if (transport.starts_with("MPI")) {
        machine.style = Style::mpi;
        for (Level& level : machine.levels) level.overhead = OverheadModel::cpu;
    } else if (transport.starts_with("NCCL")) {
        machine.style = Style::nccl;
    }
}

// A level gets an internal capacity only from its concurrent probe, and only when transfers
// started together between distinct rank pairs fell clearly short of independent ones: then
// they share a bandwidth (a memory bus, an NVSwitch) and the plateau is it, under fair sharing.
// One pair's transfers queuing behind each other (the device radix probe) say nothing about
// transfers between other ranks, which a VM runs on cores of their own at full speed.
void describe_capacity(const ProfileFit& fit, Machine& machine,
                       const std::function<void(std::string)>& note) {
    for (const auto& c : fit.concurrency) {
        const auto level = std::find_if(machine.levels.begin(), machine.levels.end(),
                                        [&](const Level& l) { return l.name == c.level; });
        if (level == machine.levels.end()) {
            note(fmt::format("concurrent probe of level {}: no such level; ignored", c.level));
            continue;
        }
        const double alone = c.throughput.front() / 1e9;
        const double together = c.throughput.back() / 1e9;
        if (!c.shared) {
            note(
                fmt::format("level {}: no capacity: {} concurrent transfers of {} B reached "
                            "{:.2f} GB/s, {:.0f} % of {} x {:.2f} GB/s (one alone)",
                            c.level, c.transfers.back(), c.bytes, together, c.scaling * 100,
                            c.transfers.back(), alone));
            continue;
        }
        level->capacity = c.capacity;
        machine.sharing = Sharing::fair;
        note(
            fmt::format("level {}: capacity {:.2f} GB/s shared fairly: {} concurrent transfers "
                        "of {} B reached {:.2f} GB/s, {:.0f} % of {} x {:.2f} GB/s (one alone)",
                        c.level, c.capacity / 1e9, c.transfers.back(), c.bytes, together,
                        c.scaling * 100, c.transfers.back(), alone));
    }
}

}  // namespace

Machine to_machine(const RawData& raw, const ProfileFit& fit, std::vector<std::string>* notes) {
    Machine machine;
    machine.name = raw.machine_name.empty() ? "measured" : raw.machine_name;
    machine.description = raw.description;
    // The fanouts come from the '# level:' lines alone: without them there is no machine.
    if (raw.levels.empty()) {
        throw InputError(fmt::format(
            "no '# level: NAME FANOUT' header lines; the machine's fanouts come from them (add "
            "one per level, innermost first, as the profilers write them: e.g. '# level: {} 4' "
            "and '# level: system 0')",
            fit.levels.empty() ? "node" : fit.levels.front().level));
    }
    const std::vector<LevelInfo>& infos = raw.levels;
    auto note = [&](std::string text) {
        if (notes != nullptr) notes->push_back(std::move(text));
    };
    auto measured = [&](const std::string& name) -> const LevelFit* {
        for (const auto& l : fit.levels) {
            if (l.level == name) return &l;
        }
        return nullptr;
    };
    for (std::size_t i = 0; i < infos.size(); ++i) {
        Level level;
        level.name = infos[i].name;
        level.fanout = infos[i].fanout;
        const LevelFit* source = measured(level.name);
        // Nearest measured level, inner ones first: a single-node run still yields a usable
        // (if optimistic) system level.
        for (std::size_t d = 1; source == nullptr && d < infos.size(); ++d) {
            if (i >= d && (source = measured(infos[i - d].name)) != nullptr) break;
            if (i + d < infos.size()) source = measured(infos[i + d].name);
        }
        if (source == nullptr) {
            throw InputError(fmt::format("no level of machine '{}' was measured", machine.name));
        }
        if (source->level != level.name) {
            note(
                fmt::format("level {}: not measured (no rank pair had it as lowest common level); "
                            "table copied from level {}",
                            level.name, source->level));
        }
        level.loggp = LogGPTable(source->rows);
        for (const auto& r : fit.radices) {
            if (r.scope == level.name) level.radix = r.knee;
        }
        machine.levels.push_back(std::move(level));
    }
    for (const auto& r : fit.radices) {
        if (r.scope == "device") machine.device_radix = r.knee;
    }
    describe_style(raw, machine);
    describe_capacity(fit, machine, note);
    for (const ReclaimFit& r : fit.reclaims) {
        for (Level& level : machine.levels)
            if (level.name == r.level) level.reclaim_per_byte = r.seconds_per_byte;
    }
    for (const auto& c : fit.compute) {
        if (c.kind == "reduce") machine.compute.reduce_per_byte = c.seconds_per_byte;
        if (c.kind == "copy") {
            machine.compute.copy_per_byte = c.seconds_per_byte;
            machine.compute.permute_per_byte = c.seconds_per_byte;
            note("compute: permute priced as a copy (no permutation kernel on CPU ranks)");
        }
    }
    // What is written must load again: the same checks as any machine file.
    validate_machine(machine);
    return machine;
}

}  // namespace piccolo::profiler
