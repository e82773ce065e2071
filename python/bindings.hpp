#pragma once
// One function per layer, each defined in bind_<layer>.cpp. numpy arrays in and out
// (pybind11/eigen.h); std::invalid_argument becomes ValueError.
#include <pybind11/pybind11.h>

namespace moreau::python {
namespace py = pybind11;
void bind_common(py::module_& m);
void bind_lcp(py::module_& m);               // LCP, MLCP problems and solvers
void bind_friction_contact(py::module_& m);  // frictional contact problems and solvers
void bind_fclib(py::module_& m);             // FCLIB I/O and moreau.solve
void bind_model(py::module_& m);
void bind_analysis(py::module_& m);
void bind_impact(py::module_& m);
void bind_sim(py::module_& m);
void bind_simulator(py::module_& m);  // moreau::Simulator, a step at a time
}  // namespace moreau::python

namespace moreau {
struct SimulationResult;
struct Scene;
namespace python {
// The arrays of a result as moreau.SimulationResult reads them (bind_sim.cpp); plot: whether the
// caller draws plot.png.
py::dict result_dict(const SimulationResult& res, bool plot);
// The scene of a model file (is_path) or of JSON text, placed and started as options_json says:
// {"floating_base", "ground", "keyframe", "joints": {name: value}, "srdf", "base_pose": [x, y,
// z(, qw, qx, qy, qz)]} (io/scene/scene.hpp ModelImportOptions; "" for none). bind_sim.cpp.
Scene load_model(const std::string& text, bool is_path, const std::string& options_json);
}  // namespace python
}  // namespace moreau
