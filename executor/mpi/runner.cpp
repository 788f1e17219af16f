#include "runner.hpp"

#include <fmt/format.h>
#include <climits>
#include <stdexcept>

#include "piccolo/core/error.hpp"
#include "piccolo/executor/data.hpp"

namespace piccolo::exec {

RequestList::~RequestList() {
    for (MPI_Request& r : requests_) {
        if (r == MPI_REQUEST_NULL) continue;
        MPI_Cancel(&r);
        MPI_Request_free(&r);
    }
}

MPI_Request* RequestList::add(std::uint32_t op) {
    requests_.push_back(MPI_REQUEST_NULL);
    owner_.push_back(op);
    return &requests_.back();
}

void RequestList::wait_some(std::vector<std::uint32_t>& done) {
    indices_.resize(requests_.size());
    int count = 0;
    MPI_Waitsome(static_cast<int>(requests_.size()), requests_.data(), &count, indices_.data(),
                 MPI_STATUSES_IGNORE);
    if (count == MPI_UNDEFINED)
        throw std::logic_error("executor: nothing in flight and nothing ready (plan deadlock)");
    for (int i = 0; i < count; ++i) done.push_back(owner_[static_cast<std::size_t>(indices_[i])]);
    // Completed requests are MPI_REQUEST_NULL now; dropping them keeps Waitsome's scan short.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < requests_.size(); ++i) {
        if (requests_[i] == MPI_REQUEST_NULL) continue;
        requests_[kept] = requests_[i];
        owner_[kept] = owner_[i];
        ++kept;
    }
    requests_.resize(kept);
    owner_.resize(kept);
}

MpiRunner::MpiRunner(const RankPlan& plan, MPI_Comm comm) : plan_(plan), comm_(comm) {
    for (const LocalOp& op : plan.ops)
        if (op.bytes > static_cast<std::uint64_t>(INT_MAX))
            throw InputError(
                fmt::format("task id={}: {} bytes in one message is more than one MPI "
                            "call can count (2^31 - 1); use a smaller size",
                            op.task, op.bytes));
    ready_.reserve(plan.ops.size());
    done_.reserve(plan.ops.size());
}

void MpiRunner::run(std::span<std::byte> arena) {
    waits_ = plan_.waits;
    ready_.assign(plan_.ready_at_start.begin(), plan_.ready_at_start.end());
    left_ = plan_.ops.size();
    for (std::uint32_t i = 0; i < plan_.ops.size(); ++i) {
        const LocalOp& op = plan_.ops[i];
        if (op.kind != OpKind::recv) continue;
        MPI_Irecv(arena.data() + op.offset, static_cast<int>(op.bytes), MPI_BYTE, op.peer, op.tag,
                  comm_, requests_.add(i));
    }
    std::size_t next = 0;
    while (left_ > 0) {
        while (next < ready_.size()) start(ready_[next++], arena);
        if (left_ == 0) break;
        done_.clear();
        requests_.wait_some(done_);
        for (std::uint32_t i : done_) {
            const LocalOp& op = plan_.ops[i];
            if (op.kind == OpKind::recv) apply_copies(op.copies, arena);  // unpack a staged message
            complete(i);
        }
    }
}

void MpiRunner::start(std::uint32_t i, std::span<std::byte> arena) {
    const LocalOp& op = plan_.ops[i];
    apply_copies(op.copies, arena);  // send: pack; compute: its copies (permute, copy)
    if (op.kind == OpKind::send) {
        auto* send = op.synchronous ? MPI_Issend : MPI_Isend;
        send(arena.data() + op.offset, static_cast<int>(op.bytes), MPI_BYTE, op.peer, op.tag, comm_,
             requests_.add(i));
        return;
    }
    apply_reduces(op.reduces, plan_.element, arena);
    complete(i);
}

void MpiRunner::complete(std::uint32_t i) {
    --left_;
    for (std::uint32_t succ : plan_.successors.row(i))
        if (--waits_[succ] == 0) ready_.push_back(succ);
}

}  // namespace piccolo::exec
