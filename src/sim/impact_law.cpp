// Impact-law names of the simulators; see impact_law.hpp.
#include "moreau/sim/impact_law.hpp"

#include <algorithm>

#include "moreau/common/error.hpp"

namespace moreau {

const std::vector<std::string>& impact_law_names() {
  static const std::vector<std::string> kNames = {"newton", "poisson", "moreau"};
  return kNames;
}

bool is_impact_law(const std::string& law) {
  const auto& names = impact_law_names();
  return std::find(names.begin(), names.end(), law) != names.end();
}

void check_impact_law_name(const std::string& law, const std::string& integrator, const std::string& owner) {
  MOREAU_REQUIRE(is_impact_law(law),
                 "{} has the unknown impact law '{}'; the known laws are 'newton', 'poisson' and 'moreau'", owner,
                 law);
  MOREAU_REQUIRE(law == "newton" || integrator == "event",
                 "{} has the impact law '{}', but the time-stepping integrator supports only 'newton'; use the "
                 "event-driven integrator or the law 'newton'",
                 owner, law);
}

// Rules of the header, checked contact by contact in order (the first offending contact is named).
void check_impact_laws(const ContactState& state, const std::string& integrator) {
  MOREAU_REQUIRE(integrator == "event" || integrator == "timestepping",
                 "impact laws: integrator must be 'event' or 'timestepping', got '{}'", integrator);
  const ContactConstraint* joint = nullptr;
  for (const auto& c : state.constraints)
    if (c.kind == ConstraintKind::bilateral) { joint = &c; break; }
  for (const auto& c : state.constraints) {
    if (c.kind == ConstraintKind::bilateral) continue;
    check_impact_law_name(c.law, integrator, fmt::format("contact '{}'", c.name));
    if (c.law == "newton") continue;
    MOREAU_REQUIRE(c.mu == 0.0,
                   "contact '{}' has the impact law '{}' with friction mu = {}; the '{}' law is "
                   "frictionless: set mu = 0 for this contact or use the law 'newton'",
                   c.name, c.law, c.mu, c.law);
    MOREAU_REQUIRE(joint == nullptr,
                   "contact '{}' has the impact law '{}', but the system has the bilateral "
                   "constraint '{}'; the '{}' law takes no joints: use the law 'newton'",
                   c.name, c.law, joint ? joint->name : std::string(), c.law);
  }
}

const std::string& common_impact_law(const ContactState& state, const std::vector<Index>& contacts,
                                     double t) {
  static const std::string kNewton = "newton";
  if (contacts.empty()) return kNewton;
  const ContactConstraint& first = state.constraints[contacts.front()];
  for (Index i : contacts) {
    const ContactConstraint& c = state.constraints[i];
    MOREAU_REQUIRE(c.law == first.law,
                   "at t = {} s the contacts '{}' (law '{}') and '{}' (law '{}') close in one impact; "
                   "contacts that impact together must share one impact law",
                   t, first.name, first.law, c.name, c.law);
  }
  return first.law;
}

}  // namespace moreau
