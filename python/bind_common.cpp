// Python bindings of the common layer: Status and the SolverReport fields.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "moreau/common/status.hpp"

namespace moreau::python {

void bind_common(py::module_& m) {
  py::enum_<Status>(m, "Status")
      .value("not_run", Status::not_run)
      .value("converged", Status::converged)
      .value("max_iterations", Status::max_iterations)
      .value("numerical_failure", Status::numerical_failure)
      .value("ray_termination", Status::ray_termination)
      .value("time_limit", Status::time_limit)
      .value("infeasible", Status::infeasible);
  py::class_<SolverReport>(m, "SolverReport")
      .def_readonly("solver", &SolverReport::solver)
      .def_readonly("status", &SolverReport::status)
      .def_readonly("iterations", &SolverReport::iterations)
      .def_readonly("residual", &SolverReport::residual)
      .def_readonly("residual_history", &SolverReport::residual_history)
      .def_readonly("seconds", &SolverReport::seconds)
      .def_readonly("message", &SolverReport::message)
      .def_property_readonly("converged", &SolverReport::converged);
}

}  // namespace moreau::python
