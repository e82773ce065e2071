// The gallery catalog: names, parameters with defaults, and the dispatch to the builders in
// gallery_systems.cpp.
#include <algorithm>
#include <cmath>

#include "gallery_builders.hpp"
#include "moreau/common/error.hpp"

namespace moreau {

const std::vector<GalleryEntry>& gallery_catalog() {
  static const std::vector<GalleryEntry> catalog = {
      {"painleve_rod",
       "uniform rod (centre-of-mass coordinates x, y, θ) whose lower end slides on a rough floor "
       "(Painlevé's rod, Brogliato 2014 §2.3.3)",
       {{"mass", 1.0, "rod mass m, kg"},
        {"length", 1.0, "rod length L (half-length l = L/2), m"},
        {"theta", 0.5, "angle of the rod FROM THE FLOOR, rad"},
        {"theta_dot", 0.0, "angular velocity θ̇, rad/s"},
        {"x_dot", -1.0, "sliding velocity of the lower end along +x, m/s"},
        {"mu", 0.5, "Coulomb friction coefficient at the end"},
        {"g", 9.81, "gravity, m/s²"}}},
      {"falling_pencil",
       "falling pencil of McGeer & Palmer 1989: q = (x, y, θ) of the lower tip, θ FROM THE "
       "VERTICAL",
       {{"mass", 1.0, "mass m, kg"},
        {"ell", 0.5, "half-length ℓ (rod length 2ℓ; centre of mass at ℓ from the tip), m"},
        {"alpha", 0.75,
         "mass distribution α = mℓ²/(I_c + mℓ²) ∈ [1/2, 1] (3/4 uniform rod, 1 point mass)"},
        {"theta", 0.3, "tilt from the vertical, rad"},
        {"theta_dot", 0.0, "θ̇, rad/s"},
        {"x_dot", 0.0, "sliding velocity of the tip, m/s"},
        {"mu", 0.5, "Coulomb friction coefficient"},
        {"g", 9.81, "gravity, m/s²"}}},
      {"wheel",
       "wheel (disk) rolling on the ground, q = (x, y, θ)",
       {{"mass", 1.0, "mass, kg"},
        {"radius", 0.5, "radius R, m"},
        {"inertia_factor", 0.5, "I = k m R² (k = 1/2 uniform disk, 1 ring)"},
        {"x_dot", 1.0, "centre velocity, m/s"},
        {"theta_dot", -2.0, "θ̇, rad/s (rolling: ẋ + R θ̇ = 0)"},
        {"mu", 0.5, "Coulomb friction coefficient"},
        {"e", 0.0, "normal restitution"},
        {"g", 9.81, "gravity, m/s²"}}},
      {"disk_on_plane",
       "disk on a plane (Brogliato 2014 §2.3.5), sliding by default",
       {{"mass", 1.0, "mass, kg"},
        {"radius", 0.5, "radius R, m"},
        {"inertia_factor", 0.5, "I = k m R²"},
        {"x_dot", 1.0, "centre velocity, m/s"},
        {"theta_dot", 0.0, "θ̇, rad/s"},
        {"mu", 0.3, "Coulomb friction coefficient"},
        {"e", 0.0, "normal restitution"},
        {"g", 9.81, "gravity, m/s²"}}},
      {"rocking_block",
       "block pivoting on its bottom-left corner A2 (Brogliato, Kövecses & Acary 2020 Ex. 2); "
       "A1 is the bottom-right corner",
       {{"mass", 2.0, "mass m, kg"},
        {"height", 1.0, "height l, m"},
        {"width", 0.5, "width L, m"},
        {"theta", 0.2, "tilt θ, rad (A2 in contact for θ > 0)"},
        {"theta_dot", 0.3, "θ̇, rad/s (A2 at rest: sticking)"},
        {"Fx", 1.0, "x component of F in the LEFT-side convention (applied push −Fx), N"},
        {"mu", 0.5, "Coulomb friction coefficient at both corners"},
        {"g", 9.81, "gravity, m/s²"}}},
      {"block_two_contacts",
       "block resting flat on both bottom corners (Brogliato, Kövecses & Acary 2020 Ex. 1/4 "
       "statics)",
       {{"mass", 1.0, "mass m, kg"},
        {"height", 1.0, "height l, m"},
        {"width", 2.0, "width L, m"},
        {"Fx", 2.0, "x component of F in the LEFT-side convention (applied push −Fx), N"},
        {"mu", 0.25, "Coulomb friction coefficient at both corners"},
        {"g", 9.81, "gravity, m/s²"}}},
      {"block_pendulum",
       "block with an inverted pendulum on top, q = (x, y, θ, α) (Brogliato, Kövecses & Acary 2020 "
       "Ex. 3, with M and c derived anew: docs/math/models.md)",
       {{"mass", 1.0, "block mass m, kg"},
        {"height", 1.0, "block height l, m"},
        {"width", 1.0, "block width L, m"},
        {"pendulum_mass", 0.5, "pendulum mass m̄, kg"},
        {"pendulum_length", 1.0, "pendulum length a, m"},
        {"pendulum_inertia", 0.5 / 12.0, "pendulum inertia I_p about its centre, kg·m²"},
        {"alpha", 0.5, "pendulum angle α relative to the block, rad"},
        {"alpha_dot", 1.0, "α̇, rad/s"},
        {"Fx", 0.0, "F_ext^x in the LEFT-side convention, N"},
        {"mu", 0.5, "Coulomb friction coefficient at both corners"},
        {"g", 9.81, "gravity, m/s²"}}},
      {"three_finger_grasp",
       "planar object held by three prismatic fingers, q = (x, y, θ, x₁, y₂, x₃) (Brogliato, "
       "Kövecses & Acary 2020 Ex. 5)",
       {{"mass", 1.0, "object mass m, kg"},
        {"width", 1.0, "object width L (fingers 1, 3 on the faces at ±L/2), m"},
        {"height", 0.6, "object height l (finger 2 under the face at −l/2), m"},
        {"theta", 0.0, "object angle θ, rad"},
        {"finger_mass", 0.2, "mass of each finger m₁ = m₂ = m₃, kg"},
        {"F1", -5.0, "left-side force on finger 1 (x₁), N (negative pushes toward the object)"},
        {"F2", -3.0, "left-side force on finger 2 (y₂), N"},
        {"F3", 5.0, "left-side force on finger 3 (x₃), N"},
        {"mu", 0.5, "Coulomb friction coefficient at the three fingers"},
        {"g", 9.81, "gravity on the object, m/s²"}}},
      {"two_finger",
       "block on a frictionless vertical guide squeezed by two horizontal fingers, q = (x, y, x₁, "
       "x₂) (Brogliato, Kövecses & Acary 2020 Ex. 6)",
       {{"mass", 1.0, "block mass m, kg"},
        {"finger_mass", 1.0, "finger masses m₁ = m₂, kg"},
        {"half_width", 0.5, "L in h₁ = x − x₁ − L, h₂ = x₂ − x − L, m"},
        {"guide", 0.0, "guide position a (h_b = x − a), m"},
        {"F1", -5.0, "left-side force on finger 1, N"},
        {"F2", 3.0, "left-side force on finger 2, N"},
        {"mu1", 0.8, "friction coefficient at finger 1"},
        {"mu2", 0.9, "friction coefficient at finger 2"},
        {"g", 9.81, "gravity, m/s²"}}},
      {"ball_chain",
       "chain of balls on a line, all touching (Brogliato 2014 §2.3.1), q = positions",
       {{"count", 3.0, "number of balls N ≥ 2"},
        {"mass", 1.0, "mass of the first ball, kg"},
        {"mass_step", 0.0, "m_i = mass + i·mass_step (i = 0..N−1), kg"},
        {"radius", 0.5, "common radius R, m"},
        {"v1", 1.0, "velocity of the first ball, m/s"},
        {"e", 0.0, "restitution of every contact"}}},
      {"box_on_incline",
       "box resting on its lower-back corner on an incline (incline frame: x down the slope)",
       {{"mass", 1.0, "mass, kg"},
        {"width", 0.8, "width, m"},
        {"height", 0.5, "height, m"},
        {"slope", 0.3, "incline angle, rad"},
        {"phi", 0.6, "tilt of the box on the incline (back corner down for φ > 0), rad"},
        {"phi_dot", 0.0, "φ̇, rad/s"},
        {"x_dot", 1.0, "sliding velocity of the corner down the slope, m/s"},
        {"mu", 0.5, "Coulomb friction coefficient"},
        {"g", 9.81, "gravity, m/s²"}}},
      {"disk_in_corner",
       "disk touching a floor (h₁ = y − R) and a wall (h₂ = x − R) (Brogliato 2014 §2.3.6)",
       {{"mass", 1.0, "mass m, kg"},
        {"radius", 0.5, "radius R, m"},
        {"inertia_factor", 0.5, "I = k m R²"},
        {"x_dot", 0.0, "ẋ (0 keeps the wall contact closed), m/s"},
        {"y_dot", 0.0, "ẏ, m/s"},
        {"theta_dot", 1.0, "θ̇, rad/s"},
        {"mu", 0.2, "Coulomb friction coefficient at both contacts"},
        {"g", 9.81, "gravity, m/s²"}}},
      {"constrained_pendulum",
       "bar whose upper end A slides on the wall x = 0 (bilateral) and lower end B on the floor "
       "(unilateral) (Brogliato 2014 §2.3.7)",
       {{"mass", 1.7, "mass m, kg"},
        {"length", 0.9, "length l, m"},
        {"theta", 0.5, "angle from the vertical, rad"},
        {"theta_dot", 0.0, "θ̇, rad/s"},
        {"mu_a", 0.0, "friction at the wall end A"},
        {"mu_b", 0.5, "friction at the floor end B"},
        {"g", 9.81, "gravity, m/s²"}}},
      {"particle_on_rough_line",
       "particle on a rough line y ≥ 0, q = (x, y) (Brogliato 2014 §3.2.4)",
       {{"mass", 1.0, "mass, kg"},
        {"x_dot", 1.0, "tangential velocity, m/s"},
        {"y_dot", 0.0, "normal velocity, m/s"},
        {"mu", 0.2, "Coulomb friction coefficient"},
        {"e", 0.0, "normal restitution"},
        {"g", 9.81, "gravity, m/s²"}}},
  };
  return catalog;
}

std::vector<std::string> gallery_names() {
  std::vector<std::string> out;
  for (const auto& e : gallery_catalog()) out.push_back(e.name);
  return out;
}

const GalleryEntry& gallery_entry(const std::string& name) {
  for (const auto& e : gallery_catalog())
    if (e.name == name) return e;
  throw_invalid("unknown gallery system '{}' (known: {})", name, fmt::join(gallery_names(), ", "));
}

namespace gallery_detail {

double Params::get(const std::string& key) const {
  auto it = values.find(key);
  MOREAU_ASSERT(it != values.end());
  return it->second;
}
double Params::positive(const std::string& key) const {
  const double x = get(key);
  MOREAU_REQUIRE(x > 0.0, "gallery '{}': parameter {} = {} must be > 0", system, key, x);
  return x;
}
double Params::nonnegative(const std::string& key) const {
  const double x = get(key);
  MOREAU_REQUIRE(x >= 0.0, "gallery '{}': parameter {} = {} must be ≥ 0", system, key, x);
  return x;
}
double Params::in_range(const std::string& key, double lo, double hi) const {
  const double x = get(key);
  MOREAU_REQUIRE(x >= lo && x <= hi, "gallery '{}': parameter {} = {} must lie in [{}, {}]", system,
                 key, x, lo, hi);
  return x;
}

}  // namespace gallery_detail

std::shared_ptr<LagrangianSystem> make_gallery_system(const std::string& name,
                                                      const GalleryParams& params) {
  const GalleryEntry& entry = gallery_entry(name);
  gallery_detail::Params p;
  p.system = name;
  for (const auto& par : entry.parameters) p.values[par.name] = par.default_value;
  for (const auto& [key, value] : params) {
    auto it = p.values.find(key);
    if (it == p.values.end()) {
      std::vector<std::string> known;
      for (const auto& par : entry.parameters) known.push_back(par.name);
      throw_invalid("gallery '{}': unknown parameter '{}' (known: {})", name, key,
                    fmt::join(known, ", "));
    }
    MOREAU_REQUIRE(std::isfinite(value), "gallery '{}': parameter {} = {} must be finite", name,
                   key, value);
    it->second = value;
  }
  using namespace gallery_detail;
  if (name == "painleve_rod") return build_painleve_rod(p);
  if (name == "falling_pencil") return build_falling_pencil(p);
  if (name == "wheel" || name == "disk_on_plane") return build_disk_on_plane(p);
  if (name == "rocking_block" || name == "block_two_contacts") return build_block(p);
  if (name == "block_pendulum") return build_block_pendulum(p);
  if (name == "three_finger_grasp") return build_three_finger_grasp(p);
  if (name == "two_finger") return build_two_finger(p);
  if (name == "ball_chain") return build_ball_chain(p);
  if (name == "box_on_incline") return build_box_on_incline(p);
  if (name == "disk_in_corner") return build_disk_in_corner(p);
  if (name == "constrained_pendulum") return build_constrained_pendulum(p);
  if (name == "particle_on_rough_line") return build_particle_on_rough_line(p);
  throw_invalid("gallery system '{}' has no builder", name);
}

}  // namespace moreau
