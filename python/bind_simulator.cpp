// Python binding of moreau::Simulator (sim/simulator.hpp): moreau._moreau._Simulator, wrapped by
// moreau.Simulator (python/moreau/_simulator.py). qfrc_applied, xfrc_applied and ctrl are NumPy
// views of the held inputs, whose storage never moves: assigning one copies into it and refuses
// another shape (so no view is left dangling); q and v are copies, written through set_state.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "moreau/common/error.hpp"
#include "moreau/io/import/load_scene.hpp"
#include "moreau/io/run/simulation_output.hpp"
#include "moreau/io/json/json_reader.hpp"
#include "moreau/io/scene/integrator_settings.hpp"
#include "moreau/io/scene/scene.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
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

// The simulator of a scene (path or JSON text; a model file placed by the options), its
// integrator object overridden by integrator_json's keys (e.g. {"dt": 1e-3}), and the import's
// warnings. The settings are those simulate() runs the scene with (output.every and interval
// become the record interval).
// The simulator, the import's warnings and the scene's output.format and output.plot.
struct Loaded {
  std::unique_ptr<Simulator> sim;
  std::vector<std::string> warnings;
  std::string format;
  bool plot = false;
};

Loaded make_simulator(const std::string& text, bool is_path, const std::string& options_json,
                      const std::string& integrator_json) {
  Scene scene = load_model(text, is_path, options_json);
  MOREAU_REQUIRE(scene.world != nullptr,
                 "{}: a Simulator steps a rigid world (bodies, joints); this scene names a gallery "
                 "system",
                 is_path ? text : std::string("scene"));
  if (!integrator_json.empty())
    read_integrator_settings(json_io::parse_text(integrator_json, "integrator"), "integrator",
                             scene.settings);
  SimulationSettings settings = scene.settings;
  apply_output_records(scene, settings);
  auto sim = json_io::with_source(is_path ? text : std::string("scene"), [&] {
    return std::make_unique<Simulator>(scene.world, scene.collision, settings);
  });
  std::vector<std::string> notes = scene.warnings;  // the import's, then the start pose's
  for (const std::string& n : sim->system().start_notes()) notes.push_back(n);
  return {std::move(sim), notes, scene.output.format, scene.output.plot.value_or(false)};
}

// The recording so far as moreau.SimulationResult reads it, written to `out` when given (format
// "csv" or "hdf5"; "" the csv default).
// The recording stays on when the outputs cannot be written.
py::dict stop_recording(Simulator& s, const std::string& out, const std::string& format) {
  MOREAU_REQUIRE(s.recording(), "stop_recording: no recording is on (call start_recording())");
  const OutputFormat f =
      format.empty() ? OutputFormat::csv : output_format_from_name(format, "format");
  SimulationResult res = s.stop_recording();
  if (!out.empty()) {
    try {
      write_simulation_outputs(res, out, nullptr, f, &s.system());
    } catch (...) {
      s.resume_recording(std::move(res));
      throw;
    }
  }
  return result_dict(res, false);
}

}  // namespace

