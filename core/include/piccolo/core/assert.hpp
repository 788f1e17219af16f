#pragma once
// PICCOLO_ASSERT(condition): an internal invariant, checked where checks are on and compiled out
// elsewhere. On: builds without NDEBUG (the debug preset) and builds configured with
// -DPICCOLO_ASSERTIONS=ON (the asan preset), which defines PICCOLO_ENABLE_ASSERTS. Off: the
// release build, where the condition is not evaluated (it must have no side effects). A failed
// check prints the condition and its place to stderr and aborts. Not for user input: that is an
// InputError (error.hpp).

namespace piccolo::detail {

[[noreturn]] void assertion_failed(const char* condition, const char* file, int line);

}  // namespace piccolo::detail

#if !defined(NDEBUG) || defined(PICCOLO_ENABLE_ASSERTS)
#define PICCOLO_ASSERTS_ON 1
#define PICCOLO_ASSERT(condition)                                                   \
    ((condition) ? static_cast<void>(0)                                             \
                 : ::piccolo::detail::assertion_failed(#condition, __FILE__, __LINE__))
#else
#define PICCOLO_ASSERTS_ON 0
// sizeof: the condition is still compiled (names stay used, typos still fail) but never runs.
#define PICCOLO_ASSERT(condition) static_cast<void>(sizeof(static_cast<bool>(condition)))
#endif
