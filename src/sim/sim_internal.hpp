#pragma once
// Helpers shared by the two integrators (not public API).
#include <algorithm>
#include <cmath>

#include "moreau/sim/simulation.hpp"

namespace moreau::detail {

// Appends (t, q, v, T, V) to the trajectory and updates the energy and penetration summary.
inline void record_state(SimulationResult& res, const LagrangianSystem& sys, double t, const Vector& q,
                         const Vector& v, double& running_min_energy) {
  res.t.push_back(t);
  res.q.push_back(q);
  res.v.push_back(v);
  const double T = sys.kinetic_energy(q, v);
  const double V = sys.potential_energy(q);
  res.kinetic.push_back(T);
  res.potential.push_back(V);
  const double E = T + V;
  if (res.t.size() == 1) {
    res.energy_initial = E;
    running_min_energy = E;
  }
  running_min_energy = std::min(running_min_energy, E);
  res.max_energy_gain = std::max(res.max_energy_gain, E - running_min_energy);
  res.energy_final = E;
}

inline void start_result(SimulationResult& res, const LagrangianSystem& sys, const std::string& integrator,
                         const ContactState& s0) {
  res.system = sys.name();
  res.integrator = integrator;
  res.dimension = s0.dimension;
  res.position_names = sys.position_names();
  res.velocity_names = sys.velocity_names();
  for (const auto& c : s0.constraints) res.contact_names.push_back(c.name);
}

}  // namespace moreau::detail
