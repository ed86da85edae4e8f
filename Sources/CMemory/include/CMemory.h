// Memory hints for the router's index: Swift has no prefetch instruction of its own, and
// its allocator does not ask for huge pages.
#ifndef APPSHELL_CMEMORY_H
#define APPSHELL_CMEMORY_H

#include <stdbool.h>
#include <stddef.h>

/// Asks the CPU to start loading the cache line at `address` for reading; never faults.
static inline __attribute__((always_inline)) void appshell_prefetch(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

/// Allocates `size` bytes, 64-byte aligned; when `huge`, aligned to 2 MiB and backed by huge
/// pages where the kernel allows (fewer TLB misses on a big index). NULL when out of memory.
void *appshell_allocate(size_t size, bool huge);

/// Frees memory from `appshell_allocate` (NULL is allowed).
void appshell_free(void *pointer);

#endif
