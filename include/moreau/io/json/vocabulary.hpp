#pragma once
// Names → enums for the vocabulary of the simulators (Integrator, PainlevePolicy, ImpactLaw,
// ContactMode, EventKind, SimulationStatus, InitialOverlap): the only place where a string becomes
// one of them (scene files, analyze inputs, command-line options, Python). The names are those of
// each enum's to_string, so that what is written can be read back.
#include <string>
#include <vector>

#include "moreau/contact/collision/world_contacts.hpp"
#include "moreau/model/vocabulary.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {

// Every value of an enum of the vocabulary, in declaration order.
template <class E>
const std::vector<E>& enum_values();
template <>
const std::vector<Integrator>& enum_values<Integrator>();  // time_stepping, event_driven
template <>
const std::vector<PainlevePolicy>& enum_values<PainlevePolicy>();  // tangential_impact, stop
template <>
const std::vector<TimeSteppingScheme>& enum_values<TimeSteppingScheme>();  // moreau, siconos
template <>
const std::vector<NewtonLoop>& enum_values<NewtonLoop>();  // newton, linearized
template <>
const std::vector<ImpactLaw>& enum_values<ImpactLaw>();  // newton, poisson, moreau
template <>
const std::vector<ContactMode>& enum_values<ContactMode>();  // separate, stick, slip
template <>
const std::vector<EventKind>& enum_values<EventKind>();  // impact … solver_failure
template <>
const std::vector<SimulationStatus>& enum_values<SimulationStatus>();  // completed …
template <>
const std::vector<InitialOverlap>& enum_values<InitialOverlap>();  // resolve, ignore, refuse

// The names of every value of E (to_string), in declaration order.
template <class E>
std::vector<std::string> enum_names() {
  std::vector<std::string> out;
  for (E e : enum_values<E>()) out.push_back(to_string(e));
  return out;
}

// "\"a\", \"b\" or \"c\"": the names of E for a message.
template <class E>
std::string enum_name_list() {
  const std::vector<std::string> names = enum_names<E>();
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : (i + 1 == names.size() ? " or " : ", ")) + ("\"" + names[i] + "\"");
  return out;
}

// The value of E named `name`; throws std::invalid_argument naming `path`, the value and the
// accepted names: `integrator.kind = "rk4": must be "timestepping" or "event"`.
template <class E>
E enum_from_name(const std::string& name, const std::string& path);

}  // namespace moreau
