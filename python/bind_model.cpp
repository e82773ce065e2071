// Python bindings of the model layer: ContactState (the data every analysis reads), the abstract
// LagrangianSystem, CallbackSystem from Python callables, the planar rigid-body builder and the
// gallery (spatial rigid bodies come from a scene: moreau.scene_system) (moreau.gallery in
// _analysis.py wraps make_gallery_system).
#include <pybind11/eigen.h>
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "moreau/common/error.hpp"
#include "moreau/model/callback_system.hpp"
#include "moreau/contact/gallery.hpp"

namespace moreau::python {
namespace {

ConstraintKind parse_kind(const std::string& kind) {
  MOREAU_REQUIRE(kind == "unilateral" || kind == "bilateral",
                 "constraint kind must be 'unilateral' or 'bilateral', got '{}'", kind);
  return kind == "bilateral" ? ConstraintKind::bilateral : ConstraintKind::unilateral;
}

// A numpy-like object returned by a callback → n×k matrix (1-D arrays become one column);
// `what` names the callback and `field` the value in the messages. None, strings and objects
// that are not arrays of numbers are refused (numpy would turn None into NaN).
Matrix to_matrix(const py::handle& obj, const char* what, const char* field) {
  MOREAU_REQUIRE(!obj.is_none() && !py::isinstance<py::str>(obj),
                 "{}: '{}' = {} must be an array of numbers", what, field,
                 py::repr(obj).cast<std::string>());
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  MOREAU_REQUIRE(a, "{}: '{}' = {} must be an array of numbers", what, field,
                 py::repr(obj).cast<std::string>().substr(0, 60));
  if (a.ndim() == 0) return Matrix::Constant(1, 1, *a.data());
  if (a.ndim() == 1) return Eigen::Map<const Vector>(a.data(), a.shape(0));
  MOREAU_REQUIRE(a.ndim() == 2, "{}: '{}' must be 1-D or 2-D, got {} dimensions", what, field,
                 a.ndim());
  Matrix M(a.shape(0), a.shape(1));
  for (py::ssize_t i = 0; i < a.shape(0); ++i)
    for (py::ssize_t j = 0; j < a.shape(1); ++j) M(i, j) = *a.data(i, j);
  return M;
}

// A number returned by a callback (a Python or numpy scalar), named in the message otherwise.
double to_number(const py::handle& obj, const char* what, const char* field) {
  const bool number = !obj.is_none() && !py::isinstance<py::str>(obj) &&
                      PyNumber_Check(obj.ptr()) != 0 && !py::isinstance<py::array>(obj);
  MOREAU_REQUIRE(number, "{}: '{}' = {} must be a number", what, field,
                 py::repr(obj).cast<std::string>().substr(0, 60));
  return py::float_(py::reinterpret_borrow<py::object>(obj)).cast<double>();
}

// Python kinematics callback: (q, v) ↦ dict(gap, normal, tangent, normal_bias, tangent_bias) or the
// tuple (gap, normal[, tangent[, normal_bias[, tangent_bias]]]).
ConstraintCallback wrap_kinematics(py::function f) {
  return [f](const Vector& q, const Vector& v) {
    py::gil_scoped_acquire gil;
    py::object r = f(q, v);
    ConstraintKinematics k;
    auto take = [&](py::handle h, const char* field, bool vector_only) {
      Matrix M = to_matrix(h, "constraint kinematics", field);
      if (vector_only)
        MOREAU_REQUIRE(M.cols() == 1, "constraint kinematics: '{}' must be a vector", field);
      return M;
    };
    if (py::isinstance<py::dict>(r)) {
      py::dict d = r.cast<py::dict>();
      MOREAU_REQUIRE(d.contains("gap") && d.contains("normal"),
                     "constraint kinematics: the returned dict needs at least 'gap' and 'normal'");
      k.gap = to_number(d["gap"], "constraint kinematics", "gap");
      k.normal = take(d["normal"], "normal", true).col(0);
      if (d.contains("tangent")) k.tangent = take(d["tangent"], "tangent", false);
      if (d.contains("normal_bias"))
        k.normal_bias = to_number(d["normal_bias"], "constraint kinematics", "normal_bias");
      if (d.contains("tangent_bias"))
        k.tangent_bias = take(d["tangent_bias"], "tangent_bias", true).col(0);
    } else {
      MOREAU_REQUIRE(py::isinstance<py::sequence>(r) && !py::isinstance<py::str>(r),
                     "constraint kinematics: return (gap, normal[, tangent, c_n, c_t]) or a dict, "
                     "got {}",
                     py::repr(r).cast<std::string>().substr(0, 60));
      py::sequence s = r.cast<py::sequence>();
      MOREAU_REQUIRE(s.size() >= 2,
                     "constraint kinematics: return (gap, normal[, tangent, c_n, c_t]) or a dict");
      k.gap = to_number(s[0], "constraint kinematics", "gap");
      k.normal = take(s[1], "normal", true).col(0);
      if (s.size() > 2) k.tangent = take(s[2], "tangent", false);
      if (s.size() > 3) k.normal_bias = to_number(s[3], "constraint kinematics", "normal_bias");
      if (s.size() > 4) k.tangent_bias = take(s[4], "tangent_bias", true).col(0);
    }
    return k;
  };
}

}  // namespace

void bind_model(py::module_& m) {
  py::enum_<ConstraintKind>(m, "ConstraintKind")
      .value("bilateral", ConstraintKind::bilateral)
      .value("unilateral", ConstraintKind::unilateral);

  py::class_<ContactConstraint>(m, "ContactConstraint")
      .def(py::init<>())
      .def_readwrite("name", &ContactConstraint::name)
      .def_readwrite("kind", &ContactConstraint::kind)
      .def_readwrite("mu", &ContactConstraint::mu)
      .def_readwrite("restitution", &ContactConstraint::restitution)
      .def_readwrite("tangential_restitution", &ContactConstraint::tangential_restitution)
      .def_readwrite("gap", &ContactConstraint::gap)
      .def_readwrite("normal", &ContactConstraint::normal)
      .def_readwrite("tangent", &ContactConstraint::tangent)
      .def_readwrite("normal_bias", &ContactConstraint::normal_bias)
      .def_readwrite("tangent_bias", &ContactConstraint::tangent_bias)
      .def_readwrite("gamma", &ContactConstraint::gamma)
      .def_readwrite("baumgarte_alpha", &ContactConstraint::baumgarte_alpha)
      .def_readwrite("baumgarte_beta", &ContactConstraint::baumgarte_beta)
      .def("__repr__", [](const ContactConstraint& c) {
        return fmt::format("ContactConstraint('{}', gap={}, mu={})", c.name, c.gap, c.mu);
      });

  py::class_<ContactState>(m, "ContactState")
      .def(py::init<>())
      .def_readwrite("dimension", &ContactState::dimension)
      .def_readwrite("t", &ContactState::t)
      .def_readwrite("q", &ContactState::q)
      .def_readwrite("v", &ContactState::v)
      .def_readwrite("M", &ContactState::M)
      .def_readwrite("F", &ContactState::F)
      .def_readwrite("constraints", &ContactState::constraints)
      .def("normal_jacobian", &ContactState::normal_jacobian)
      .def("tangent_jacobian", &ContactState::tangent_jacobian)
      .def("normal_bias", &ContactState::normal_bias)
      .def("tangent_bias", &ContactState::tangent_bias)
      .def("friction", &ContactState::friction)
      .def("validate", &ContactState::validate)
      .def("__len__", &ContactState::size);

  py::class_<LagrangianSystem, std::shared_ptr<LagrangianSystem>>(m, "LagrangianSystem")
      .def_property_readonly("name", &LagrangianSystem::name)
      .def_property_readonly("dimension", &LagrangianSystem::dimension)
      .def_property_readonly("velocity_size", &LagrangianSystem::velocity_size)
      .def_property_readonly("position_size", &LagrangianSystem::position_size)
      .def_property_readonly("position_names", &LagrangianSystem::position_names)
      .def_property_readonly("velocity_names", &LagrangianSystem::velocity_names)
      .def("contact_state", &LagrangianSystem::contact_state, py::arg("q"), py::arg("v"),
           py::arg("t") = 0.0)
      .def("position_rate", &LagrangianSystem::position_rate, py::arg("q"), py::arg("v"))
      .def("normalize_position",
           [](const LagrangianSystem& s, Vector q) {
             s.normalize_position(q);
             return q;
           })
      .def("kinetic_energy", &LagrangianSystem::kinetic_energy)
      .def("potential_energy", &LagrangianSystem::potential_energy)
      .def_readwrite("initial_q", &LagrangianSystem::initial_q)
      .def_readwrite("initial_v", &LagrangianSystem::initial_v)
      .def("default_state",
           [](const LagrangianSystem& s) { return s.contact_state(s.initial_q, s.initial_v, 0.0); })
      .def("__repr__", [](const LagrangianSystem& s) {
        return fmt::format("<LagrangianSystem '{}' d={} n={}>", s.name(), s.dimension(),
                           s.velocity_size());
      });

  py::class_<CallbackSystem, LagrangianSystem, std::shared_ptr<CallbackSystem>>(m, "CallbackSystem")
      .def(py::init([](const std::string& name, int dimension, Index n, py::function mass,
                       py::function force) {
             MassCallback M = [mass](const Vector& q) {
               py::gil_scoped_acquire gil;
               return to_matrix(mass(q), "the mass callback", "M");
             };
             ForceCallback F = [force](const Vector& q, const Vector& v, double t) {
               py::gil_scoped_acquire gil;
               Matrix f = to_matrix(force(q, v, t), "the force callback", "F");
               MOREAU_REQUIRE(f.cols() == 1, "force callback must return a vector, got {}×{}",
                              f.rows(), f.cols());
               return Vector(f.col(0));
             };
             return std::make_shared<CallbackSystem>(name, dimension, n, M, F);
           }),
           py::arg("name"), py::arg("dimension"), py::arg("n"), py::arg("mass"), py::arg("force"),
           "mass(q) -> n×n, force(q, v, t) -> n (F on the LEFT: M q̈ + F = Σ ∇h λ_n + H_t λ_t)")
      .def(
          "add_constraint",
          [](CallbackSystem& s, py::function kin, const std::string& name, const std::string& kind,
             double mu, double e, double gamma, double ba, double bb, double et) {
            CallbackConstraint c;
            c.name = name;
            c.kind = parse_kind(kind);
            c.mu = mu;
            c.restitution = e;
            c.tangential_restitution = et;
            c.gamma = gamma;
            c.baumgarte_alpha = ba;
            c.baumgarte_beta = bb;
            c.kinematics = wrap_kinematics(kin);
            s.add_constraint(c);
          },
          py::arg("kinematics"), py::arg("name") = "", py::arg("kind") = "unilateral",
          py::arg("mu") = 0.0, py::arg("restitution") = 0.0, py::arg("gamma") = 0.0,
          py::arg("baumgarte_alpha") = 0.0, py::arg("baumgarte_beta") = 0.0,
          py::arg("tangential_restitution") = 0.0,
          "kinematics(q, v) -> dict(gap, normal, tangent, normal_bias, tangent_bias) or a tuple in "
          "that order")
      .def("set_names", &CallbackSystem::set_names)
      .def_property_readonly("constraint_count", &CallbackSystem::constraint_count);

  m.def("make_gallery_system", &make_gallery_system, py::arg("name"),
        py::arg("params") = GalleryParams{},
        "Builds a gallery system with its default state (moreau.gallery is the keyword form).");
  m.def("gallery_names", &gallery_names);
  m.def("gallery_catalog", [] {
    py::list out;
    for (const auto& e : gallery_catalog()) {
      py::list params;
      for (const auto& p : e.parameters)
        params.append(py::dict(py::arg("name") = p.name, py::arg("default") = p.default_value,
                               py::arg("description") = p.description));
      out.append(py::dict(py::arg("name") = e.name, py::arg("description") = e.description,
                          py::arg("parameters") = params));
    }
    return out;
  });
}

}  // namespace moreau::python
