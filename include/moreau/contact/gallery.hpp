#pragma once
// The gallery of example systems of issue 3, each built by name with keyword parameters
// (docs/cli.md (moreau analyze) lists every system, its parameters with defaults and units, and its
// default state). Every system carries its default state in initial_q / initial_v, chosen so that
// the contacts the example is about are closed (h = 0, ∇hᵀq̇ = 0).
//
//   painleve_rod (Brogliato 2014 §2.3.3), falling_pencil (McGeer & Palmer 1989, as in the
//   unilateral-contact notes (4.6)–(4.17)), wheel (the notes' no-slip example),
//   rocking_block (Brogliato, Kövecses & Acary 2020 Ex. 2), block_two_contacts (Ex. 1/4),
//   block_pendulum (Ex. 3), three_finger_grasp (Ex. 5), two_finger (Ex. 6), ball_chain
//   (Brogliato 2014 §2.3.1), box_on_incline (after §2.3.4), disk_on_plane (§2.3.5),
//   disk_in_corner (§2.3.6), constrained_pendulum (§2.3.7), particle_on_rough_line (§3.2.4).
//   Where a printed example is wrong, the system follows the corrected form (docs/math/models.md
//   §Gallery systems).
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "moreau/model/lagrangian_system.hpp"

namespace moreau {

// One parameter of a gallery system: name, default value, description with unit.
struct GalleryParameter {
  std::string name;            // keyword, e.g. "mu"
  double default_value = 0.0;  // value used when the parameter is not given, SI units
  std::string description;     // with unit
};

// One gallery system: name, description and parameters.
struct GalleryEntry {
  std::string name;                          // the name make_gallery_system takes
  std::string description;                   // one line: what the system is
  std::vector<GalleryParameter> parameters;  // its keyword parameters
};

// Parameters of a gallery system by name (SI units), e.g. {"mu": 0.5}.
using GalleryParams = std::map<std::string, double>;

// Every gallery system with its parameters (in documentation order).
const std::vector<GalleryEntry>& gallery_catalog();
// Names of the gallery systems, in the catalog's order.
std::vector<std::string> gallery_names();
const GalleryEntry& gallery_entry(const std::string& name);  // throws for an unknown name

// Builds the system `name` with the given parameters (others take their defaults) and sets its
// default state. Throws std::invalid_argument naming the field and value for an unknown name, an
// unknown parameter, a non-finite value, or a value out of range (mass ≤ 0, μ < 0, …).
std::shared_ptr<LagrangianSystem> make_gallery_system(const std::string& name,
                                                      const GalleryParams& params = {});

}  // namespace moreau
