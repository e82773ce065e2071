// Python bindings of the contact-analysis entry points owned by the model engineer: the
// acceleration/velocity problem data (contact layer) and the JSON report shared with
// `moreau analyze` (moreau.analyze in _analysis.py parses it into a dict).
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <utility>

#include "bindings.hpp"
#include "moreau/contact/velocity_problem.hpp"
#include "moreau/io/reports/analysis_report.hpp"

namespace moreau::python {

void bind_analysis(py::module_& m) {
  py::class_<AccelerationProblem>(m, "AccelerationProblem")
      .def_readonly("dimension", &AccelerationProblem::dimension)
      .def_readonly("active", &AccelerationProblem::active)
      .def_readonly("bilateral", &AccelerationProblem::bilateral)
      .def_readonly("sliding", &AccelerationProblem::sliding)
      .def_readonly("M", &AccelerationProblem::M)
      .def_readonly("F", &AccelerationProblem::F)
      .def_readonly("mass_positive_definite", &AccelerationProblem::mass_positive_definite)
      .def_readonly("N", &AccelerationProblem::N)
      .def_readonly("T", &AccelerationProblem::T)
      .def_readonly("c_n", &AccelerationProblem::c_n)
      .def_readonly("c_t", &AccelerationProblem::c_t)
      .def_readonly("mu", &AccelerationProblem::mu)
      .def_readonly("gamma", &AccelerationProblem::gamma)
      .def_readonly("kN", &AccelerationProblem::kN)
      .def_readonly("kT", &AccelerationProblem::kT)
      .def_readonly("normal_velocity", &AccelerationProblem::normal_velocity)
      .def_readonly("tangent_velocity", &AccelerationProblem::tangent_velocity)
      .def_readonly("slip_direction", &AccelerationProblem::slip_direction)
      .def_readonly("Q", &AccelerationProblem::Q)
      .def_readonly("N_minus_muQ", &AccelerationProblem::N_minus_muQ)
      .def_readonly("free_acceleration", &AccelerationProblem::free_acceleration)
      .def_readonly("free_normal_acceleration", &AccelerationProblem::free_normal_acceleration)
      .def_readonly("free_tangent_acceleration", &AccelerationProblem::free_tangent_acceleration)
      .def_readonly("mass_inverse_N", &AccelerationProblem::mass_inverse_N)
      .def_readonly("mass_inverse_T", &AccelerationProblem::mass_inverse_T)
      .def_readonly("delassus_nn", &AccelerationProblem::delassus_nn)
      .def_readonly("delassus_nt", &AccelerationProblem::delassus_nt)
      .def_readonly("delassus_tt", &AccelerationProblem::delassus_tt)
      .def_readonly("sliding_matrix", &AccelerationProblem::sliding_matrix);
  m.def(
      "build_acceleration_problem",
      [](const ContactState& s, double gap_tol, double vel_tol) {
        return build_acceleration_problem(s, ActiveSetSettings{gap_tol, vel_tol});
      },
      py::arg("state"), py::arg("gap_tolerance") = 1e-9, py::arg("velocity_tolerance") = 1e-9);
  m.def(
      "build_acceleration_problem_for",
      [](const ContactState& s, std::vector<Index> active, double vel_tol) {
        return build_acceleration_problem(s, std::move(active), vel_tol);
      },
      py::arg("state"), py::arg("active"), py::arg("velocity_tolerance") = 1e-9,
      "The acceleration-level problem of the given constraints (increasing indices), whatever "
      "their gaps.");

  py::class_<VelocityProblem>(m, "VelocityProblem")
      .def_readonly("dimension", &VelocityProblem::dimension)
      .def_readonly("step", &VelocityProblem::step)
      .def_readonly("active", &VelocityProblem::active)
      .def_readonly("bilateral", &VelocityProblem::bilateral)
      .def_readonly("M", &VelocityProblem::M)
      .def_readonly("v", &VelocityProblem::v)
      .def_readonly("v_free", &VelocityProblem::v_free)
      .def_readonly("N", &VelocityProblem::N)
      .def_readonly("T", &VelocityProblem::T)
      .def_readonly("H", &VelocityProblem::H)
      .def_readonly("mu", &VelocityProblem::mu)
      .def_readonly("gamma", &VelocityProblem::gamma)
      .def_readonly("kN", &VelocityProblem::kN)
      .def_readonly("restitution", &VelocityProblem::restitution)
      .def_readonly("W", &VelocityProblem::W)
      .def_readonly("q", &VelocityProblem::q)
      .def_readonly("mass_positive_definite", &VelocityProblem::mass_positive_definite);
  m.def(
      "build_velocity_problem",
      [](const ContactState& s, double h, double gap_tol, double vel_tol) {
        return build_velocity_problem(s, h, ActiveSetSettings{gap_tol, vel_tol});
      },
      py::arg("state"), py::arg("step"), py::arg("gap_tolerance") = 1e-9,
      py::arg("velocity_tolerance") = 1e-9);

  m.def(
      "_analyze_report",
      [](const ContactState& s, const std::string& label, bool all_sticking) {
        return analysis_report(s, label, all_sticking, "moreau.analyze(" + label + ")").dump();
      },
      py::arg("state"), py::arg("label") = "system", py::arg("all_sticking") = false,
      "The `moreau analyze --json` report of a ContactState, as a JSON string (ValueError when "
      "a number of it is not finite).");
}

}  // namespace moreau::python
