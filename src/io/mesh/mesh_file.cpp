// STL, OBJ and COLLADA meshes through assimp, and the mass properties of a closed triangle mesh.
#include "moreau/io/mesh/mesh_file.hpp"

#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <assimp/Importer.hpp>
#include <cctype>
#include <cmath>
#include <filesystem>

#include "moreau/common/error.hpp"
#include "moreau/io/os/input_file.hpp"

namespace moreau {

namespace {

// Appends the meshes node places (and those of its children), their vertices mapped by T times the
// node's transforms, one part each.
void add_node(const aiScene& scene, const aiNode& node, const aiMatrix4x4& parent,
              TriangleMesh& mesh) {
  const aiMatrix4x4 T = parent * node.mTransformation;
  for (unsigned i = 0; i < node.mNumMeshes; ++i) {
    const aiMesh* part = scene.mMeshes[node.mMeshes[i]];
    const int base = static_cast<int>(mesh.vertices.size());
    if (base > 0) mesh.part_starts.push_back(base);
    std::array<float, 4> color = {std::nanf(""), 0.0f, 0.0f, 1.0f};
    aiColor4D diffuse;
    // the file's own material, not the grey one assimp gives a file without (STL)
    const aiMaterial* material = part->mMaterialIndex < scene.mNumMaterials
                                     ? scene.mMaterials[part->mMaterialIndex]
                                     : nullptr;
    if (material != nullptr && material->GetName() != aiString(AI_DEFAULT_MATERIAL_NAME) &&
        material->Get(AI_MATKEY_COLOR_DIFFUSE, diffuse) == AI_SUCCESS)
      color = {diffuse.r, diffuse.g, diffuse.b, diffuse.a};
    mesh.part_colors.push_back(color);
    for (unsigned v = 0; v < part->mNumVertices; ++v) {
      const aiVector3D x = T * part->mVertices[v];
      mesh.vertices.emplace_back(x.x, x.y, x.z);
    }
    for (unsigned f = 0; f < part->mNumFaces; ++f) {
      const aiFace& face = part->mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines left by triangulation
      mesh.triangles.push_back({base + static_cast<int>(face.mIndices[0]),
                                base + static_cast<int>(face.mIndices[1]),
                                base + static_cast<int>(face.mIndices[2])});
    }
  }
  for (unsigned c = 0; c < node.mNumChildren; ++c) add_node(scene, *node.mChildren[c], T, mesh);
}

}  // namespace

std::vector<Vector3> TriangleMesh::part_vertices(size_t k) const {
  const size_t first = static_cast<size_t>(part_starts.at(k));
  const size_t last =
      k + 1 < part_starts.size() ? static_cast<size_t>(part_starts[k + 1]) : vertices.size();
  return {vertices.begin() + static_cast<std::ptrdiff_t>(first),
          vertices.begin() + static_cast<std::ptrdiff_t>(last)};
}

TriangleMesh load_mesh_file(const std::string& path, const Vector3& scale) {
  require_readable_file(path);
  Assimp::Importer importer;
  const aiScene* scene =
      importer.ReadFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
  MOREAU_REQUIRE(scene != nullptr && scene->mRootNode != nullptr,
                 "mesh file '{}': cannot be read ({})", path, importer.GetErrorString());
  // assimp turns a COLLADA file's up axis onto y; (x, y, z) → (x, −z, y) turns y onto z
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  aiMatrix4x4 up;  // identity
  if (ext == ".dae") up = aiMatrix4x4(1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1);
  TriangleMesh mesh;
  add_node(*scene, *scene->mRootNode, up, mesh);
  MOREAU_REQUIRE(!mesh.triangles.empty(), "mesh file '{}': no triangles", path);
  for (Vector3& x : mesh.vertices) {
    x = x.cwiseProduct(scale);
    MOREAU_REQUIRE(all_finite(x), "mesh file '{}': a vertex is not finite", path);
  }
  return mesh;
}

TriangleMesh convex_hull_mesh(const std::vector<Vector3>& points, const std::string& source) {
  const size_t n = points.size();
  MOREAU_REQUIRE(n >= 4 && n <= 200,
                 "{}: {} vertices: the hull of 4 to 200 is computed (give "
                 "faces for more)",
                 source, n);
  double extent = 0.0;
  for (const Vector3& p : points) extent = std::max(extent, (p - points[0]).norm());
  const double eps = 1e-9 * extent;
  TriangleMesh mesh;
  mesh.vertices = points;
  std::vector<std::pair<Vector3, double>> planes;  // n·x = d of the facets found
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j)
      for (size_t k = j + 1; k < n; ++k) {
        Vector3 normal = (points[j] - points[i]).cross(points[k] - points[i]);
        if (normal.norm() <= eps * extent) continue;  // collinear
        normal.normalize();
        double d = normal.dot(points[i]);
        bool above = false, below = false;
        for (const Vector3& p : points) {
          const double h = normal.dot(p) - d;
          above |= h > eps, below |= h < -eps;
        }
        if (above && below) continue;
        if (above) normal = -normal, d = -d;  // outward: every point below
        const bool known = std::any_of(planes.begin(), planes.end(), [&](const auto& pl) {
          return (pl.first - normal).norm() < 1e-9 && std::abs(pl.second - d) <= eps;
        });
        if (known) continue;
        planes.emplace_back(normal, d);
        // the facet's points, in 2D (u, v) with u × v = n, hulled counter-clockwise
        const Vector3 u = normal.unitOrthogonal(), v = normal.cross(u);
        std::vector<int> on;
        for (size_t m = 0; m < n; ++m)
          if (std::abs(normal.dot(points[m]) - d) <= eps) on.push_back(static_cast<int>(m));
        auto uv = [&](int m) { return Eigen::Vector2d(u.dot(points[m]), v.dot(points[m])); };
        std::sort(on.begin(), on.end(), [&](int a, int b) {
          const auto pa = uv(a), pb = uv(b);
          return pa.x() < pb.x() || (pa.x() == pb.x() && pa.y() < pb.y());
        });
        auto cross = [&](int o, int a, int b) {
          const auto po = uv(o), pa = uv(a), pb = uv(b);
          return (pa - po).x() * (pb - po).y() - (pa - po).y() * (pb - po).x();
        };
        std::vector<int> hull;
        for (int pass = 0; pass < 2; ++pass) {  // lower then upper chain
          const size_t start = hull.size();
          for (size_t q = 0; q < on.size(); ++q) {
            const int m = pass == 0 ? on[q] : on[on.size() - 1 - q];
            while (hull.size() >= start + 2 &&
                   cross(hull[hull.size() - 2], hull.back(), m) <= eps * extent)
              hull.pop_back();
            hull.push_back(m);
          }
          hull.pop_back();
        }
        for (size_t q = 1; q + 1 < hull.size(); ++q)
          mesh.triangles.push_back({hull[0], hull[q], hull[q + 1]});
      }
  MOREAU_REQUIRE(planes.size() >= 4, "{}: the vertices span no volume", source);
  return mesh;
}

MeshMassProperties mesh_mass_properties(const TriangleMesh& mesh, const std::string& source) {
  Matrix3 K;
  K << 2, 1, 1, 1, 2, 1, 1, 1, 2;
  double V = 0.0;
  Vector3 first = Vector3::Zero();
  Matrix3 second = Matrix3::Zero();
  for (const auto& t : mesh.triangles) {
    Matrix3 A;
    A << mesh.vertices[t[0]], mesh.vertices[t[1]], mesh.vertices[t[2]];
    const double det = A.determinant();
    V += det / 6.0;
    first += det * (A.col(0) + A.col(1) + A.col(2)) / 24.0;
    second += det * A * K * A.transpose() / 120.0;
  }
  if (V < 0) V = -V, first = -first, second = -second;  // triangles wound inwards
  MOREAU_REQUIRE(V > 0.0 && std::isfinite(V),
                 "{}: the mesh encloses no volume ({:.3g} m³): it must be closed", source, V);
  MeshMassProperties p;
  p.volume = V;
  p.centroid = first / V;
  const Matrix3 C = second - V * p.centroid * p.centroid.transpose();
  p.inertia = C.trace() * Matrix3::Identity() - C;
  return p;
}

}  // namespace moreau
