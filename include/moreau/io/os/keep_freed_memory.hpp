#pragma once
// The allocator setting of a process that reads a problem and then solves it once (`moreau solve`,
// and Siconos' side of the same comparison in bench/fclib.cpp, so that both run with it).

namespace moreau {

// Keeps the memory that freed blocks held for the process's later allocations (glibc's malloc;
// nothing elsewhere): a block above the mmap threshold (128 KB) is otherwise mapped afresh and
// unmapped when freed, and the heap's free top above the trim threshold (128 KB) handed back to
// the kernel, so that what a solve allocates after a file's read lands on pages never touched,
// each a page fault on its first write (3–4 µs on a 2-core VM; the first solve of NESpheres_30_1
// went from 29 to 23 µs with the memory kept, median of 11 processes). Both thresholds are set
// to 1 GiB: for one short process, whose memory is returned when it ends.
void keep_freed_memory();

}  // namespace moreau
