// Python bindings of the sim layer: moreau._moreau._simulate_scene, used by moreau.simulate
// (python/moreau/_simulate.py), which wraps the arrays in a SimulationResult.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <limits>
#include <memory>
#include <optional>

#include "bindings.hpp"
#include "moreau/io/reports/analysis_input.hpp"
#include "moreau/io/reports/analysis_report.hpp"
#include "moreau/io/scene/integrator_settings.hpp"
#include "moreau/io/os/interrupt_guard.hpp"
#include "moreau/io/json/json_reader.hpp"
#include "moreau/io/scene/scene.hpp"
#include "moreau/io/scene/scene_write.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
#include "moreau/io/run/simulation_output.hpp"
#include "moreau/io/import/load_scene.hpp"
#include "moreau/io/json/vocabulary.hpp"

namespace moreau::python {

py::dict result_dict(const SimulationResult& res, bool plot) {
  py::dict d;
  d["t"] = Eigen::Map<const Vector>(res.t.data(), static_cast<Index>(res.t.size())).eval();
  d["q"] = res.q_matrix();
  d["v"] = res.v_matrix();
  d["kinetic"] =
      Eigen::Map<const Vector>(res.kinetic.data(), static_cast<Index>(res.kinetic.size())).eval();
  d["potential"] =
      Eigen::Map<const Vector>(res.potential.data(), static_cast<Index>(res.potential.size()))
          .eval();
  d["position_names"] = res.position_names;
  d["velocity_names"] = res.velocity_names;
  d["contact_names"] = res.contact_names;
  py::list events;
  for (const auto& e : res.events) {
    py::dict ev;
    ev["t"] = e.t;
    ev["kind"] = to_string(e.kind);
    ev["contact"] = e.contact;
    ev["name"] = e.contact >= 0 && e.contact < static_cast<Index>(res.contact_names.size())
                     ? res.contact_names[e.contact]
                     : std::string();
    ev["detail"] = e.detail;
    events.append(ev);
  }
  d["events"] = events;
  const Index nc = static_cast<Index>(res.contacts.size());
  Vector ct(nc), gap(nc), rn(nc);
  Eigen::VectorXi cid(nc);
  Matrix rt(nc, std::max(1, res.dimension - 1)), point(nc, 3), normal(nc, 3);
  std::vector<std::string> modes;
  for (Index k = 0; k < nc; ++k) {
    const auto& c = res.contacts[k];
    ct[k] = c.t;
    cid[k] = static_cast<int>(c.contact);
    gap[k] = c.gap;
    rn[k] = c.r_n;
    for (Index j = 0; j < rt.cols(); ++j) rt(k, j) = j < c.r_t.size() ? c.r_t[j] : 0.0;
    modes.push_back(to_string(c.mode));
    point.row(k) = c.point.transpose();
    normal.row(k) = c.normal.transpose();
  }
  py::dict contacts;
  contacts["t"] = ct;
  contacts["contact"] = cid;
  contacts["gap"] = gap;
  contacts["r_n"] = rn;
  contacts["r_t"] = rt;
  contacts["mode"] = modes;
  contacts["point"] = point;
  contacts["normal"] = normal;
  d["contacts"] = contacts;
  py::dict summary = py::module_::import("json").attr("loads")(simulation_summary_json(res));
  summary["plot"] = plot;
  d["summary"] = summary;
  return d;
}

namespace {

// Ctrl-C during a run (issue 15 §3): on the main thread SIGINT and SIGTERM stop the run at the end
// of a step (io/os/interrupt_guard.hpp); the outputs so far are written (status `interrupted`) and
// KeyboardInterrupt is raised. Other threads keep Python's own handling.
bool on_main_thread() {
  const py::module_ threading = py::module_::import("threading");
  return threading.attr("current_thread")().is(threading.attr("main_thread")());
}

// Writes the outputs (when `out` is given), then raises KeyboardInterrupt for an interrupted run.
void finish(const SimulationResult& res, const std::string& out, const InterruptGuard* guard,
            OutputFormat format, const LagrangianSystem& system) {
  if (!out.empty()) write_simulation_outputs(res, out, guard, format, &system);
  if (res.status == SimulationStatus::interrupted) {
    PyErr_SetString(PyExc_KeyboardInterrupt,
                    out.empty() ? res.message.c_str()
                                : (res.message + "; the run so far is in " + out).c_str());
    throw py::error_already_set();
  }
}

}  // namespace

Scene load_model(const std::string& text, bool is_path, const std::string& options_json) {
  ModelImportOptions o;
  if (!options_json.empty()) {
    const nlohmann::json j = json_io::parse_text(options_json, "options");
    o.floating_base = j.value("floating_base", false);
    o.ground = j.value("ground", false);
    o.keyframe = j.value("keyframe", std::string());
    o.srdf = j.value("srdf", std::string());
    o.package_dirs = j.value("package_dirs", std::vector<std::string>());
    o.self_collision = j.value("self_collision", false);
    o.balance_inertia = j.value("balance_inertia", false);
    if (j.contains("initial_overlap"))
      o.initial_overlap = enum_from_name<InitialOverlap>(j["initial_overlap"].get<std::string>(),
                                                         "initial_overlap");
    if (j.contains("joints"))
      for (auto it = j["joints"].begin(); it != j["joints"].end(); ++it)
        o.joints.emplace_back(it.key(), it.value().get<double>());
    if (j.contains("base_pose")) {
      const std::vector<double> x = j["base_pose"].get<std::vector<double>>();
      Pose p;
      p.position = Vector3(x[0], x[1], x[2]);
      if (x.size() == 7) p.orientation = Quaternion(x[3], x[4], x[5], x[6]).normalized();
      o.base_pose = p;
    }
  }
  if (is_path) return load_scene(text, o);
  MOREAU_REQUIRE(!o.base_pose,
                 "base_pose places a URDF or MJCF model; a scene gives its bodies' "
                 "poses itself");
  Scene scene = parse_scene_text(text, "scene");
  apply_initial_state_options(scene, o);
  return scene;
}

namespace {

// A scene (path or JSON text, started as options_json says: load_model) run to t_end (NaN: the
// scene's), its integrator object overridden by the keys of integrator_json (a JSON object named
// as the scene's "integrator", e.g. {"kind": "event"} or {"dt": 1e-3}).
py::dict simulate_scene(const std::string& text, bool is_path, const std::string& out, double t_end,
                        const std::string& integrator_json, const std::string& format,
                        const std::string& options_json) {
  Scene scene = load_model(text, is_path, options_json);
  if (!integrator_json.empty())
    read_integrator_settings(json_io::parse_text(integrator_json, "integrator"), "integrator",
                             scene.settings);
  SceneRun run = prepare_scene_run(scene, "", t_end);
  if (!format.empty()) run.format = output_format_from_name(format, "format");
  std::optional<InterruptGuard> guard;
  if (on_main_thread()) guard.emplace();
  SimulationResult res;
  {
    py::gil_scoped_release release;
    res = simulate(*run.system, run.settings, Vector(), Vector(), {},
                   guard ? guard->stop_request() : nullptr);
  }
  finish(res, out, guard ? &*guard : nullptr, run.format, *run.system);
  py::dict d = result_dict(res, run.plot.value_or(false));
  d["import_warnings"] = scene.warnings;
  return d;
}

// The scene document of a model file (MJCF, URDF or scene JSON) and what its import ignored.
std::pair<std::string, std::vector<std::string>> convert_model(const std::string& path,
                                                               const std::string& options_json) {
  const Scene scene = load_model(path, true, options_json);
  return {scene_to_json(scene).dump(), scene.warnings};
}

// Any LagrangianSystem (a CallbackSystem of Python callables, a gallery system, …) from its
// initial_q / initial_v, with an "integrator" object named as in a scene (JSON text). The GIL
// stays held: a CallbackSystem calls back into Python at every evaluation.
py::dict simulate_system(const LagrangianSystem& system, double t_end,
                         const std::string& integrator_json, const std::string& out,
                         const std::string& format) {
  SimulationSettings settings;
  read_integrator_settings(json_io::parse_text(integrator_json, "integrator"), "integrator",
                           settings);
  settings.t_end = t_end;
  std::optional<InterruptGuard> guard;
  if (on_main_thread()) guard.emplace();
  const SimulationResult res =
      simulate(system, settings, Vector(), Vector(), {}, guard ? guard->stop_request() : nullptr);
  finish(res, out, guard ? &*guard : nullptr,
         format.empty() ? OutputFormat::csv : output_format_from_name(format, "format"), system);
  return result_dict(res, true);
}

// The system a scene describes (a rigid world or a gallery system), with its initial state.
std::shared_ptr<LagrangianSystem> scene_system(const std::string& text, bool is_path) {
  const Scene scene = is_path ? load_scene(text) : parse_scene_text(text, "scene");
  const SceneRun run = prepare_scene_run(scene, "", std::numeric_limits<double>::quiet_NaN());
  return std::const_pointer_cast<LagrangianSystem>(run.system);
}

// The document `moreau simulate --json` prints for a scene given as JSON text (a sweep's point).
std::string scene_result_json(const std::string& text) {
  const Scene scene = parse_scene_text(text, "point");
  const SceneRun run = prepare_scene_run(scene, "", std::numeric_limits<double>::quiet_NaN());
  SimulationResult res;
  {
    py::gil_scoped_release release;
    res = json_io::with_source("point", [&] { return simulate(*run.system, run.settings); });
  }
  return simulation_result_json(res);
}

// The report `moreau analyze --json` prints for an analyze input given as JSON text.
std::string analyze_input_json(const std::string& text) {
  const AnalysisInput in = parse_analysis_input_text(text, "point");
  return analysis_report(in.state, in.label, false, in.source).dump();
}

}  // namespace

void bind_sim(py::module_& m) {
  m.def("_scene_result_json", &scene_result_json, py::arg("scene_json"),
        "The result document of `moreau simulate --json` for a scene in JSON text.");
  m.def("_analyze_input_json", &analyze_input_json, py::arg("input_json"),
        "The report of `moreau analyze --json` for an analyze input in JSON text.");
  m.def("_scene_system", &scene_system, py::arg("text"), py::arg("is_path"),
        "The LagrangianSystem of a scene (path or JSON text), starting from the scene's state.");
  m.def("_simulate_scene", &simulate_scene, py::arg("text"), py::arg("is_path"), py::arg("out"),
        py::arg("t_end"), py::arg("integrator_json"), py::arg("format") = "",
        py::arg("options_json") = "",
        "Runs a scene (path or JSON text); returns a dict of arrays (see moreau.simulate).");
  m.def("_convert_model", &convert_model, py::arg("path"), py::arg("options_json") = "",
        "The scene JSON text of a model file (MJCF, URDF, scene) and the import's warnings.");
  m.def("_simulate_system", &simulate_system, py::arg("system"), py::arg("t_end"),
        py::arg("integrator_json"), py::arg("out"), py::arg("format") = "",
        "Runs any LagrangianSystem from its initial state; returns a dict of arrays (see "
        "moreau.simulate).");
}

}  // namespace moreau::python
