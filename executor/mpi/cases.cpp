#include "cases.hpp"

#include <fmt/format.h>
#include <functional>
#include <optional>

#include "piccolo/core/error.hpp"
#include "piccolo/executor/data.hpp"
#include "piccolo/schedules/verify.hpp"
#include "runner.hpp"
#include "timing.hpp"

namespace piccolo::exec {

namespace {

MPI_Datatype mpi_type(Element element) {
    return element == Element::f64   ? MPI_DOUBLE
           : element == Element::f32 ? MPI_FLOAT
                                     : MPI_UNSIGNED_CHAR;
}

Row run_checked(const Context& context, const Schedule& schedule, const RunOptions& options);

}  // namespace

Row run_schedule(const Context& context, const Schedule& schedule, const RunOptions& options) {
    try {
        return run_checked(context, schedule, options);
    } catch (const RankError& e) {
        throw RankError(e.rank, e.status, fmt::format("{}: {}", case_label(schedule), e.what()));
    }
}

namespace {

Row run_checked(const Context& context, const Schedule& schedule, const RunOptions& options) {
    RankPlan plan;
    std::optional<MpiRunner> runner;
    agree(context, [&] {
        if (schedule.shape.ranks != context.size)
            throw InputError(
                fmt::format("the schedule is for {} ranks but {} are running; start "
                            "it with mpirun -n {}",
                            schedule.shape.ranks, context.size, schedule.shape.ranks));
        std::vector<TaskId> order;
        if (auto v = verify_structure(schedule, order))
            throw InputError(fmt::format("the schedule is malformed: {}", v->message));
        const Element element = choose_element(schedule.shape, options.element);
        plan = compile_plan(schedule, order, context.rank, element);
        runner.emplace(plan, context.comm);
    });
    std::vector<std::byte> arena(plan.arena_bytes);
    const Images images = make_images(schedule.shape, plan.element, context.rank);
    const TimedOperation op{[&] { prepare(plan, images, arena); }, [&] { runner->run(arena); },
                            [&] { return check_result(plan, images, arena); }};
    return timed_schedule_row(context, schedule, plan, options.timing, op);
}

}  // namespace

namespace {

// The element type of a library reference call, agreed on by every rank; a size past what one
// MPI call counts is refused.
Element reference_element(const Context& context, const CollectiveShape& shape,
                          std::uint64_t bytes, const RunOptions& options) {
    Element element = Element::u8;
    agree(context, [&] {
        element = choose_element(shape, options.element);
        if (bytes > std::uint64_t{INT32_MAX})
            throw InputError(
                fmt::format("--sizes: {} bytes is more than one MPI call counts", bytes));
    });
    return element;
}

// MPI_Bcast or MPI_Reduce of the whole buffer from or to --root, checked where the result lands.
Row run_rooted_reference(const Context& context, Collective collective, std::uint64_t bytes,
                         const RunOptions& options) {
    const CollectiveShape shape{collective, context.size, bytes, 1U, options.root};
    const bool bcast = collective == Collective::bcast;
    const Element element = reference_element(context, shape, bytes, options);
    const Images images = make_images(shape, element, context.rank);
    const bool root = context.rank == options.root;
    std::vector<std::byte> result(images.expected.size());
    const auto count = static_cast<int>(bcast ? bytes : bytes / element_bytes(element));
    const char* name = bcast ? "MPI_Bcast" : "MPI_Reduce";
    const TimedOperation op{
        [&] {
            if (bcast && root)
                std::copy(images.input.begin(), images.input.end(), result.begin());
            else
                std::fill(result.begin(), result.end(), poison);
        },
        [&] {
            if (bcast)
                MPI_Bcast(result.data(), count, MPI_BYTE, options.root, context.comm);
            else
                MPI_Reduce(images.input.data(), result.data(), count, mpi_type(element), MPI_SUM,
                           options.root, context.comm);
        },
        [&]() -> std::optional<std::string> {
            if (!bcast && !root) return std::nullopt;  // a Reduce's result is the root's alone
            for (std::size_t i = 0; i < result.size(); ++i)
                if (result[i] != images.expected[i])
                    return fmt::format("rank {}: the MPI library's {} got byte {} wrong",
                                       context.rank, name, i);
            return std::nullopt;
        }};
    Row row{std::string(to_string(collective)), name, 0, "library", bytes,
            std::string(to_string(element))};
    fill(row, timed(context, options.timing, op));
    return row;
}

}  // namespace

Row run_reference(const Context& context, Collective collective, std::uint64_t bytes,
                  const RunOptions& options) {
    if (collective == Collective::bcast || collective == Collective::reduce)
        return run_rooted_reference(context, collective, bytes, options);
    const bool gather = collective == Collective::allgather;
    const CollectiveShape shape{collective, context.size, bytes,
                                collective == Collective::allreduce
                                    ? 1U
                                    : pieces_of(collective, context.size)};
    const Element element = reference_element(context, shape, bytes, options);
    const Images images = make_images(shape, element, context.rank);
    // Reduce_scatter: the rank's block of the summed vector is what it gets.
    const bool scatter = collective == Collective::reduce_scatter;
    const std::uint64_t want_from = scatter ? bytes * static_cast<std::uint64_t>(context.rank) : 0;
    std::vector<std::byte> result(scatter ? bytes : images.expected.size());
    const auto count = static_cast<int>(moves_blocks(collective) ? bytes
                                                                  : bytes / element_bytes(element));
    const std::byte* mine = images.input.data() + (gather ? bytes * context.rank : 0);
    const std::string_view call = collective == Collective::allgather   ? "MPI_Allgather"
                                  : collective == Collective::allreduce ? "MPI_Allreduce"
                                  : scatter                             ? "MPI_Reduce_scatter_block"
                                                                        : "MPI_Alltoall";
    const TimedOperation op{
        [&] { std::fill(result.begin(), result.end(), poison); },
        [&] {
            if (gather)
                MPI_Allgather(mine, count, MPI_BYTE, result.data(), count, MPI_BYTE, context.comm);
            else if (collective == Collective::alltoall)
                MPI_Alltoall(mine, count, MPI_BYTE, result.data(), count, MPI_BYTE, context.comm);
            else if (scatter)
                MPI_Reduce_scatter_block(mine, result.data(), count, mpi_type(element), MPI_SUM,
                                         context.comm);
            else
                MPI_Allreduce(mine, result.data(), count, mpi_type(element), MPI_SUM, context.comm);
        },
        [&]() -> std::optional<std::string> {
            for (std::size_t i = 0; i < result.size(); ++i)
                if (result[i] != images.expected[want_from + i])
                    return fmt::format("rank {}: the MPI library's {} got byte {} wrong",
                                       context.rank, call, i);
            return std::nullopt;
        }};
    Row row{std::string(to_string(collective)),
            std::string(call),
            0,
            "library",
            bytes,
            std::string(to_string(element))};
    fill(row, timed(context, options.timing, op));
    return row;
}

}  // namespace piccolo::exec