void bind_simulator(py::module_& m) {
  py::class_<SimulatorContact>(m, "Contact",
                               "One contact of the simulator's last step (Simulator.contacts).")
      .def_readonly("name", &SimulatorContact::name, "as in contacts.csv")
      .def_readonly("body_a", &SimulatorContact::body_a, "the first body")
      .def_readonly("body_b", &SimulatorContact::body_b,
                    "the second body (the normal points from it towards body_a)")
      .def_readonly("point", &SimulatorContact::point,
                    "world point midway between the witness points, m")
      .def_readonly("normal", &SimulatorContact::normal, "unit normal, world axes")
      .def_readonly("impulse", &SimulatorContact::impulse,
                    "the step's impulse on body_a, world axes, N·s")
      .def_readonly("r_n", &SimulatorContact::r_n, "its normal component, N·s")
      .def_readonly("r_t", &SimulatorContact::r_t, "its tangential components, N·s")
      .def_readonly("gap", &SimulatorContact::gap, "m, after the step")
      .def_property_readonly(
          "mode", [](const SimulatorContact& c) { return to_string(c.mode); },
          "'stick', 'slip' or 'separate'")
      .def("__repr__", [](const SimulatorContact& c) {
        return fmt::format(
            "moreau.Contact('{}', {} on {}, point=({:.4g}, {:.4g}, {:.4g}), "
            "r_n={:.4g} N·s, {})",
            c.name, c.body_a, c.body_b, c.point[0], c.point[1], c.point[2], c.r_n,
            to_string(c.mode));
      });
  py::class_<Simulator, std::shared_ptr<Simulator>>(m, "_Simulator")
      .def_static(
          "load",
          [](const std::string& text, bool is_path, const std::string& options_json,
             const std::string& integrator_json) {
            Loaded l = make_simulator(text, is_path, options_json, integrator_json);
            return py::make_tuple(std::shared_ptr<Simulator>(std::move(l.sim)), l.warnings,
                                  l.format, l.plot);
          },
          py::arg("text"), py::arg("is_path"), py::arg("options_json") = "",
          py::arg("integrator_json") = "")
      .def(
          "step",
          [](Simulator& s, long n) {
            py::gil_scoped_release release;
            s.step(n);
          },
          py::arg("n") = 1)
      .def(
          "advance",
          [](Simulator& s, double dt) {
            py::gil_scoped_release release;
            s.advance(dt);
          },
          py::arg("dt"))
      .def_property_readonly("t", &Simulator::t)
      .def_property_readonly("q", [](const Simulator& s) { return Vector(s.q()); })
      .def_property_readonly("v", [](const Simulator& s) { return Vector(s.v()); })
      .def("set_state", &Simulator::set_state, py::arg("q"), py::arg("v"))
      .def("reset", [](Simulator& s) { s.reset(); })
      .def(
          "reset_to", [](Simulator& s, const std::string& k) { s.reset(k); }, py::arg("keyframe"))
      .def_property_readonly("keyframe_names", &Simulator::keyframe_names)
      .def("body_index", &Simulator::body_index, py::arg("name"))
      .def(
          "body_poses",
          [](const Simulator& s, const Vector& q) {
            const std::vector<Pose> poses = s.body_poses(q);
            Matrix position(static_cast<Index>(poses.size()), 3),
                quaternion(static_cast<Index>(poses.size()), 4);
            for (size_t b = 0; b < poses.size(); ++b) {
              const Index i = static_cast<Index>(b);
              position.row(i) = poses[b].position.transpose();
              const Quaternion& o = poses[b].orientation;
              quaternion.row(i) << o.w(), o.x(), o.y(), o.z();
            }
            return std::make_pair(position, quaternion);
          },
          py::arg("q"))
      .def("body_jacobian", &Simulator::body_jacobian, py::arg("q"), py::arg("body"))
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
      .def("bias_forces", &Simulator::bias_forces, py::arg("q"), py::arg("v"))
      .def(
          "integrate",
          [](const Simulator& s, const Vector& q, const Vector& dq) {
            MOREAU_REQUIRE(q.size() == s.nq() && dq.size() == s.nv(),
                           "integrate: q has {} entries and dq {}, expected nq = {} and nv = {}",
                           q.size(), dq.size(), s.nq(), s.nv());
            return s.system().integrate(q, dq, 1.0);
          },
          py::arg("q"), py::arg("dq"))
      .def(
          "difference",
          [](const Simulator& s, const Vector& q0, const Vector& q1) {
            MOREAU_REQUIRE(q0.size() == s.nq() && q1.size() == s.nq(),
                           "difference: q0 has {} entries and q1 {}, expected nq = {}", q0.size(),
                           q1.size(), s.nq());
            return s.system().difference(q0, q1);
          },
          py::arg("q0"), py::arg("q1"))
      .def(
          "step_derivatives",
          [](Simulator& s, double solver_tolerance, double mode_tolerance, double difference_step,
             double input_step,
             const std::vector<std::tuple<std::string, std::string, std::string, double>>& params,
             const std::string& options_json) {
            StepDerivativeSettings ds;
            ds.solver_tolerance = solver_tolerance;
            ds.mode_tolerance = mode_tolerance;
            ds.difference_step = difference_step;
            ds.input_step = input_step;
            // each parameter's scenes (JSON text at p ± δ) loaded as the simulator's was
            std::vector<WorldParameter> worlds;
            for (const auto& [name, plus, minus, delta] : params) {
              WorldParameter w{name, load_model(plus, false, options_json).world,
                               load_model(minus, false, options_json).world, delta};
              MOREAU_REQUIRE(w.plus && w.minus,
                             "step_derivatives: parameter '{}': the scene has no rigid world",
                             name);
              worlds.push_back(std::move(w));
            }
            const StepDerivatives d = s.step_derivatives(ds, worlds);
            py::dict out;
            out["q_next"] = d.q_next;
            out["v_next"] = d.v_next;
            out["dv_dq"] = d.dv_dq;
            out["dv_dv"] = d.dv_dv;
            out["dv_dctrl"] = d.dv_dctrl;
            out["dv_dqfrc"] = d.dv_dqfrc;
            out["dq_dq"] = d.dq_dq;
            out["dq_dv"] = d.dq_dv;
            out["dq_dctrl"] = d.dq_dctrl;
            out["dq_dqfrc"] = d.dq_dqfrc;
            out["dv_dparams"] = d.dv_dparams;
            out["dq_dparams"] = d.dq_dparams;
            py::list contacts;
            for (const ContactDerivativeMode& c : d.contacts) {
              py::dict e;
              e["name"] = c.name;
              e["mode"] = to_string(c.mode);
              e["degenerate"] = c.degenerate;
              e["boundary"] = c.boundary;
              contacts.append(e);
            }
            out["contacts"] = contacts;
            out["dry_friction_stuck"] = d.dry_friction_stuck;
            out["solver_residual"] = d.solver_residual;
            return out;
          },
          py::arg("solver_tolerance"), py::arg("mode_tolerance"), py::arg("difference_step"),
          py::arg("input_step"), py::arg("params"), py::arg("options_json"))
      .def_property_readonly("contacts", &Simulator::contacts)
      .def_property_readonly("dt", [](const Simulator& s) { return s.settings().time_stepping.dt; })
      .def_property_readonly("t_end", [](const Simulator& s) { return s.settings().t_end; })
      .def_property_readonly("recording", &Simulator::recording)
      .def_property_readonly("integrator",
                             [](const Simulator& s) { return to_string(s.settings().integrator); })
      .def("start_recording", &Simulator::start_recording)
      .def("stop_recording", &stop_recording, py::arg("out") = "", py::arg("format") = "");
}

}  // namespace moreau::python
