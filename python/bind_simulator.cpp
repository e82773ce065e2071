// Python binding of moreau::Simulator (sim/simulator.hpp): moreau._moreau._Simulator, wrapped by
// moreau.Simulator (python/moreau/_simulator.py). qfrc_applied, xfrc_applied and ctrl are NumPy
// views of the held inputs, whose storage never moves: assigning one copies into it and refuses
// another shape (so no view is left dangling); q and v are copies, written through set_state.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "moreau/common/error.hpp"
#include "moreau/io/import/load_scene.hpp"
#include "moreau/io/scene/scene.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau::python {
namespace {

// Copies x into the held input `slot` in place, refusing another shape (naming `field`).
template <class Slot, class Value>
void assign_input(Slot& slot, const Value& x, const char* field) {
  MOREAU_REQUIRE(x.rows() == slot.rows() && x.cols() == slot.cols(),
                 "{}: got shape ({}, {}), the simulator holds ({}, {})", field, x.rows(), x.cols(),
                 slot.rows(), slot.cols());
  slot = x;  // same size: no reallocation
}

// The simulator of a scene (path or JSON text; a model file placed by the options) and the
// import's warnings.
std::pair<std::unique_ptr<Simulator>, std::vector<std::string>> make_simulator(
    const std::string& text, bool is_path, bool floating_base, bool ground) {
  const Scene scene =
      is_path
          ? load_scene(text, ModelImportOptions{.floating_base = floating_base, .ground = ground})
          : parse_scene_text(text, "scene");
  MOREAU_REQUIRE(scene.world != nullptr,
                 "{}: a Simulator steps a rigid world (bodies, joints); this scene names a gallery "
                 "system",
                 is_path ? text : std::string("scene"));
  return {std::make_unique<Simulator>(scene.world, scene.collision, scene.settings),
          scene.warnings};
}

}  // namespace

void bind_simulator(py::module_& m) {
  py::class_<Simulator, std::shared_ptr<Simulator>>(m, "_Simulator")
      .def_static(
          "load",
          [](const std::string& text, bool is_path, bool floating_base, bool ground) {
            auto [sim, warnings] = make_simulator(text, is_path, floating_base, ground);
            return std::make_pair(std::shared_ptr<Simulator>(std::move(sim)), warnings);
          },
          py::arg("text"), py::arg("is_path"), py::arg("floating_base") = false,
          py::arg("ground") = false)
      .def(
          "step",
          [](Simulator& s, long n) {
            py::gil_scoped_release release;
            s.step(n);
          },
          py::arg("n") = 1)
      .def_property_readonly("t", &Simulator::t)
      .def_property_readonly("q", [](const Simulator& s) { return Vector(s.q()); })
      .def_property_readonly("v", [](const Simulator& s) { return Vector(s.v()); })
      .def("set_state", &Simulator::set_state, py::arg("q"), py::arg("v"))
      .def("reset", &Simulator::reset)
      .def_property(
          "qfrc_applied", [](Simulator& s) -> Eigen::Ref<Vector> { return s.qfrc_applied(); },
          [](Simulator& s, const Vector& x) { assign_input(s.qfrc_applied(), x, "qfrc_applied"); },
          py::return_value_policy::reference_internal)
      .def_property(
          "xfrc_applied", [](Simulator& s) -> Eigen::Ref<Matrix> { return s.xfrc_applied(); },
          [](Simulator& s, const Matrix& x) { assign_input(s.xfrc_applied(), x, "xfrc_applied"); },
          py::return_value_policy::reference_internal)
      .def_property(
          "ctrl", [](Simulator& s) -> Eigen::Ref<Vector> { return s.ctrl(); },
          [](Simulator& s, const Vector& x) { assign_input(s.ctrl(), x, "ctrl"); },
          py::return_value_policy::reference_internal)
      .def_property_readonly("nu", &Simulator::nu)
      .def_property_readonly("actuator_names", &Simulator::actuator_names)
      .def_property_readonly("actuator_forces", &Simulator::actuator_forces)
      .def_property_readonly("nq", &Simulator::nq)
      .def_property_readonly("nv", &Simulator::nv)
      .def_property_readonly("coordinate_names", &Simulator::coordinate_names)
      .def_property_readonly("velocity_names", &Simulator::velocity_names)
      .def_property_readonly("body_names", &Simulator::body_names)
      .def("mass_matrix", &Simulator::mass_matrix, py::arg("q"))
      .def("inverse_dynamics", &Simulator::inverse_dynamics, py::arg("q"), py::arg("v"),
           py::arg("a"))
      .def("bias_forces", &Simulator::bias_forces, py::arg("q"), py::arg("v"));
}

}  // namespace moreau::python
