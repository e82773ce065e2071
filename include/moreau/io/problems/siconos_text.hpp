#pragma once
// Readers for the Siconos-numerics text files of LCP and MLCP problems
// (/work/shared/data/siconos-numerics/{lcp,mlcp}/; the layouts of Siconos'
// linearComplementarity_newFromFile and mixedLinearComplementarity_newFromFile).
//
// LCP file:   n, then a NumericsMatrix, then q (n numbers); anything after q is ignored
//             (the files end with comments). NumericsMatrix = storage type, size0, size1, then
//             storage 0 (dense): "size0 size1" and size0·size1 numbers in COLUMN-MAJOR order;
//             storage 1 (sparse block, SBM): block counts, cumulative block sizes, the
//             compressed-row block index arrays and each block (its number, then its entries
//             column-major). Storage 2 (CSparse) is refused with a clear error.
// MLCP file:  isStorageType1, isStorageType2, n (equalities), m (complementarities);
//             storage 1: block row bounds (ending at n + m), block kinds (0 equality,
//             1 complementarity), a NumericsMatrix M and q (size1 numbers);
//             storage 2: A (n×n), B (m×m), C (n×m), D (m×n) each ROW by row, then a (n), b (m).
//             The blocks of storage 2 are used when present; a file with storage 1 only is
//             accepted when M is (n+m)×(n+m) with blocks [0, n) equality, [n, n+m)
//             complementarity; other layouts are refused naming the file.
// Every error is std::invalid_argument naming the file, the line and what is wrong; truncated
// or garbage input never crashes.
#include <string>

#include "moreau/problems/lcp.hpp"
#include "moreau/problems/mlcp.hpp"

namespace moreau {

// Reads an LCP (M, q) from a Siconos numerics text file (format above).
Lcp read_siconos_lcp(const std::string& path);
// Reads an MLCP from a Siconos numerics text file (format above).
Mlcp read_siconos_mlcp(const std::string& path);

}  // namespace moreau
