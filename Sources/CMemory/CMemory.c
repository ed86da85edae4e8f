#define _GNU_SOURCE
#include "CMemory.h"

#include <stdlib.h>
#include <sys/mman.h>

void *appshell_allocate(size_t size, bool huge) {
  const size_t hugePage = (size_t)2 << 20;
  size_t alignment = huge ? hugePage : 64;
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  void *pointer = NULL;
  if (posix_memalign(&pointer, alignment, rounded) != 0) return NULL;
#ifdef MADV_HUGEPAGE
  // Only a hint: without transparent huge pages the memory stays on ordinary pages.
  if (huge) (void)madvise(pointer, rounded, MADV_HUGEPAGE);
#endif
  return pointer;
}

void appshell_free(void *pointer) { free(pointer); }
