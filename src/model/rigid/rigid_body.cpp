#include "moreau/model/rigid/rigid_body.hpp"

#include <cmath>

#include "moreau/common/error.hpp"

namespace moreau {

// Mass m > 0; inertia symmetric positive definite (Cholesky succeeds, smallest eigenvalue
// > 1e-14 of the largest); planar bodies move in z = 0 and rotate about z only.
void RigidBody::validate(const std::string& where, int dimension) const {
  MOREAU_REQUIRE(dimension == 2 || dimension == 3, "{}: dimension must be 2 or 3, got {}", where,
                 dimension);
  MOREAU_REQUIRE(all_finite(pose.position), "{}.position: must be finite", where);
  MOREAU_REQUIRE(
      all_finite(pose.orientation.coeffs()) && std::abs(pose.orientation.norm() - 1.0) < 1e-6,
      "{}.orientation = [{}]: must be a unit quaternion", where,
      fmt::join(pose.orientation.coeffs(), ", "));
  MOREAU_REQUIRE(all_finite(linear_velocity) && all_finite(angular_velocity),
                 "{}: velocities must be finite", where);
  MOREAU_REQUIRE(all_finite(applied_force) && all_finite(applied_torque),
                 "{}: applied force and torque must be finite", where);
  MOREAU_REQUIRE(!is_static || (applied_force.isZero() && applied_torque.isZero()),
                 "{}: a static body takes no applied force or torque", where);
  if (dimension == 2) {
    MOREAU_REQUIRE(
        applied_force.z() == 0.0 && applied_torque.x() == 0.0 && applied_torque.y() == 0.0,
        "{}: a planar body's applied force lies in z = 0 and its torque is about z", where);
    MOREAU_REQUIRE(pose.position.z() == 0.0 && linear_velocity.z() == 0.0,
                   "{}: a planar body must lie and move in z = 0", where);
    MOREAU_REQUIRE(std::abs(pose.orientation.x()) < 1e-12 && std::abs(pose.orientation.y()) < 1e-12,
                   "{}: a planar body may only rotate about z", where);
    MOREAU_REQUIRE(angular_velocity.x() == 0.0 && angular_velocity.y() == 0.0,
                   "{}.angular_velocity: a planar body spins about z only", where);
  }
  if (massless) {
    MOREAU_REQUIRE(!is_static && mass == 0.0 && inertia.isZero(0.0),
                   "{}: a massless link is dynamic with mass 0 and inertia 0", where);
  } else if (!is_static) {
    MOREAU_REQUIRE(std::isfinite(mass) && mass > 0.0, "{}.mass = {}: mass must be > 0", where,
                   mass);
    MOREAU_REQUIRE(all_finite(inertia), "{}.inertia: must be finite", where);
    if (dimension == 2) {
      MOREAU_REQUIRE(inertia(2, 2) > 0.0, "{}.inertia = {}: must be > 0", where, inertia(2, 2));
    } else {
      MOREAU_REQUIRE((inertia - inertia.transpose()).cwiseAbs().maxCoeff() <=
                         1e-10 * inertia.cwiseAbs().maxCoeff(),
                     "{}.inertia: must be symmetric", where);
      const Eigen::SelfAdjointEigenSolver<Matrix3> es(inertia);
      const Vector3 ev = es.eigenvalues();
      MOREAU_REQUIRE(ev.minCoeff() > 1e-14 * std::max(ev.maxCoeff(), 1e-300),
                     "{}.inertia: must be positive definite (eigenvalues {}, {}, {})", where, ev[0],
                     ev[1], ev[2]);
    }
  }
  for (size_t s = 0; s < shapes.size(); ++s) {
    shapes[s].validate(fmt::format("{}.shapes[{}]", where, s), dimension);
    MOREAU_REQUIRE(shapes[s].kind != ShapeKind::plane || is_static,
                   "{}.shapes[{}]: planes (half-spaces) belong to static bodies only", where, s);
  }
  for (size_t k = 0; k < visuals.size(); ++k)
    visuals[k].validate(fmt::format("{}.visuals[{}]", where, k), dimension);
}

}  // namespace moreau
