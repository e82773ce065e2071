// STL and OBJ meshes through assimp, and the mass properties of a closed triangle mesh.
#include "moreau/io/import/mesh_file.hpp"

#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/io/os/input_file.hpp"

namespace moreau {

TriangleMesh load_mesh_file(const std::string& path, const Vector3& scale) {
  require_readable_file(path);
  Assimp::Importer importer;
  const aiScene* scene =
      importer.ReadFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
  MOREAU_REQUIRE(scene != nullptr && scene->mRootNode != nullptr,
                 "mesh file '{}': cannot be read ({})", path, importer.GetErrorString());
  TriangleMesh mesh;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* part = scene->mMeshes[m];
    const int base = static_cast<int>(mesh.vertices.size());
    for (unsigned i = 0; i < part->mNumVertices; ++i) {
      const aiVector3D& x = part->mVertices[i];
      mesh.vertices.emplace_back(scale.x() * x.x, scale.y() * x.y, scale.z() * x.z);
    }
    for (unsigned f = 0; f < part->mNumFaces; ++f) {
      const aiFace& face = part->mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines left by triangulation
      mesh.triangles.push_back({base + static_cast<int>(face.mIndices[0]),
                                base + static_cast<int>(face.mIndices[1]),
                                base + static_cast<int>(face.mIndices[2])});
    }
  }
  MOREAU_REQUIRE(!mesh.triangles.empty(), "mesh file '{}': no triangles", path);
  for (const Vector3& x : mesh.vertices)
    MOREAU_REQUIRE(all_finite(x), "mesh file '{}': a vertex is not finite", path);
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
