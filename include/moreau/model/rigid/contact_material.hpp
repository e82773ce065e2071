#pragma once
// Contact parameters of a pair of bodies or of an explicit contact pair (docs/scene-format.md
// §contact).
#include <string>

#include "moreau/model/vocabulary.hpp"

namespace moreau {

// Per-pair contact parameters (docs/scene-format.md §contact).
struct ContactMaterial {
  double mu = 0.0;                    // Coulomb friction coefficient, ≥ 0
  double restitution = 0.0;           // normal restitution e ∈ [0, 1]
  ImpactLaw law = ImpactLaw::newton;  // impact law (its rules: sim/impact_law.hpp)
  double gamma = 0.0;  // velocity-level softening γ ≥ 0 (0 ≤ ġ + γλ ⊥ λ ≥ 0)
  double alpha = 0.0;  // Baumgarte α ≥ 0 (g̈ + 2α ġ + β² g)
  double beta = 0.0;   // Baumgarte β ≥ 0
  // Throws std::invalid_argument naming `where` for μ < 0, e ∉ [0, 1], γ, α, β < 0 or NaN.
  void validate(const std::string& where) const;
};

}  // namespace moreau
