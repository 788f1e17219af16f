#include "give_up.hpp"

#include <fmt/format.h>

#include "piccolo/core/error.hpp"

namespace piccolo::detail {

SimResult GiveUp::stopped_at(SimTime time) {
    if (time > max_time) throw_too_long();
    SimResult result;
    result.makespan = to_seconds(time);
    result.gave_up = true;
    return result;
}

void GiveUp::throw_too_long() {
    throw InputError(
        fmt::format("this run lasts longer than simulated time can count ({} s at femtosecond "
                    "resolution); simulate fewer ranks or smaller messages",
                    max_seconds));
}

}  // namespace piccolo::detail
