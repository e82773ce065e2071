// Python bindings of the impact layer: the JSON front end shared with `moreau impact` (the
// Python-side moreau.impact / moreau.plot_impact live in moreau/_impact.py) and the
// energetic-consistency tests of Brogliato 2014 §3 (docs/references.md).
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "moreau/impact/energetic_consistency.hpp"
#include "moreau/impact/impact_laws.hpp"
#include "moreau/io/reports/impact_spec.hpp"

namespace moreau::python {

namespace {

py::list criteria(const ConsistencyReport& r) {
  py::list out;
  for (const ConsistencyCriterion& c : r.criteria) {
    py::dict d;
    d["name"] = c.name;
    d["statement"] = c.statement;
    d["applicable"] = c.applicable;
    d["exact"] = c.exact;
    d["holds"] = c.holds;
    d["value"] = c.value;
    d["bound"] = c.bound;
    d["margin"] = c.margin;
    out.append(d);
  }
  return out;
}

}  // namespace

void bind_impact(py::module_& m) {
  m.def("_impact_json", &run_impact_json, py::arg("spec_json"), py::arg("indent") = -1,
        py::arg("source") = "impact SPEC",
        "Runs the impact SPEC given as JSON text; returns the result as JSON text "
        "(use moreau.impact for dict in/out).");
  m.def(
      "copositivity",
      [](const Matrix& A) {
        const CopositivityResult r = copositivity(A);
        py::dict d;
        d["minimum"] = r.minimum;
        d["minimizer"] = r.minimizer;
        d["copositive"] = r.copositive;
        d["strictly"] = r.strictly;
        return d;
      },
      py::arg("A"),
      "min of xᵀAx over x ≥ 0, ‖x‖ = 1 (symmetric part), and whether A is (strictly) copositive.");
  m.def(
      "frictionless_consistency",
      [](const Matrix& G, const Matrix& E) {
        const ConsistencyReport r = frictionless_consistency(G, E);
        py::dict d;
        d["criteria"] = criteria(r);
        d["max_energy_gain"] = r.max_energy_gain;
        d["worst_velocity"] = r.worst_velocity;
        return d;
      },
      py::arg("G"), py::arg("E"),
      "Energetic consistency of q̇_norm⁺ = −E q̇_norm⁻ with value, bound and margin per "
      "criterion; P2, P4–P8 are Props 2 and 4–8 of Brogliato, 'Kinetic quasi-velocities in "
      "unilaterally constrained Lagrangian mechanics with impacts and friction' (Multibody "
      "Syst. Dyn. 2014, §3.1.2), PD the exact test (see docs/math/impact.md).");
  m.def("frictionless_energy_change", &frictionless_energy_change, py::arg("G"), py::arg("E"),
        py::arg("qdot_norm"),
        "T_L = ½ q̇ᵀ(EᵀG⁻¹E − G⁻¹)q̇, eq. (49) of Brogliato, 'Kinetic quasi-velocities in "
        "unilaterally constrained Lagrangian mechanics with impacts and friction' (2014).");
  m.def("single_contact_frictional_closed_form", &single_contact_frictional_closed_form,
        py::arg("u_t"), py::arg("u_n"), py::arg("mu"), py::arg("e_n"), py::arg("e_t"),
        py::arg("w_ratio") = 1.0,
        "u_t⁺ = u_t⁻ − P·proj_ball((1+e_t)u_t⁻/P), P = μ(w_t/w_n)(1+e_n)|u_n⁻|: the particle on a "
        "rough line of Brogliato, 'Kinetic quasi-velocities in unilaterally constrained Lagrangian "
        "mechanics with impacts and friction' (2014), §3.2.4, with the prefactor P that the "
        "printed formula drops (docs/math/impact.md).");
}

}  // namespace moreau::python
