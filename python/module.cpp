// The compiled part of the `moreau` Python package: one bind_<layer>.cpp per layer.
#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "moreau/version.hpp"

PYBIND11_MODULE(_moreau, m) {
  m.doc() = "moreau: nonsmooth contact dynamics (compiled core)";
  m.attr("__version__") = MOREAU_VERSION;
  moreau::python::bind_common(m);
  moreau::python::bind_lcp(m);
  moreau::python::bind_friction_contact(m);
  moreau::python::bind_fclib(m);
  moreau::python::bind_model(m);
  moreau::python::bind_analysis(m);
  moreau::python::bind_impact(m);
  moreau::python::bind_sim(m);
  moreau::python::bind_simulator(m);
}
