#pragma once
// Random rotations and vectors for the multibody tests (fixed seeds give fixed draws).
#include <random>

#include "moreau/model/rigid/pose.hpp"

namespace moreau::test {

// A rotation uniform on SO(3): a normalized Gaussian quaternion.
inline Quaternion random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  return Quaternion(n(rng), n(rng), n(rng), n(rng)).normalized();
}

// A vector with entries uniform in [−scale, scale].
inline Vector3 random_vector(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vector3(u(rng), u(rng), u(rng));
}

}  // namespace moreau::test
