// The handout of a batch's jobs (job_dispatch.hpp).
#include "job_dispatch.hpp"

namespace piccolo::mpi_sweep {

std::int64_t JobDispatch::next(std::uint64_t room) {
    while (first_left_ < handed_.size() && handed_[first_left_]) ++first_left_;
    if (first_left_ == handed_.size()) return no_more;
    for (std::size_t i = first_left_; i < handed_.size(); ++i)
        if (!handed_[i] && estimates_[i] <= room) {
            handed_[i] = true;
            return static_cast<std::int64_t>(i);
        }
    return none_fits;
}

}  // namespace piccolo::mpi_sweep
