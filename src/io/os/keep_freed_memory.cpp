#include "moreau/io/os/keep_freed_memory.hpp"

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace moreau {

void keep_freed_memory() {
#ifdef __GLIBC__
  constexpr int kOneGiB = 1 << 30;
  mallopt(M_MMAP_THRESHOLD, kOneGiB);
  mallopt(M_TRIM_THRESHOLD, kOneGiB);
#endif
}

}  // namespace moreau
