// Python bindings: FCLIB HDF5 I/O (moreau/io/problems/fclib.hpp) and moreau.solve for local and
// global frictional contact problems. The problem and result classes are bound in
// bind_friction_contact.cpp. Errors: a bad file is ValueError (std::invalid_argument), a failed
// write is OSError; both messages name the file.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "bindings.hpp"
#include "moreau/io/problems/fclib.hpp"
#include "moreau/solvers/fc/friction_contact_solver.hpp"

namespace moreau::python {

namespace {

// Runs f, turning std::runtime_error (I/O failure) into OSError.
template <typename F>
auto as_os_error(F&& f) {
  try {
    return f();
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::runtime_error& e) {
    PyErr_SetString(PyExc_OSError, e.what());
    throw py::error_already_set();
  }
}

// Global problems: a global-registry name runs on the global form, anything else
// (a local solver name or "auto") on the condensed problem (same rule as `moreau solve`).
std::string global_solver_name(const std::string& solver, int dimension) {
  if (solver.rfind("condensed:", 0) == 0) return solver;
  if (solver != "auto")
    for (const auto& n : global_friction_contact_solver_names(dimension))
      if (n == solver) return solver;
  return "condensed:" + solver;
}

std::optional<FclibSolution> make_solution(const std::optional<Vector>& r,
                                           const std::optional<Vector>& u,
                                           const std::optional<Vector>& v, const char* what) {
  if (!r && !u && !v) return std::nullopt;
  if (!r) throw std::invalid_argument(std::string("write_fclib: ") + what + " needs r");
  FclibSolution s;
  s.r = *r;
  if (u) s.u = *u;
  if (v) s.v = *v;
  return s;
}

// Binds one overload of moreau.solve(problem, solver, tol, max_iter, time_limit, guess) for a
// local or a global problem; the solve runs without the GIL.
template <typename Problem>
void def_solve(py::module_& m, const char* doc) {
  m.def(
      "solve",
      [](const Problem& p, const std::string& solver, double tol, int max_iter, double time_limit,
         std::optional<Vector> guess) {
        constexpr bool global = std::is_same_v<Problem, GlobalFrictionContactProblem>;
        const std::string name = global ? global_solver_name(solver, p.dimension) : solver;
        py::gil_scoped_release release;
        const FrictionContactSettings settings{
            .tolerance = tol, .max_iterations = max_iter, .time_limit = time_limit};
        if constexpr (global)
          return solve_global_friction_contact(p, name, settings, guess ? *guess : Vector());
        else
          return solve_friction_contact(p, name, settings, guess ? *guess : Vector());
      },
      py::arg("problem"), py::arg("solver") = "auto", py::arg("tol") = 1e-8,
      py::arg("max_iter") = FrictionContactSettings{}.max_iterations,
      py::arg("time_limit") = std::numeric_limits<double>::infinity(),
      py::arg("guess") = py::none(), doc);
}

}  // namespace

void bind_fclib(py::module_& m) {
  py::enum_<FclibForm>(m, "FclibForm")
      .value("local", FclibForm::local)
      .value("global_", FclibForm::global);

  py::class_<FclibInfo>(m, "FclibInfo", "Title, description and math_info of an FCLIB problem")
      .def(py::init<>())
      .def_readwrite("title", &FclibInfo::title)
      .def_readwrite("description", &FclibInfo::description)
      .def_readwrite("math_info", &FclibInfo::math_info);

  py::class_<FclibSolution>(m, "FclibSolution",
                            "A guess or solution stored in an FCLIB file: r, u (and v, global)")
      .def(py::init<>())
      .def_readwrite("r", &FclibSolution::r)
      .def_readwrite("u", &FclibSolution::u)
      .def_readwrite("v", &FclibSolution::v);

  py::class_<FclibFile>(m, "FclibFile", "Everything an FCLIB file holds (see read_fclib_file)")
      .def_readonly("form", &FclibFile::form)
      .def_property_readonly("is_global", &FclibFile::is_global)
      .def_property_readonly("dimension", &FclibFile::dimension)
      .def_property_readonly("contacts", &FclibFile::contacts)
      .def_property_readonly(
          "problem",
          [](const FclibFile& f) -> py::object {
            return f.is_global() ? py::cast(f.global) : py::cast(f.local);
          },
          "The FrictionContactProblem or GlobalFrictionContactProblem")
      .def_readonly("info", &FclibFile::info)
      .def_readonly("guesses", &FclibFile::guesses)
      .def_readonly("solution", &FclibFile::solution);

  m.def("read_fclib_file", &read_fclib, py::arg("path"),
        "Read an FCLIB HDF5 file: problem, info, guesses and solution (ValueError if malformed)");
  m.def(
      "read_fclib",
      [](const std::filesystem::path& path) -> py::object {
        FclibFile f = read_fclib(path);
        return f.is_global() ? py::cast(std::move(f.global)) : py::cast(std::move(f.local));
      },
      py::arg("path"),
      "Read the problem of an FCLIB HDF5 file: a FrictionContactProblem (local, u = W r + q) or "
      "a GlobalFrictionContactProblem (M v = H r + f, u = Hᵀ v + w). ValueError names the file "
      "and the defect when the file is missing or malformed.");

  m.def(
      "write_fclib",
      [](const std::filesystem::path& path, const FrictionContactProblem& p,
         std::optional<Vector> r, std::optional<Vector> u, std::optional<Vector> guess_r,
         std::optional<Vector> guess_u, const std::string& title, const std::string& description,
         const std::string& math_info) {
        if (r && !u) u = Vector(p.W * *r + p.q);
        if (guess_r && !guess_u) guess_u = Vector(p.W * *guess_r + p.q);
        auto s = make_solution(r, u, std::nullopt, "the solution");
        auto g = make_solution(guess_r, guess_u, std::nullopt, "the guess");
        as_os_error([&] {
          write_fclib_local(path, p, s, g, FclibInfo{title, description, math_info});
          return 0;
        });
      },
      py::arg("path"), py::arg("problem"), py::arg("r") = py::none(), py::arg("u") = py::none(),
      py::arg("guess_r") = py::none(), py::arg("guess_u") = py::none(), py::arg("title") = "",
      py::arg("description") = "", py::arg("math_info") = "",
      "Write a local problem (and optional solution r, u = W r + q by default, and guess) to an "
      "FCLIB file, atomically.");
  m.def(
      "write_fclib",
      [](const std::filesystem::path& path, const GlobalFrictionContactProblem& p,
         std::optional<Vector> r, std::optional<Vector> u, std::optional<Vector> v,
         const std::string& title, const std::string& description, const std::string& math_info) {
        if (r && !v)
          throw std::invalid_argument("write_fclib: a global solution needs v as well as r");
        if (r && !u) u = Vector(p.H.transpose() * *v + p.w);
        auto s = make_solution(r, u, v, "the solution");
        as_os_error([&] {
          write_fclib_global(path, p, s, std::nullopt, FclibInfo{title, description, math_info});
          return 0;
        });
      },
      py::arg("path"), py::arg("problem"), py::arg("r") = py::none(), py::arg("u") = py::none(),
      py::arg("v") = py::none(), py::arg("title") = "", py::arg("description") = "",
      py::arg("math_info") = "",
      "Write a global problem (and optional solution r, v, u = Hᵀ v + w by default) to an FCLIB "
      "file, atomically.");

  def_solve<FrictionContactProblem>(
      m,
      "Solve a local frictional contact problem; returns the FrictionContactResult "
      "(status, iterations, residual, seconds, r, u).");
  def_solve<GlobalFrictionContactProblem>(
      m,
      "Solve a global frictional contact problem (condensed unless `solver` names a global "
      "solver); returns the FrictionContactResult (r, u and v).");
}

}  // namespace moreau::python
