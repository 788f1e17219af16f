// piccolo's programs replace the global `operator new` so that large blocks are backed by
// transparent huge pages. A schedule of 75,264 ranks keeps hundreds of MiB in a few arrays (its
// per-task columns and dependency lists, the engine's per-task state); on 4 KiB pages each 4 KiB
// costs a page fault on first touch and a TLB entry on every pass, and on a virtual machine both
// are dear (tools/bench/history.md, "Huge pages": the every-k sweep of 75,264 ranks spends a
// fifth of its time there). Where the kernel's THP mode is `madvise` only blocks advised with
// MADV_HUGEPAGE get huge pages; under `always` the advice changes nothing, under `never` the
// kernel ignores it. glibc's own switch (GLIBC_TUNABLES=glibc.malloc.hugetlb=1) is read from the
// environment at start-up only, so a program cannot turn it on for itself.
//
// The replacement is the default one (malloc, std::bad_alloc when it fails, as libstdc++'s) plus
// the advice; the default operator delete frees it, and the array and nothrow forms call it.
// Sanitizer builds keep their runtime's operator new, which tracks how each block was allocated.
#include <sys/mman.h>
#include <unistd.h>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PICCOLO_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PICCOLO_SANITIZED 1
#endif

#ifndef PICCOLO_SANITIZED

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;  // x86-64 and arm64's usual THP size

// The pages wholly inside the block; madvise wants a page-aligned start, and a failure (no THP
// in this kernel) leaves the block as it was.
void advise_huge_pages(void* block, std::size_t bytes) {
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto begin = (reinterpret_cast<std::uintptr_t>(block) + page - 1) / page * page;
    const auto end = (reinterpret_cast<std::uintptr_t>(block) + bytes) / page * page;
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // NOLINT
}

}  // namespace

void* operator new(std::size_t bytes) {
    void* block = std::malloc(bytes == 0 ? 1 : bytes);
    if (block == nullptr) throw std::bad_alloc();
    if (bytes >= kHugePage) advise_huge_pages(block, bytes);
    return block;
}

#endif
