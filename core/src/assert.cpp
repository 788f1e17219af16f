#include "piccolo/core/assert.hpp"

#include <cstdio>
#include <cstdlib>

namespace piccolo::detail {

void assertion_failed(const char* condition, const char* file, int line) {
    std::fprintf(stderr, "piccolo: internal error: PICCOLO_ASSERT(%s) failed at %s:%d\n",
                 condition, file, line);
    std::abort();
}

}  // namespace piccolo::detail
