#include "moreau/model/rigid/visual.hpp"

#include "moreau/common/error.hpp"

namespace moreau {

void Visual::validate(const std::string& where, int dimension) const {
  MOREAU_REQUIRE(shape.kind != ShapeKind::plane, "{}: a plane cannot be a visual", where);
  if (mesh.empty()) {
    shape.validate(where, dimension);
  } else {
    MOREAU_REQUIRE(
        all_finite(shape.offset.position) && all_finite(shape.offset.orientation.coeffs()),
        "{}: the mesh's pose must be finite", where);
    MOREAU_REQUIRE(all_finite(scale) && (scale.array() > 0.0).all(),
                   "{}.scale = [{}]: must be positive and finite", where, fmt::join(scale, ", "));
  }
  if (!has_color()) return;
  for (double c : rgba)
    MOREAU_REQUIRE(c >= 0.0 && c <= 1.0, "{}.rgba = [{}]: each must be in [0, 1]", where,
                   fmt::join(rgba, ", "));
}

}  // namespace moreau
