#pragma once
// FCLIB HDF5 files (Acary, Brémond, Koziara, Pérignon, "FCLIB: a collection of discrete 3D
// frictional contact problems", INRIA RT-0444, 2014; the fclib 3.x HDF5 layout).
//
//   local  /fclib_local:   u = W r + q                       (W m×m, m = d·nc)
//   global /fclib_global:  M v = H r + f,   u = Hᵀ v + w      (M n×n, H n×m)
// with K*_μ ∋ û = u + [μ‖u_T‖, 0, 0] ⟂ r ∈ K_μ at every contact, normal first.
// Optional groups /guesses/{number_of_guesses, 1/{r,u[,v]}, ...} and /solution/{r,u[,v]}.
// Matrices are sparse groups {m, n, nz, nzmax, p, i, x}: nz = −1 CSC, nz = −2 CSR, nz ≥ 0 triplet
// (i = row, p = column as Siconos writes them). The files are read with the HDF5 C API and every
// dataset is checked before use, so a malformed file is an exception, never a crash.
//
// Errors: std::invalid_argument for a file that is missing or not a valid FCLIB problem (the
// message names the file and what is wrong), std::runtime_error when writing fails.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "moreau/problems/friction_contact.hpp"

namespace moreau {

// /fclib_*/info: free text describing the problem.
struct FclibInfo {
  std::string title;        // info/title (empty when the file has none)
  std::string description;  // info/description (empty when absent)
  std::string math_info;    // info/math_info: notes on the mathematical form (empty when absent)
};

// A guess or a solution stored with the problem. v is empty for local problems.
// Note: in Siconos-generated files /solution/r is all zeros (data README): treat it as data.
struct FclibSolution {
  Vector r;  // d·nc, contact impulses
  Vector u;  // d·nc, local velocities
  Vector v;  // n, global velocities (global problems only)
};

// Which FCLIB problem a file holds: local (W, q, μ) or global (M, H, f, w, μ).
enum class FclibForm { local, global };

// Everything an FCLIB file holds. Exactly one of local / global is meaningful (see form).
struct FclibFile {
  FclibForm form = FclibForm::local;      // which of local / global the file holds
  FrictionContactProblem local;           // when form == local
  GlobalFrictionContactProblem global;    // when form == global
  FclibInfo info;                         // /fclib_*/info
  std::vector<FclibSolution> guesses;     // /guesses/1 … /guesses/N
  std::optional<FclibSolution> solution;  // /solution, when the file has one

  // True when the file holds a global problem (form == global).
  bool is_global() const { return form == FclibForm::global; }
  // d, the contact dimension (2 or 3) of the problem held.
  int dimension() const { return is_global() ? global.dimension : local.dimension; }
  // nc, the number of contacts of the problem held.
  Index contacts() const { return is_global() ? global.contacts() : local.contacts(); }
};

// Reads a local or global problem with its info, guesses and solution.
// Rolling-friction files (/fclib_global_rolling, spacedim 5) are rejected as not supported.
FclibFile read_fclib(const std::filesystem::path& path);
// Read a problem of the given form; the other form is an std::invalid_argument.
FrictionContactProblem read_fclib_local(const std::filesystem::path& path);
// Reads a global problem (M, H, f, w, μ); a local one is an std::invalid_argument.
GlobalFrictionContactProblem read_fclib_global(const std::filesystem::path& path);

// Writes the problem (and optional solution, guess, info) atomically: a temporary file in the
// same folder, renamed onto `path` once complete. Matrices are written CSC (nz = −1). The problem
// and the vectors' sizes are validated first (std::invalid_argument).
void write_fclib_local(const std::filesystem::path& path, const FrictionContactProblem& problem,
                       const std::optional<FclibSolution>& solution = std::nullopt,
                       const std::optional<FclibSolution>& guess = std::nullopt,
                       const FclibInfo& info = {});
// Writes a global problem, with an optional solution and guess, to an FCLIB HDF5 file.
void write_fclib_global(const std::filesystem::path& path,
                        const GlobalFrictionContactProblem& problem,
                        const std::optional<FclibSolution>& solution = std::nullopt,
                        const std::optional<FclibSolution>& guess = std::nullopt,
                        const FclibInfo& info = {});
// Writes everything a FclibFile holds (all guesses).
void write_fclib(const std::filesystem::path& path, const FclibFile& file);

}  // namespace moreau
