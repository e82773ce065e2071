#pragma once
// What the viewer draws of a body (docs/scene-format.md §Visuals): a URDF link's <visual>, a
// mesh file drawn as its triangles or a primitive shape, in a colour. Visuals have no mass and
// never collide; a body without any is drawn by its collision shapes.
#include <array>
#include <limits>
#include <string>

#include "moreau/model/rigid/shape.hpp"

namespace moreau {

// One visual item of a body.
struct Visual {
  // A mesh file (STL, OBJ, DAE, … through assimp), drawn as its triangles with the file's own
  // node transforms (mesh_file.hpp), scaled by `scale` and placed by `shape.offset`. Empty: the
  // primitive `shape` is drawn instead.
  std::string mesh;
  Vector3 scale = Vector3::Ones();  // per axis, of the mesh's vertices
  // A primitive (sphere, box, capsule, cylinder, ellipsoid, convex; not a plane) when `mesh` is
  // empty; its offset is the visual's pose in the body frame either way.
  Shape shape;
  // Colour, red green blue alpha in [0, 1]; NaN: the body's colour in the viewer.
  std::array<double, 4> rgba = {std::numeric_limits<double>::quiet_NaN(), 0.0, 0.0, 1.0};

  /// True when the visual has a colour of its own (rgba[0] is not NaN).
  bool has_color() const { return rgba[0] == rgba[0]; }
  // Throws std::invalid_argument naming `where` (e.g. "bodies[2].visuals[0]"): a plane, a bad
  // primitive (Shape::validate), a scale not positive and finite, a colour outside [0, 1].
  void validate(const std::string& where, int dimension) const;
};

}  // namespace moreau
