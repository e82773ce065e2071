#include "mode_enumeration.hpp"

#include <fmt/format.h>

namespace moreau::event {

namespace {

// Candidates of each closed contact, filtered by the exclusions (cand[k][0] is the slip of a
// sliding one). The 3D slip of a resting contact is opposite to its sticking λ_t.
std::vector<Modes> candidates(const ModeSelection& ctx, const ClosedContacts& cc) {
  const int d = ctx.dimension;
  std::vector<Modes> cand(cc.C.size());
  for (std::size_t k = 0; k < cc.C.size(); ++k) {
    const Index i = cc.C[k];
    const ModeExclusion& ex = (*cc.excl)[i];
    const Vector ut = cc.probe.ut.col(i);
    if (ctx.mu[i] == 0.0) {
      if (ex.allows(ContactMode::slip, Vector())) cand[k].push_back({ContactMode::slip, Vector()});
    } else if (cc.sliding[k]) {
      if (ex.allows(ContactMode::slip, Vector(ut / ut.norm())))
        cand[k].push_back({ContactMode::slip, ut / ut.norm()});
    } else {
      if (ex.allows(ContactMode::stick, Vector()))
        cand[k].push_back({ContactMode::stick, Vector()});
      if (d == 2) {
        for (double sg : {1.0, -1.0}) {
          Vector sd(1);
          sd[0] = sg;
          if (ex.allows(ContactMode::slip, sd)) cand[k].push_back({ContactMode::slip, sd});
        }
      } else {
        Modes trial = cc.base;
        trial[i] = {ContactMode::stick, Vector()};
        const Dynamics dt0 = ctx.dynamics(cc.t, cc.q, cc.v, trial);
        Vector sd = -dt0.lambda_t.col(i);
        if (sd.norm() < 1e-300) sd = Vector::Unit(d - 1, 0);
        sd.normalize();
        if (ex.allows(ContactMode::slip, sd)) cand[k].push_back({ContactMode::slip, sd});
      }
    }
    if (ex.allows(ContactMode::separate, Vector()))
      cand[k].push_back({ContactMode::separate, Vector()});
  }
  return cand;
}

}  // namespace

bool enumerate_modes(const ModeSelection& ctx, const ClosedContacts& cc, std::vector<Modes>& found,
                     std::string& unsupported) {
  const std::size_t limit = static_cast<std::size_t>(ctx.limits.max_enumeration_contacts);
  if (cc.C.size() > limit) {
    unsupported = fmt::format(
        "{} simultaneous closed contacts at t = {} s exceed the {} that the event-driven mode "
        "enumeration handles; use the time-stepping integrator",
        cc.C.size(), cc.t, limit);
    return false;
  }
  const std::vector<Modes> cand = candidates(ctx, cc);
  std::vector<std::size_t> idx(cc.C.size(), 0);
  while (true) {
    Modes trial = cc.base;
    for (std::size_t k = 0; k < cc.C.size(); ++k) trial[cc.C[k]] = cand[k][idx[k]];
    if (consistent(ctx, cc, trial)) found.push_back(trial);
    std::size_t k = 0;
    while (k < cc.C.size() && ++idx[k] == cand[k].size()) {
      idx[k] = 0;
      ++k;
    }
    if (k == cc.C.size()) break;
  }
  return true;
}

}  // namespace moreau::event
