#pragma once
// Internal: the gallery builders (gallery_systems.cpp) and their parameter access.
#include <map>
#include <memory>
#include <string>

#include "moreau/contact/gallery.hpp"

namespace moreau::gallery_detail {

struct Params {
  std::string system;
  std::map<std::string, double> values;
  double get(const std::string& key) const;
  double positive(const std::string& key) const;     // > 0
  double nonnegative(const std::string& key) const;  // ≥ 0
  double in_range(const std::string& key, double lo, double hi) const;
};

using SystemPtr = std::shared_ptr<LagrangianSystem>;
SystemPtr build_painleve_rod(const Params& p);
SystemPtr build_falling_pencil(const Params& p);
SystemPtr build_disk_on_plane(const Params& p);  // wheel, disk_on_plane
SystemPtr build_block(const Params& p);          // rocking_block, block_two_contacts
SystemPtr build_block_pendulum(const Params& p);
SystemPtr build_three_finger_grasp(const Params& p);
SystemPtr build_two_finger(const Params& p);
SystemPtr build_ball_chain(const Params& p);
SystemPtr build_box_on_incline(const Params& p);
SystemPtr build_disk_in_corner(const Params& p);
SystemPtr build_constrained_pendulum(const Params& p);
SystemPtr build_particle_on_rough_line(const Params& p);

}  // namespace moreau::gallery_detail
