// Python bindings: LCP and MLCP problems, their residuals, solvers and the Siconos text readers.
// numpy arrays in and out; std::invalid_argument (bad sizes, NaN, unknown solver) → ValueError.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "bindings.hpp"
#include "moreau/common/error.hpp"
#include "moreau/io/problems/siconos_text.hpp"
#include "moreau/problems/lcp.hpp"
#include "moreau/problems/mlcp.hpp"
#include "moreau/solvers/lcp/enumeration.hpp"
#include "moreau/solvers/lcp/fischer_burmeister.hpp"
#include "moreau/solvers/lcp/lemke.hpp"
#include "moreau/solvers/lcp/pgs.hpp"
#include "moreau/solvers/mlcp/direct.hpp"
#include "moreau/solvers/mlcp/fischer_burmeister.hpp"
#include "moreau/solvers/mlcp/pgs.hpp"

namespace moreau::python {

namespace {

Vector guess_or_empty(const std::optional<Vector>& guess) { return guess ? *guess : Vector(); }

LcpResult solve_lcp_py(const Lcp& problem, const std::string& solver, std::optional<double> tol,
                       std::optional<int> max_iter, const std::optional<Vector>& guess,
                       double relaxation) {
  if (solver == "lemke") {
    MOREAU_REQUIRE(!guess, "solver 'lemke' takes no guess (it always starts from z = 0)");
    LemkeSettings s;
    if (tol) s.tolerance = *tol;
    if (max_iter) s.max_pivots = *max_iter;
    return solve_lemke(problem, s);
  }
  if (solver == "pgs") {
    LcpPgsSettings s;
    if (tol) s.tolerance = *tol;
    if (max_iter) s.max_iterations = *max_iter;
    s.relaxation = relaxation;
    return solve_lcp_pgs(problem, s, guess_or_empty(guess));
  }
  if (solver == "fischer_burmeister" || solver == "newton") {
    LcpNewtonSettings s;
    if (tol) s.tolerance = *tol;
    if (max_iter) s.max_iterations = *max_iter;
    return solve_lcp_fischer_burmeister(problem, s, guess_or_empty(guess));
  }
  throw_invalid("unknown LCP solver '{}': use 'lemke', 'pgs', 'fischer_burmeister' or 'newton'",
                solver);
}

MlcpResult solve_mlcp_py(const Mlcp& problem, const std::string& solver, std::optional<double> tol,
                         std::optional<int> max_iter, const std::optional<Vector>& guess,
                         double relaxation) {
  if (solver == "direct") {
    MOREAU_REQUIRE(!guess, "solver 'direct' takes no guess");
    MlcpDirectSettings s;
    if (tol) s.tolerance = *tol;
    if (max_iter) s.max_pivots = *max_iter;
    return solve_mlcp_direct(problem, s);
  }
  if (solver == "pgs") {
    MlcpPgsSettings s;
    if (tol) s.tolerance = *tol;
    if (max_iter) s.max_iterations = *max_iter;
    s.relaxation = relaxation;
    return solve_mlcp_pgs(problem, s, guess_or_empty(guess));
  }
  if (solver == "fischer_burmeister" || solver == "newton") {
    MlcpNewtonSettings s;
    if (tol) s.tolerance = *tol;
    if (max_iter) s.max_iterations = *max_iter;
    return solve_mlcp_fischer_burmeister(problem, s, Vector(), guess_or_empty(guess));
  }
  throw_invalid("unknown MLCP solver '{}': use 'direct', 'pgs', 'fischer_burmeister' or 'newton'",
                solver);
}

}  // namespace

void bind_lcp(py::module_& m) {
  py::class_<Lcp>(m, "Lcp", "Linear complementarity problem: w = M z + q, 0 ≤ z ⊥ w ≥ 0")
      .def(py::init([](const Matrix& M, const Vector& q) {
             Lcp p{M, q};
             p.validate();
             return p;
           }),
           py::arg("M"), py::arg("q"))
      .def_readonly("M", &Lcp::M)
      .def_readonly("q", &Lcp::q)
      .def_property_readonly("size", &Lcp::size)
      .def("__repr__", [](const Lcp& p) { return "Lcp(size=" + std::to_string(p.size()) + ")"; });

  py::class_<Mlcp>(m, "Mlcp",
                   "Mixed LCP (Siconos convention): A u + C v + a = 0, w = D u + B v + b, "
                   "0 ≤ v ⊥ w ≥ 0")
      .def(py::init([](const Matrix& A, const Matrix& B, const Matrix& C, const Matrix& D,
                       const Vector& a, const Vector& b) {
             Mlcp p{A, B, C, D, a, b};
             p.validate();
             return p;
           }),
           py::arg("A"), py::arg("B"), py::arg("C"), py::arg("D"), py::arg("a"), py::arg("b"))
      .def_readonly("A", &Mlcp::A)
      .def_readonly("B", &Mlcp::B)
      .def_readonly("C", &Mlcp::C)
      .def_readonly("D", &Mlcp::D)
      .def_readonly("a", &Mlcp::a)
      .def_readonly("b", &Mlcp::b)
      .def_property_readonly("equalities", &Mlcp::equalities)
      .def_property_readonly("complementarities", &Mlcp::complementarities)
      .def("__repr__", [](const Mlcp& p) {
        return "Mlcp(equalities=" + std::to_string(p.equalities()) +
               ", complementarities=" + std::to_string(p.complementarities()) + ")";
      });

  py::class_<LcpResult, SolverReport>(m, "LcpResult")
      .def_readonly("z", &LcpResult::z)
      .def_readonly("w", &LcpResult::w);
  py::class_<MlcpResult, SolverReport>(m, "MlcpResult")
      .def_readonly("u", &MlcpResult::u)
      .def_readonly("v", &MlcpResult::v)
      .def_readonly("w", &MlcpResult::w);

  m.def("lcp_residual", &lcp_residual, py::arg("problem"), py::arg("z"),
        "‖min(z, M z + q)‖ / max(‖q‖, ‖z‖, ‖M z + q‖): 0 exactly at solutions");
  m.def("mlcp_residual", &mlcp_residual, py::arg("problem"), py::arg("u"), py::arg("v"),
        "√(‖A u + C v + a‖² + ‖min(v, w)‖²) / max(‖a‖, ‖b‖, ‖v‖, ‖w‖)");
  m.def("solve_lcp", &solve_lcp_py, py::arg("problem"), py::arg("solver") = "lemke",
        py::arg("tol") = py::none(), py::arg("max_iter") = py::none(),
        py::arg("guess") = py::none(), py::arg("relaxation") = 1.0,
        "Solve an LCP with 'lemke' (max_iter = pivots), 'pgs' (sweeps; relaxation ω) or "
        "'fischer_burmeister'/'newton'. tol/max_iter default to each solver's settings.");
  m.def(
      "enumerate_lcp",
      [](const Lcp& problem, int max_size, double tol) {
        LcpEnumerationSettings s;
        s.max_size = max_size;
        s.tolerance = tol;
        return enumerate_lcp(problem, s).solutions;
      },
      py::arg("problem"), py::arg("max_size") = LcpEnumerationSettings{}.max_size,
      py::arg("tol") = LcpEnumerationSettings{}.tolerance,
      "Every distinct solution z of the LCP (list of arrays; empty when infeasible)");
  m.def("solve_mlcp", &solve_mlcp_py, py::arg("problem"), py::arg("solver") = "direct",
        py::arg("tol") = py::none(), py::arg("max_iter") = py::none(),
        py::arg("guess") = py::none(), py::arg("relaxation") = 1.0,
        "Solve an MLCP with 'direct' (Lemke on the reduced/split LCP, Newton fallback), 'pgs' "
        "(guess = v) or 'fischer_burmeister'/'newton' (guess = v).");
  m.def("read_siconos_lcp", &read_siconos_lcp, py::arg("path"),
        "Read a Siconos-numerics text LCP file");
  m.def("read_siconos_mlcp", &read_siconos_mlcp, py::arg("path"),
        "Read a Siconos-numerics text MLCP file");
}

}  // namespace moreau::python
