// Python bindings: frictional contact problems (local and global, 2D and 3D), their residuals,
// the solver registry and condensation. Matrices come in as dense numpy arrays and are stored
// sparse (exact zeros dropped); the W, M, H properties return dense copies.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <limits>
#include <optional>

#include "bindings.hpp"
#include "moreau/solvers/fc/friction_contact_solver.hpp"
#include "moreau/solvers/fc/solver_choice.hpp"

namespace moreau::python {

namespace {

SparseMatrix to_sparse(const Matrix& A) {
  SparseMatrix S = A.sparseView(0.0, 0.0);
  S.makeCompressed();
  return S;
}

FrictionContactSettings settings(double tol, int max_iter, double time_limit) {
  FrictionContactSettings s;
  s.tolerance = tol;
  s.max_iterations = max_iter;
  s.time_limit = time_limit;
  return s;
}

}  // namespace

void bind_friction_contact(py::module_& m) {
  py::class_<FrictionContactProblem>(m, "FrictionContactProblem",
                                     "Local frictional contact problem u = W r + q, "
                                     "K_mu ∋ r ⊥ u + mu‖u_T‖e_n ∈ K*_mu (normal first)")
      .def(py::init([](const Matrix& W, const Vector& q, const Vector& mu, int dimension) {
             FrictionContactProblem p;
             p.dimension = dimension;
             p.W = to_sparse(W);
             p.q = q;
             p.mu = mu;
             p.validate();
             return p;
           }),
           py::arg("W"), py::arg("q"), py::arg("mu"), py::arg("dimension") = 3)
      .def_readonly("dimension", &FrictionContactProblem::dimension)
      .def_property_readonly("W", [](const FrictionContactProblem& p) { return Matrix(p.W); })
      .def_readonly("q", &FrictionContactProblem::q)
      .def_readonly("mu", &FrictionContactProblem::mu)
      .def_property_readonly("contacts", &FrictionContactProblem::contacts)
      .def_property_readonly("nnz", [](const FrictionContactProblem& p) { return p.W.nonZeros(); })
      .def("__repr__", [](const FrictionContactProblem& p) {
        return "FrictionContactProblem(dimension=" + std::to_string(p.dimension) +
               ", contacts=" + std::to_string(p.contacts()) + ")";
      });

  py::class_<GlobalFrictionContactProblem>(
      m, "GlobalFrictionContactProblem",
      "Global frictional contact problem M v = H r + f, u = Hᵀ v + w, same cone conditions")
      .def(py::init([](const Matrix& M, const Matrix& H, const Vector& f, const Vector& w,
                       const Vector& mu, int dimension) {
             GlobalFrictionContactProblem p;
             p.dimension = dimension;
             p.M = to_sparse(M);
             p.H = to_sparse(H);
             p.f = f;
             p.w = w;
             p.mu = mu;
             p.validate();
             return p;
           }),
           py::arg("M"), py::arg("H"), py::arg("f"), py::arg("w"), py::arg("mu"),
           py::arg("dimension") = 3)
      .def_readonly("dimension", &GlobalFrictionContactProblem::dimension)
      .def_property_readonly("M", [](const GlobalFrictionContactProblem& p) { return Matrix(p.M); })
      .def_property_readonly("H", [](const GlobalFrictionContactProblem& p) { return Matrix(p.H); })
      .def_readonly("f", &GlobalFrictionContactProblem::f)
      .def_readonly("w", &GlobalFrictionContactProblem::w)
      .def_readonly("mu", &GlobalFrictionContactProblem::mu)
      .def_property_readonly("contacts", &GlobalFrictionContactProblem::contacts)
      .def_property_readonly("dofs", &GlobalFrictionContactProblem::dofs)
      .def("__repr__", [](const GlobalFrictionContactProblem& p) {
        return "GlobalFrictionContactProblem(dimension=" + std::to_string(p.dimension) +
               ", contacts=" + std::to_string(p.contacts()) + ", dofs=" + std::to_string(p.dofs()) +
               ")";
      });

  py::class_<FrictionContactResult, SolverReport>(m, "FrictionContactResult")
      .def_readonly("r", &FrictionContactResult::r)
      .def_readonly("u", &FrictionContactResult::u)
      .def_readonly("v", &FrictionContactResult::v);

  m.def(
      "solve_friction_contact",
      [](const FrictionContactProblem& p, const std::string& solver, double tol, int max_iter,
         double time_limit, const std::optional<Vector>& guess) {
        py::gil_scoped_release release;
        return solve_friction_contact(p, solver, settings(tol, max_iter, time_limit),
                                      guess ? *guess : Vector());
      },
      py::arg("problem"), py::arg("solver") = "auto", py::arg("tol") = 1e-8,
      py::arg("max_iter") = 10000, py::arg("time_limit") = std::numeric_limits<double>::infinity(),
      py::arg("guess") = py::none(),
      "Solve a local frictional contact problem with the named solver (see "
      "friction_contact_solver_names); returns a FrictionContactResult.");
  m.def(
      "solve_global_friction_contact",
      [](const GlobalFrictionContactProblem& p, const std::string& solver, double tol, int max_iter,
         double time_limit, const std::optional<Vector>& guess) {
        py::gil_scoped_release release;
        return solve_global_friction_contact(p, solver, settings(tol, max_iter, time_limit),
                                             guess ? *guess : Vector());
      },
      py::arg("problem"), py::arg("solver") = "auto", py::arg("tol") = 1e-8,
      py::arg("max_iter") = 10000, py::arg("time_limit") = std::numeric_limits<double>::infinity(),
      py::arg("guess") = py::none(),
      "Solve a global frictional contact problem ('admm' or 'condensed:<local solver>').");
  m.def("friction_contact_solver_names", &friction_contact_solver_names, py::arg("dimension") = 3);
  m.def("global_friction_contact_solver_names", &global_friction_contact_solver_names,
        py::arg("dimension") = 3);
  m.def("friction_contact_solver_description", &friction_contact_solver_description,
        py::arg("name"));
  m.def("choose_friction_contact_solver", &choose_friction_contact_solver, py::arg("problem"));
  m.def(
      "explain_solver_choice",
      [](const FrictionContactProblem& p) {
        const FrictionContactSolverChoice c = explain_solver_choice(p);
        py::dict d;
        d["solver"] = c.solver;
        d["reason"] = c.reason;
        d["contacts"] = c.contacts;
        d["blocks_per_row"] = c.blocks_per_row;
        d["coupling"] = c.coupling;
        d["mu_max"] = c.mu_max;
        return d;
      },
      py::arg("problem"),
      "The default solver's choice for a problem: {'solver', 'reason', and the features it read: "
      "'contacts', 'blocks_per_row', 'coupling', 'mu_max'}.");
  m.def(
      "friction_contact_residual",
      [](const FrictionContactProblem& p, const Vector& r) {
        return friction_contact_residual(p, r);
      },
      py::arg("problem"), py::arg("r"),
      "Natural-map residual ‖r − P_K(r − û)‖ / max(‖q‖, ‖r‖, ‖u‖) with u = W r + q.");
  m.def("global_friction_contact_residual", &global_friction_contact_residual, py::arg("problem"),
        py::arg("v"), py::arg("r"));
  m.def("condense", &condense, py::arg("problem"),
        "Local form W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w of a global problem (ValueError if M is "
        "singular).");
}

}  // namespace moreau::python
