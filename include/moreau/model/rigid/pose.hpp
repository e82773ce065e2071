#pragma once
// Rigid poses. Every geometric routine works in 3D; a planar pose (x, y, θ) is embedded as the
// position (x, y, 0) and the rotation by θ about +z, so that 2D scenes reuse the 3D code and
// planar bodies move in the plane z = 0.
#include <Eigen/Geometry>

#include "moreau/common/types.hpp"

namespace moreau {

// Unit quaternion of a body orientation (Eigen's, w first in its constructor).
using Quaternion = Eigen::Quaterniond;

// Position (m, world frame) and orientation (unit quaternion, body → world) of a frame.
struct Pose {
  Vector3 position = Vector3::Zero();               // m, world frame
  Quaternion orientation = Quaternion::Identity();  // unit, body → world

  // x_world = p + R x_body
  Vector3 apply(const Vector3& x_body) const { return position + orientation * x_body; }
  // R, the rotation matrix of the orientation (body → world).
  Matrix3 rotation() const { return orientation.toRotationMatrix(); }
  // (this ∘ local): the pose of a frame given relative to this one.
  Pose compose(const Pose& local) const {
    return Pose{apply(local.position), (orientation * local.orientation).normalized()};
  }
};

// Planar pose (x, y, θ) → (x, y, 0) and rotation θ about +z.
inline Pose planar_pose(double x, double y, double theta) {
  return Pose{Vector3(x, y, 0.0), Quaternion(Eigen::AngleAxisd(theta, Vector3::UnitZ()))};
}

// Skew matrix: [a]× b = a × b.
inline Matrix3 skew(const Vector3& a) {
  Matrix3 S;
  S << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return S;
}

}  // namespace moreau
