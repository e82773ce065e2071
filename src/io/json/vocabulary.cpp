// Names → enums of the simulators' vocabulary; see vocabulary.hpp.
#include "moreau/io/json/vocabulary.hpp"

#include "moreau/common/error.hpp"

namespace moreau {

template <>
const std::vector<Integrator>& enum_values() {
  static const std::vector<Integrator> v = {Integrator::time_stepping, Integrator::event_driven};
  return v;
}

template <>
const std::vector<PainlevePolicy>& enum_values() {
  static const std::vector<PainlevePolicy> v = {PainlevePolicy::tangential_impact,
                                                PainlevePolicy::stop};
  return v;
}

template <>
const std::vector<TimeSteppingScheme>& enum_values() {
  static const std::vector<TimeSteppingScheme> v = {TimeSteppingScheme::moreau,
                                                    TimeSteppingScheme::siconos};
  return v;
}

template <>
const std::vector<NewtonLoop>& enum_values() {
  static const std::vector<NewtonLoop> v = {NewtonLoop::newton, NewtonLoop::linearized};
  return v;
}

template <>
const std::vector<ImpactLaw>& enum_values() {
  static const std::vector<ImpactLaw> v = {ImpactLaw::newton, ImpactLaw::poisson,
                                           ImpactLaw::moreau};
  return v;
}

template <>
const std::vector<ContactMode>& enum_values() {
  static const std::vector<ContactMode> v = {ContactMode::separate, ContactMode::stick,
                                             ContactMode::slip};
  return v;
}

template <>
const std::vector<EventKind>& enum_values() {
  static const std::vector<EventKind> v = {
      EventKind::impact,        EventKind::contact,       EventKind::separation,
      EventKind::stick_to_slip, EventKind::slip_to_stick, EventKind::slip_reversal,
      EventKind::painleve,      EventKind::zeno,          EventKind::solver_failure};
  return v;
}

template <>
const std::vector<SimulationStatus>& enum_values() {
  static const std::vector<SimulationStatus> v = {
      SimulationStatus::completed,      SimulationStatus::painleve,
      SimulationStatus::unsupported,    SimulationStatus::event_limit,
      SimulationStatus::solver_failure, SimulationStatus::no_consistent_mode,
      SimulationStatus::step_failure,   SimulationStatus::interrupted,
      SimulationStatus::diverged};
  return v;
}

template <>
const std::vector<InitialOverlap>& enum_values() {
  static const std::vector<InitialOverlap> v = {InitialOverlap::resolve, InitialOverlap::ignore,
                                                InitialOverlap::refuse};
  return v;
}

template <class E>
E enum_from_name(const std::string& name, const std::string& path) {
  for (E e : enum_values<E>())
    if (to_string(e) == name) return e;
  MOREAU_REQUIRE(false, "{} = \"{}\": must be {}", path, name, enum_name_list<E>());
  return enum_values<E>().front();
}

template Integrator enum_from_name<Integrator>(const std::string&, const std::string&);
template PainlevePolicy enum_from_name<PainlevePolicy>(const std::string&, const std::string&);
template TimeSteppingScheme enum_from_name<TimeSteppingScheme>(const std::string&,
                                                               const std::string&);
template NewtonLoop enum_from_name<NewtonLoop>(const std::string&, const std::string&);
template ImpactLaw enum_from_name<ImpactLaw>(const std::string&, const std::string&);
template ContactMode enum_from_name<ContactMode>(const std::string&, const std::string&);
template EventKind enum_from_name<EventKind>(const std::string&, const std::string&);
template SimulationStatus enum_from_name<SimulationStatus>(const std::string&, const std::string&);
template InitialOverlap enum_from_name<InitialOverlap>(const std::string&, const std::string&);

}  // namespace moreau
