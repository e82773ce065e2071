#pragma once
// Triangle meshes from STL, OBJ and COLLADA files (through assimp), and the mass properties of a
// closed mesh, for MJCF and URDF mesh geometry (docs/mjcf.md, docs/urdf.md).
#include <array>
#include <string>
#include <vector>

#include "moreau/common/types.hpp"

namespace moreau {

// A triangle mesh: vertices (m, the file's frame times the scale) and triangles (vertex indices).
struct TriangleMesh {
  std::vector<Vector3> vertices;              // m
  std::vector<std::array<int, 3>> triangles;  // indices into vertices, counter-clockwise outside
  // The first vertex of each mesh of the file (one part per mesh a node places), ascending.
  std::vector<int> part_starts = {0};
  // The diffuse colour (red, green, blue, alpha in [0, 1]) of each part's material in the file,
  // NaN red where it has none (STL).
  std::vector<std::array<float, 4>> part_colors;
  // The vertices of part k.
  std::vector<Vector3> part_vertices(size_t k) const;
};

// Reads every mesh of an STL, OBJ or COLLADA (.dae) file, scaled per axis. Each mesh is placed by
// the transforms of the nodes above it (COLLADA's <node> matrices and its <unit meter>, applied
// by assimp), once per node that places it; a COLLADA file's <up_axis> is turned onto z (the
// link frame's up, as ROS reads it: assimp turns it onto y, and y is then turned onto z). Throws
// std::invalid_argument naming the file when it is missing, unreadable, or has no triangles.
TriangleMesh load_mesh_file(const std::string& path, const Vector3& scale = Vector3::Ones());

// The convex hull of points as a closed triangle mesh (outward triangles): every plane through
// three points with all points on one side (within 1e-9 of their extent) is a facet, its points'
// 2D hull (Andrew's monotone chain) fanned into triangles. O(n⁴): for the small vertex lists of
// inline MJCF meshes; throws std::invalid_argument naming `source` for more than 200 points or
// points that span no volume.
TriangleMesh convex_hull_mesh(const std::vector<Vector3>& points, const std::string& source);

// Volume, centroid and inertia of a homogeneous solid bounded by a closed triangle mesh.
struct MeshMassProperties {
  double volume = 0.0;                 // m³, > 0 (the orientation of the triangles is ignored)
  Vector3 centroid = Vector3::Zero();  // m, the mesh's frame
  Matrix3 inertia = Matrix3::Zero();   // about the centroid, mesh axes, per unit density, m⁵
};

// By the divergence theorem over the tetrahedra (0, a, b, c) of the triangles: with A = [a b c],
// V = Σ det A / 6, ∫x dV = Σ det A (a + b + c) / 24, ∫x xᵀ dV = Σ det A · A K Aᵀ / 120,
// K = [[2,1,1],[1,2,1],[1,1,2]]; I = tr(C) I₃ − C for C = ∫x xᵀ dV − V c cᵀ (about c).
// Throws std::invalid_argument naming `source` when the volume is not positive (an open or flat
// mesh).
MeshMassProperties mesh_mass_properties(const TriangleMesh& mesh, const std::string& source);

}  // namespace moreau
