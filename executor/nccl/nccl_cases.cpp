#include "nccl_cases.hpp"

#include <fmt/format.h>

#include <optional>

#include "piccolo/core/error.hpp"
#include "piccolo/executor/data.hpp"
#include "piccolo/schedules/verify.hpp"

namespace piccolo::exec {

namespace {

ncclDataType_t nccl_type(Element element) {
    return element == Element::f64   ? ncclFloat64
           : element == Element::f32 ? ncclFloat32
                                     : ncclUint8;
}

Row checked_schedule(const Context& context, const NcclSession& session, const Schedule& schedule,
                     const RunOptions& options) {
    RankPlan plan;
    std::vector<Wave> waves;
    agree(context, [&] {
        if (schedule.shape.ranks != context.size)
            throw InputError(fmt::format(
                "the schedule is for {} ranks but {} are running; start it with mpirun -n {}",
                schedule.shape.ranks, context.size, schedule.shape.ranks));
        std::vector<TaskId> order;
        if (auto v = verify_structure(schedule, order))
            throw InputError(fmt::format("the schedule is malformed: {}", v->message));
        plan = compile_plan(schedule, order, context.rank,
                            choose_element(schedule.shape, options.element));
        waves = plan_waves(plan, task_levels(schedule, order));
    });
    NcclRunner runner(plan, std::move(waves), session);
    DeviceBuffer arena(plan.arena_bytes);
    std::vector<std::byte> host(plan.arena_bytes);
    const Images images = make_images(schedule.shape, plan.element, context.rank);
    const TimedOperation op{[&] {
                                prepare(plan, images, host);
                                arena.upload(host, session.stream());
                            },
                            [&] { runner.run(arena); },
                            [&] {
                                arena.download(host, session.stream());
                                return check_result(plan, images, host);
                            }};
    return timed_schedule_row(context, schedule, plan, options.timing, op);
}

}  // namespace

Row run_nccl_schedule(const Context& context, const NcclSession& session, const Schedule& schedule,
                      const RunOptions& options) {
    try {
        return checked_schedule(context, session, schedule, options);
    } catch (const RankError& e) {
        throw RankError(e.rank, e.status, fmt::format("{}: {}", case_label(schedule), e.what()));
    }
}

Row run_nccl_reference(const Context& context, const NcclSession& session, Collective collective,
                       std::uint64_t bytes, const RunOptions& options) {
    if (collective != Collective::allgather && collective != Collective::allreduce)
        throw InputError(
            fmt::format("-c/--collective: the NCCL reference times Allgather and "
                        "Allreduce only; run {} with --no-reference",
                        to_string(collective)));
    const bool gather = collective == Collective::allgather;
    const CollectiveShape shape{collective, context.size, bytes,
                                gather ? static_cast<std::uint32_t>(context.size) : 1U};
    Element element = Element::u8;
    agree(context, [&] { element = choose_element(shape, options.element); });
    const Images images = make_images(shape, element, context.rank);
    const std::size_t in_bytes = gather ? bytes : images.input.size();
    DeviceBuffer input(in_bytes), result(images.expected.size());
    input.upload(std::span(images.input).subspan(gather ? bytes * context.rank : 0, in_bytes),
                 session.stream());
    std::vector<std::byte> host(images.expected.size());
    const std::size_t count = gather ? bytes : bytes / element_bytes(element);
    const TimedOperation op{
        [&] {
            std::fill(host.begin(), host.end(), poison);
            result.upload(host, session.stream());
        },
        [&] {
            check_nccl(gather
                           ? ncclAllGather(input.data(), result.data(), count, ncclUint8,
                                           session.comm(), session.stream())
                           : ncclAllReduce(input.data(), result.data(), count, nccl_type(element),
                                           ncclSum, session.comm(), session.stream()),
                       gather ? "ncclAllGather" : "ncclAllReduce");
            check_cuda(cudaStreamSynchronize(session.stream()), "cudaStreamSynchronize");
        },
        [&]() -> std::optional<std::string> {
            result.download(host, session.stream());
            for (std::size_t i = 0; i < host.size(); ++i)
                if (host[i] != images.expected[i])
                    return fmt::format("rank {}: NCCL's {} got byte {} wrong", context.rank,
                                       gather ? "ncclAllGather" : "ncclAllReduce", i);
            return std::nullopt;
        }};
    Row row{std::string(to_string(collective)),
            gather ? "ncclAllGather" : "ncclAllReduce",
            0,
            "library",
            bytes,
            std::string(to_string(element))};
    fill(row, timed(context, options.timing, op));
    return row;
}

}  // namespace piccolo::exec
