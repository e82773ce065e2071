// STL, OBJ and COLLADA meshes through assimp, and the mass properties of a closed triangle mesh.
#include "moreau/io/import/mesh_file.hpp"

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
