// The gallery builders (see gallery.hpp and docs/cli.md (moreau analyze)). Each builder cites the
// paper and example it follows (docs/references.md) and says where the model departs from the
// printed example (docs/math/models.md §Gallery systems has the same list).
#include <cmath>
#include <numbers>

#include "gallery_builders.hpp"
#include "moreau/common/error.hpp"
#include "moreau/model/callback_system.hpp"
#include "moreau/contact/rigid_world_system.hpp"

namespace moreau::gallery_detail {
namespace {

Matrix2 rot(double th) {
  Matrix2 R;
  R << std::cos(th), -std::sin(th), std::sin(th), std::cos(th);
  return R;
}
Vector2 kcross(const Vector2& a) { return Vector2(-a.y(), a.x()); }

// Places a planar body (angle θ, angular rate w) so that its local point s sits at (x0, 0) and
// moves with velocity (u, 0): c = (x0, 0) − R s, ċ = (u, 0) − w k×(R s).
void place_point_on_floor(const Vector2& s, double theta, double x0, double u, double w, Vector3& q,
                          Vector3& v) {
  const Vector2 r = rot(theta) * s;
  q.head<2>() = Vector2(x0, 0.0) - r;
  q[2] = theta;
  v.head<2>() = Vector2(u, 0.0) - w * kcross(r);
  v[2] = w;
}

// Floor contact (n = (0, 1), t = (1, 0)) of the local point s of the planar body whose (x, y, θ)
// start at `off` in a larger q (n entries): h = y + (Rs)_y, ∇h = e_y + (Rs)_x e_θ,
// H_t = e_x − (Rs)_y e_θ, c_n = −θ̇² (Rs)_y, c_t = −θ̇² (Rs)_x.
ConstraintKinematics floor_point(const Vector& q, const Vector& v, Index off, const Vector2& s) {
  const Index n = q.size();
  const Vector2 r = rot(q[off + 2]) * s;
  const double w = v[off + 2];
  ConstraintKinematics k;
  k.gap = q[off + 1] + r.y();
  k.normal = Vector::Zero(n);
  k.normal[off + 1] = 1.0;
  k.normal[off + 2] = r.x();
  k.normal_bias = -w * w * r.y();
  k.tangent = Matrix::Zero(n, 1);
  k.tangent(off, 0) = 1.0;
  k.tangent(off + 2, 0) = -r.y();
  k.tangent_bias = Vector::Constant(1, -w * w * r.x());
  return k;
}

// The planar rigid world of a gallery system: gravity g⃗ and a static body "ground" whose shapes
// are the half-planes {x : nᵀx ≥ 0} the bodies touch (plane shapes through the origin, solid
// where nᵀx ≤ 0).
// The planes touch only through the system's explicit contact pairs, which are its papers'
// constraints (contype = conaffinity = 0 keeps them out of detection).
std::shared_ptr<RigidWorld> planar_world(
    const Vector2& gravity, const std::vector<std::pair<std::string, Vector2>>& planes) {
  auto world = std::make_shared<RigidWorld>(2);
  world->set_gravity(Vector3(gravity.x(), gravity.y(), 0.0));
  RigidBody ground;
  ground.name = "ground";
  ground.is_static = true;
  for (const auto& [name, n] : planes) {
    Shape plane = make_plane(Vector3(n.x(), n.y(), 0.0));
    plane.name = name;
    plane.contype = plane.conaffinity = 0;
    ground.shapes.push_back(plane);
  }
  world->add_body(ground);
  return world;
}

// A planar body of mass m and inertia I_zz in the state q = (x, y, θ), v = (ẋ, ẏ, θ̇).
RigidBody planar_body(const std::string& name, double mass, double inertia, const Vector3& q,
                      const Vector3& v) {
  RigidBody b;
  b.name = name;
  b.mass = mass;
  b.inertia = Matrix3::Identity() * inertia;
  b.pose = planar_pose(q.x(), q.y(), q.z());
  b.linear_velocity = Vector3(v.x(), v.y(), 0.0);
  b.angular_velocity = Vector3(0.0, 0.0, v.z());
  return b;
}

// A material point s of a body (body frame, m): the convex hull of that one point.
Shape body_point(const std::string& name, const Vector2& s) {
  Shape point = make_convex({Vector3(s.x(), s.y(), 0.0)});
  point.name = name;
  return point;
}

// Explicit contact `name` of shape `shape` of body `body` with plane `plane` of the ground
// (body 0), μ, e, unilateral or bilateral.
void touch_ground(RigidWorld& world, const std::string& name, Index body, Index shape, Index plane,
                  double mu, double e, ConstraintKind kind = ConstraintKind::unilateral) {
  ContactMaterial material;
  material.mu = mu;
  material.restitution = e;
  world.add_contact_pair(ContactPair{name, body, shape, 0, plane, kind, material});
}

// The system of a gallery world; its default state is the bodies' initial state.
SystemPtr world_system(const std::string& name, std::shared_ptr<RigidWorld> world) {
  return std::make_shared<RigidWorldSystem>(std::move(world), CollisionSettings{.margin = INFINITY},
                                            name);
}

CallbackConstraint constraint(std::string name, ConstraintKind kind, double mu, double e,
                              ConstraintCallback cb) {
  CallbackConstraint c;
  c.name = std::move(name);
  c.kind = kind;
  c.mu = mu;
  c.restitution = e;
  c.kinematics = std::move(cb);
  return c;
}

}  // namespace

// Brogliato 2014 §2.3.3 (the rod of the Painlevé paradox; the sliding pencil of the
// unilateral-contact notes (4.15)–(4.17)), in centre-of-mass coordinates q = (x, y, θ), θ FROM THE
// FLOOR (the notes' pencil measures θ from the vertical: θ_notes = π/2 − θ, and its tip lies to the
// right of the centre, ours to the left, so σ flips).
// Lower end s = (−l, 0), l = L/2: h = y − l sin θ, ∇h = (0, 1, −l cos θ), H_t = (1, 0, l sin θ),
// c_n = l θ̇² sin θ. Hence α = (1 + 3cos²θ + 3σμ sinθ cosθ)/m and β = g − l θ̇² sin θ, and
// μ_c = (1 + 3cos²θ)/(3 sinθ cosθ) for σ = −1 (minimum 4/3 at tan θ = 2).
SystemPtr build_painleve_rod(const Params& p) {
  const double m = p.positive("mass"), L = p.positive("length"), mu = p.nonnegative("mu");
  const double theta = p.in_range("theta", -std::numbers::pi, std::numbers::pi), g = p.get("g");
  Vector3 q, v;
  place_point_on_floor(Vector2(-L / 2, 0.0), theta, 0.0, p.get("x_dot"), p.get("theta_dot"), q, v);
  auto world = planar_world(Vector2(0.0, -g), {{"floor", Vector2(0.0, 1.0)}});
  RigidBody rod = planar_body("rod", m, m * L * L / 12.0, q, v);
  rod.shapes = {body_point("end", Vector2(-L / 2, 0.0))};
  const Index b = world->add_body(rod);
  touch_ground(*world, "floor/end", b, 0, 0, mu, 0.0);
  return world_system("painleve_rod", world);
}

// McGeer & Palmer 1989's falling pencil as in the unilateral-contact notes (4.6)–(4.14): q =
// (x, y, θ) of the lower tip, θ from the vertical, rod 2ℓ, centre at ℓ:
//   M = [[m, 0, −mℓc], [0, m, −mℓs], [−mℓc, −mℓs, I_c + mℓ²]],
//   F = B + G = (mℓθ̇² s, −mℓθ̇² c + m g, −m g ℓ s)   (F on the left; c = cos θ, s = sin θ),
//   I_c = mℓ²(1/α − 1) from α = mℓ²/(I_c + mℓ²). α = 1 gives I_c = 0 and a SINGULAR M.
// Tip contact: h = y, ∇h = (0, 1, 0), H_t = (1, 0, 0), c_n = c_t = 0.
SystemPtr build_falling_pencil(const Params& p) {
  const double m = p.positive("mass"), l = p.positive("ell"), a = p.in_range("alpha", 0.5, 1.0);
  const double mu = p.nonnegative("mu"), g = p.get("g");
  const double Ic = m * l * l * (1.0 / a - 1.0);
  auto mass = [=](const Vector& q) {
    const double c = std::cos(q[2]), s = std::sin(q[2]);
    Matrix M(3, 3);
    M << m, 0, -m * l * c, 0, m, -m * l * s, -m * l * c, -m * l * s, Ic + m * l * l;
    return M;
  };
  auto force = [=](const Vector& q, const Vector& v, double) {
    const double c = std::cos(q[2]), s = std::sin(q[2]), w2 = v[2] * v[2];
    return Vector(Vector3(m * l * w2 * s, -m * l * w2 * c + m * g, -m * g * l * s));
  };
  auto sys = std::make_shared<CallbackSystem>("falling_pencil", 2, 3, mass, force);
  sys->add_constraint(constraint("floor/tip", ConstraintKind::unilateral, mu, 0.0,
                                 [](const Vector& q, const Vector&) {
                                   ConstraintKinematics k;
                                   k.gap = q[1];
                                   k.normal = Vector3(0, 1, 0);
                                   k.tangent = Vector3(1, 0, 0);
                                   return k;
                                 }));
  sys->set_names({"x", "y", "theta"});
  sys->set_potential([=](const Vector& q) { return m * g * (q[1] + l * std::cos(q[2])); });
  sys->initial_q = Vector3(0.0, 0.0, p.get("theta"));
  sys->initial_v = Vector3(p.get("x_dot"), 0.0, p.get("theta_dot"));
  return sys;
}

// The wheel of the unilateral-contact notes and the disk on a plane of Brogliato 2014 §2.3.5:
// q = (x, y, θ), h = y − R, ∇h = (0, 1, 0), H_t = (1, 0, R) (Brogliato prints H_T = (0, 1, R)ᵀ,
// against its own v_t = ẋ + Rθ̇), c_n = c_t = 0.
SystemPtr build_disk_on_plane(const Params& p) {
  const double m = p.positive("mass"), R = p.positive("radius"), k = p.positive("inertia_factor");
  const double mu = p.nonnegative("mu"), e = p.in_range("e", 0.0, 1.0);
  auto world = planar_world(Vector2(0.0, -p.get("g")), {{"floor", Vector2(0.0, 1.0)}});
  RigidBody disk = planar_body("disk", m, k * m * R * R, Vector3(0.0, R, 0.0),
                               Vector3(p.get("x_dot"), 0.0, p.get("theta_dot")));
  disk.shapes = {make_sphere(R)};
  const Index b = world->add_body(disk);
  touch_ground(*world, "floor", b, 0, 0, mu, e);
  return world_system(p.system, world);
}

// Brogliato, Kövecses & Acary 2020 Ex. 1/2/4 (and the rocking block of Brogliato 2014 §2.3.2):
// q = (x, y, θ), M = diag(m, m, I_G), I_G = m(l² + L²)/12, F = (Fx, m g, 0) on the left side.
// Corner A1 = (+L/2, −l/2): h₁ = y − (l/2)cos θ + (L/2) sin θ, ∇h₁ = (0, 1, (l/2)sin θ + (L/2)cos
// θ), H_t1 = (1, 0, (l/2)cos θ − (L/2)sin θ); corner A2 = (−L/2, −l/2) with L → −L. rocking_block:
// A2 touches (θ > 0) and is at rest (pivoting); block_two_contacts: θ = 0, q̇ = 0.
SystemPtr build_block(const Params& p) {
  const bool rocking = p.system == "rocking_block";
  const double m = p.positive("mass"), l = p.positive("height"), L = p.positive("width");
  const double mu = p.nonnegative("mu");
  const double theta =
      rocking ? p.in_range("theta", -std::numbers::pi / 2, std::numbers::pi / 2) : 0.0;
  const double w = rocking ? p.get("theta_dot") : 0.0;
  Vector3 q, v;
  place_point_on_floor(Vector2(-L / 2, -l / 2), theta, -L / 2, 0.0, w, q, v);
  auto world = planar_world(Vector2(0.0, -p.get("g")), {{"floor", Vector2(0.0, 1.0)}});
  RigidBody block = planar_body("block", m, m * (l * l + L * L) / 12.0, q, v);
  block.applied_force = Vector3(-p.get("Fx"), 0.0, 0.0);  // Fx is on the left side (F = +Fx)
  block.shapes = {body_point("A1", Vector2(L / 2, -l / 2)),
                  body_point("A2", Vector2(-L / 2, -l / 2))};
  const Index b = world->add_body(block);
  touch_ground(*world, "A1", b, 0, 0, mu, 0.0);
  touch_ground(*world, "A2", b, 1, 0, mu, 0.0);
  return world_system(p.system, world);
}

// Brogliato, Kövecses & Acary 2020 Ex. 3 with M and the velocity terms derived anew from the
// stated pendulum centre and kinetic energy (87) (the paper's (88) has cos where sin belongs and
// misses m̄ in M₃₃; its (90) is unreliable; docs/math/models.md). q = (x, y, θ, α),
// pendulum centre x_p = x + (a/2)cos(α+θ) − (l/2)sin θ, y_p = y + (l/2)cos θ + (a/2)sin(α+θ),
// T = ½m(ẋ²+ẏ²) + ½I_Gθ̇² + ½m̄(ẋ_p²+ẏ_p²) + ½I_pα̇² (the paper's ½I_pα̇², not (α̇+θ̇)).
// F = C(q,q̇)q̇ + ∂V/∂q + (Fx, 0, 0, 0) with V = m g y + m̄ g y_p. Contacts: the block's bottom
// corners A1, A2 as in build_block.
SystemPtr build_block_pendulum(const Params& p) {
  const double m = p.positive("mass"), l = p.positive("height"), L = p.positive("width");
  const double mb = p.positive("pendulum_mass"), a = p.positive("pendulum_length");
  const double Ip = p.nonnegative("pendulum_inertia"), mu = p.nonnegative("mu");
  const double g = p.get("g"), Fx = p.get("Fx");
  const double IG = m * (l * l + L * L) / 12.0;
  auto mass = [=](const Vector& q) {
    const double th = q[2], al = q[3];
    const double sat = std::sin(al + th), cat = std::cos(al + th);
    Matrix M = Matrix::Zero(4, 4);
    M(0, 0) = M(1, 1) = m + mb;
    M(0, 2) = M(2, 0) = -(mb / 2) * (a * sat + l * std::cos(th));
    M(1, 2) = M(2, 1) = (mb / 2) * (a * cat - l * std::sin(th));
    M(0, 3) = M(3, 0) = -(mb * a / 2) * sat;
    M(1, 3) = M(3, 1) = (mb * a / 2) * cat;
    M(2, 2) = IG + mb * (a * a + l * l) / 4 + (mb * a * l / 2) * std::sin(al);
    M(2, 3) = M(3, 2) = (mb * a / 4) * (a + l * std::sin(al));
    M(3, 3) = Ip + mb * a * a / 4;
    return M;
  };
  auto force = [=](const Vector& q, const Vector& v, double) {
    const double th = q[2], al = q[3], wt = v[2], wa = v[3];
    const double sat = std::sin(al + th), cat = std::cos(al + th), ws = (wa + wt) * (wa + wt);
    Vector F(4);
    F[0] = -(mb / 2) * (a * ws * cat - l * wt * wt * std::sin(th)) + Fx;
    F[1] = -(mb / 2) * (a * ws * sat + l * wt * wt * std::cos(th)) + (m + mb) * g;
    F[2] = (mb * a * l / 4) * wa * (wa + 2 * wt) * std::cos(al) +
           mb * g * (-(l / 2) * std::sin(th) + (a / 2) * cat);
    F[3] = -(mb * a * l / 4) * wt * wt * std::cos(al) + mb * g * (a / 2) * cat;
    return F;
  };
  auto sys = std::make_shared<CallbackSystem>("block_pendulum", 2, 4, mass, force);
  for (int k = 0; k < 2; ++k) {
    const Vector2 s(k == 0 ? L / 2 : -L / 2, -l / 2);
    sys->add_constraint(
        constraint(k == 0 ? "A1" : "A2", ConstraintKind::unilateral, mu, 0.0,
                   [s](const Vector& q, const Vector& v) { return floor_point(q, v, 0, s); }));
  }
  sys->set_names({"x", "y", "theta", "alpha"});
  sys->set_potential([=](const Vector& q) {
    return m * g * q[1] +
           mb * g * (q[1] + (l / 2) * std::cos(q[2]) + (a / 2) * std::sin(q[3] + q[2]));
  });
  sys->initial_q = Vector::Zero(4);
  sys->initial_q[1] = l / 2;
  sys->initial_q[3] = p.get("alpha");
  sys->initial_v = Vector::Zero(4);
  sys->initial_v[3] = p.get("alpha_dot");
  return sys;
}

namespace {

// Finger tip p (prismatic finger moving along `axis` ∈ {0: x, 1: y}, coordinate q[fi], the other
// coordinate fixed) against the face {nᵀ(x − c) = d} of the object (x, y, θ) = q[0..2],
// n = R(θ) n0, t = (n_y, −n_x):
//   h = nᵀ(p − c) − d, ∇h = (−n, −tᵀ(p − c), n_axis at fi),
//   H_t = (−t, nᵀ(p − c), t_axis at fi)  (relative velocity of the finger tip and of the object's
//   MATERIAL point under it; Brogliato, Kövecses & Acary 2020 Ex. 5 prints v_rt,3 = −h₃θ̇, the
//   velocity of the geometric projection point, zero at contact),
//   c_n = −θ̇² nᵀ(p − c) − 2θ̇ tᵀ(ṗ − ċ), c_t = 2θ̇ nᵀ(ṗ − ċ) − θ̇² tᵀ(p − c).
ConstraintKinematics finger_face(const Vector& q, const Vector& v, const Vector2& n0, double d,
                                 Index fi, int axis, double fixed) {
  const Index n = q.size();
  const Vector2 nr = rot(q[2]) * n0, t(nr.y(), -nr.x());
  const Vector2 c = q.head<2>(), cd = v.head<2>();
  Vector2 pf, pd;
  if (axis == 0) {
    pf = Vector2(q[fi], fixed);
    pd = Vector2(v[fi], 0.0);
  } else {
    pf = Vector2(fixed, q[fi]);
    pd = Vector2(0.0, v[fi]);
  }
  const double w = v[2];
  ConstraintKinematics k;
  k.gap = nr.dot(pf - c) - d;
  k.normal = Vector::Zero(n);
  k.normal.head<2>() = -nr;
  k.normal[2] = -t.dot(pf - c);
  k.normal[fi] += nr[axis];
  k.normal_bias = -w * w * nr.dot(pf - c) - 2 * w * t.dot(pd - cd);
  k.tangent = Matrix::Zero(n, 1);
  k.tangent.col(0).head<2>() = -t;
  k.tangent(2, 0) = nr.dot(pf - c);
  k.tangent(fi, 0) += t[axis];
  k.tangent_bias = Vector::Constant(1, 2 * w * nr.dot(pd - cd) - w * w * t.dot(pf - c));
  return k;
}

}  // namespace

// Brogliato, Kövecses & Acary 2020 Ex. 5: q = (x, y, θ, x₁, y₂, x₃), M = diag(m, m, I_G, m_f, m_f,
// m_f) with I_G = m(L² + l²)/12, F = (0, m g, 0, F1, F2, F3) on the left side; y₁ = x₂ = y₃ = 0
// fixed.
// Finger 1 on the left face (n0 = (−1, 0), d = L/2), finger 2 under the bottom face (n0 = (0, −1),
// d = l/2), finger 3 on the right face (n0 = (1, 0), d = L/2). h₃ is the paper's; h₁, h₂ (garbled
// in the paper) are a geometric reconstruction (the figure is missing); H_t uses the material
// point (above).
SystemPtr build_three_finger_grasp(const Params& p) {
  const double m = p.positive("mass"), L = p.positive("width"), l = p.positive("height");
  const double mf = p.positive("finger_mass"), mu = p.nonnegative("mu"), g = p.get("g");
  const double theta = p.in_range("theta", -1.2, 1.2);
  const double F1 = p.get("F1"), F2 = p.get("F2"), F3 = p.get("F3");
  const double IG = m * (L * L + l * l) / 12.0;
  Vector Mdiag(6);
  Mdiag << m, m, IG, mf, mf, mf;
  auto mass = [Mdiag](const Vector&) { return Matrix(Mdiag.asDiagonal()); };
  auto force = [=](const Vector&, const Vector&, double) {
    Vector F(6);
    F << 0, m * g, 0, F1, F2, F3;
    return F;
  };
  auto sys = std::make_shared<CallbackSystem>("three_finger_grasp", 2, 6, mass, force);
  struct Finger {
    const char* name;
    Vector2 n0;
    double d;
    Index fi;
    int axis;
  };
  const Finger fingers[3] = {{"finger1", Vector2(-1, 0), L / 2, 3, 0},
                             {"finger2", Vector2(0, -1), l / 2, 4, 1},
                             {"finger3", Vector2(1, 0), L / 2, 5, 0}};
  Vector q0 = Vector::Zero(6);
  q0[2] = theta;
  for (const Finger& f : fingers) {
    sys->add_constraint(constraint(f.name, ConstraintKind::unilateral, mu, 0.0,
                                   [f](const Vector& q, const Vector& v) {
                                     return finger_face(q, v, f.n0, f.d, f.fi, f.axis, 0.0);
                                   }));
    // h = 0 with the other finger coordinate at 0: n_axis q_f = d + nᵀc (c = 0).
    const Vector2 nr = rot(theta) * f.n0;
    q0[f.fi] = f.d / nr[f.axis];
  }
  sys->set_names({"x", "y", "theta", "x1", "y2", "x3"});
  sys->initial_q = q0;
  sys->initial_v = Vector::Zero(6);
  return sys;
}

// Brogliato, Kövecses & Acary 2020 Ex. 6: q = (x, y, x₁, x₂), h_b = x − a (bilateral, frictionless,
// zero tangent column), h₁ = x − x₁ − L, h₂ = x₂ − x − L, H_t1 = H_t2 = (0, 1, 0, 0) (the paper's),
// F = (0, m g, F1, F2) on the left side. All-sticking iff μ₁|F₁| + μ₂|F₂| ≥ m g (F₁ < 0 < F₂;
// the paper's "λ_t1 + λ_t1 = g" reads λ_t1 + λ_t2).
SystemPtr build_two_finger(const Params& p) {
  const double m = p.positive("mass"), mf = p.positive("finger_mass"), L = p.positive("half_width");
  const double a = p.get("guide"), mu1 = p.nonnegative("mu1"), mu2 = p.nonnegative("mu2"),
               g = p.get("g");
  const double F1 = p.get("F1"), F2 = p.get("F2");
  auto mass = [=](const Vector&) { return Matrix(Eigen::Vector4d(m, m, mf, mf).asDiagonal()); };
  auto force = [=](const Vector&, const Vector&, double) {
    return Vector(Eigen::Vector4d(0, m * g, F1, F2));
  };
  auto sys = std::make_shared<CallbackSystem>("two_finger", 2, 4, mass, force);
  sys->add_constraint(
      constraint("guide", ConstraintKind::bilateral, 0.0, 0.0, [a](const Vector& q, const Vector&) {
        ConstraintKinematics k;
        k.gap = q[0] - a;
        k.normal = Eigen::Vector4d(1, 0, 0, 0);
        return k;
      }));
  // Finger contact: gap g = n·q − L, so the normal row is n = ∂g/∂q; the tangent is along y.
  auto finger = [&](const char* name, double mu, const Eigen::Vector4d& n) {
    return constraint(name, ConstraintKind::unilateral, mu, 0.0,
                      [L, n](const Vector& q, const Vector&) {
                        ConstraintKinematics k;
                        k.gap = n.dot(q) - L;
                        k.normal = n;
                        k.tangent = Eigen::Vector4d(0, 1, 0, 0);
                        return k;
                      });
  };
  sys->add_constraint(finger("finger1", mu1, Eigen::Vector4d(1, 0, -1, 0)));
  sys->add_constraint(finger("finger2", mu2, Eigen::Vector4d(-1, 0, 0, 1)));
  sys->set_names({"x", "y", "x1", "x2"});
  sys->initial_q = Eigen::Vector4d(a, 0.0, a - L, a + L);
  sys->initial_v = Vector::Zero(4);
  return sys;
}

// Brogliato 2014 §2.3.1: balls on a line, q_i positions, h_i = q_{i+1} − q_i − 2R (the paper's
// Example 1 prints + 2R), ∇h_i = e_{i+1} − e_i, no gravity, frictionless (zero tangent
// columns; the state is 2D only because ContactState needs d ∈ {2, 3}).
SystemPtr build_ball_chain(const Params& p) {
  const double count = p.in_range("count", 2.0, 64.0);
  MOREAU_REQUIRE(count == std::floor(count),
                 "gallery 'ball_chain': parameter count = {} must be an integer", count);
  const Index N = static_cast<Index>(count);
  const double m0 = p.positive("mass"), dm = p.get("mass_step"), R = p.nonnegative("radius");
  const double e = p.in_range("e", 0.0, 1.0);
  Vector masses(N);
  for (Index i = 0; i < N; ++i) {
    masses[i] = m0 + dm * static_cast<double>(i);
    MOREAU_REQUIRE(masses[i] > 0.0,
                   "gallery 'ball_chain': mass of ball {} = {} must be > 0 (check mass_step = {})",
                   i, masses[i], dm);
  }
  auto mass = [masses](const Vector&) { return Matrix(masses.asDiagonal()); };
  auto force = [N](const Vector&, const Vector&, double) { return Vector(Vector::Zero(N)); };
  auto sys = std::make_shared<CallbackSystem>("ball_chain", 2, N, mass, force);
  std::vector<std::string> names;
  for (Index i = 0; i < N; ++i) names.push_back(fmt::format("q{}", i + 1));
  for (Index i = 0; i + 1 < N; ++i)
    sys->add_constraint(constraint(fmt::format("ball{}-ball{}", i + 1, i + 2),
                                   ConstraintKind::unilateral, 0.0, e,
                                   [i, R](const Vector& q, const Vector&) {
                                     ConstraintKinematics k;
                                     k.gap = q[i + 1] - q[i] - 2 * R;
                                     k.normal = Vector::Zero(q.size());
                                     k.normal[i] = -1.0;
                                     k.normal[i + 1] = 1.0;
                                     return k;
                                   }));
  sys->set_names(names);
  sys->initial_q = Vector::LinSpaced(N, 0.0, 2 * R * static_cast<double>(N - 1));
  sys->initial_v = Vector::Zero(N);
  sys->initial_v[0] = p.get("v1");
  return sys;
}

// A box on an incline, in the incline frame (x down the slope, y normal to it): gravity
// g(sin s, −cos s). Bottom corners back = (−w/2, −h/2) (touching for φ > 0) and front =
// (+w/2, −h/2). With r := R(φ)(−w/2, −h/2): ∇h = (0, 1, r_x), H_t = (1, 0, −r_y) and the
// single-contact Painlevé number c = −r_x r_y/(k² + r_x²), k² = (w² + h²)/12.
// Departs from Brogliato 2014 §2.3.4, whose printed gap h = y − l cos φ − r sin φ, ∇h = (0, 1, −a)
// and constant H_T = (1, 0, −l) do not come from one material point (docs/math/models.md); this is
// the physical box, so its μ_c differs from the paper's (k² + a²)/(l a).
SystemPtr build_box_on_incline(const Params& p) {
  const double m = p.positive("mass"), w = p.positive("width"), h = p.positive("height");
  const double s = p.in_range("slope", -std::numbers::pi / 2, std::numbers::pi / 2),
               phi = p.in_range("phi", -std::numbers::pi / 2, std::numbers::pi / 2);
  const double mu = p.nonnegative("mu"), g = p.get("g");
  Vector3 q, v;
  place_point_on_floor(Vector2(-w / 2, -h / 2), phi, 0.0, p.get("x_dot"), p.get("phi_dot"), q, v);
  auto world =
      planar_world(Vector2(g * std::sin(s), -g * std::cos(s)), {{"incline", Vector2(0.0, 1.0)}});
  RigidBody box = planar_body("box", m, m * (w * w + h * h) / 12.0, q, v);
  box.shapes = {body_point("back", Vector2(-w / 2, -h / 2)),
                body_point("front", Vector2(w / 2, -h / 2))};
  const Index b = world->add_body(box);
  touch_ground(*world, "back", b, 0, 0, mu, 0.0);
  touch_ground(*world, "front", b, 1, 0, mu, 0.0);
  return world_system("box_on_incline", world);
}

// Brogliato 2014 §2.3.6: h₁ = y − R (floor, t₁ = (1, 0)), h₂ = x − R (wall). The wall's tangent is
// moreau's one convention t₂ = (n_y, −n_x) = (0, −1) (docs/notation.md), the paper's (0, 1)
// reversed. The material contact point (0, y) moves with ẏ − Rθ̇, so H_t = [[1, 0], [0, −1],
// [R, R]]: the paper's wall column (0, 1, +R) has the sign of Rθ̇ wrong besides the frame's
// reversal; n_qᵀH_T and D change only by the sign of the wall column.
SystemPtr build_disk_in_corner(const Params& p) {
  const double m = p.positive("mass"), R = p.positive("radius"), k = p.positive("inertia_factor");
  const double mu = p.nonnegative("mu");
  auto world = planar_world(Vector2(0.0, -p.get("g")),
                            {{"floor", Vector2(0.0, 1.0)}, {"wall", Vector2(1.0, 0.0)}});
  RigidBody disk = planar_body("disk", m, k * m * R * R, Vector3(R, R, 0.0),
                               Vector3(p.get("x_dot"), p.get("y_dot"), p.get("theta_dot")));
  disk.shapes = {make_sphere(R)};
  const Index b = world->add_body(disk);
  touch_ground(*world, "floor", b, 0, 0, mu, 0.0);
  touch_ground(*world, "wall", b, 0, 1, mu, 0.0);
  return world_system("disk_in_corner", world);
}

// Brogliato 2014 §2.3.7: bar (x, y, θ), M = diag(m, m, ml²/12), θ from the vertical; upper end
// A = (x − (l/2)sin θ, y + (l/2)cos θ) on the wall x = 0 (bilateral, t = (n_y, −n_x) = (0, −1),
// moreau's one convention, the paper's (0, 1) reversed), lower end B = (x + (l/2) sin θ,
// y − (l/2) cos θ) on the floor (unilateral, t = (1, 0)): h₁ = x − (l/2) sin θ,
// h₂ = y − (l/2) cos θ, H_T = [[0, 1], [−1, 0], [(l/2) sin θ, (l/2) cos θ]] from the material end
// points, the wall column in moreau's frame (the paper's (38) prints [[0, 1], [1, 0],
// [(l/2) cos θ, −(l/2) sin θ]]).
SystemPtr build_constrained_pendulum(const Params& p) {
  const double m = p.positive("mass"), l = p.positive("length");
  const double th = p.in_range("theta", -std::numbers::pi / 2, std::numbers::pi / 2),
               w = p.get("theta_dot");
  auto world = planar_world(Vector2(0.0, -p.get("g")),
                            {{"wall", Vector2(1.0, 0.0)}, {"floor", Vector2(0.0, 1.0)}});
  RigidBody bar = planar_body("bar", m, m * l * l / 12.0,
                              Vector3((l / 2) * std::sin(th), (l / 2) * std::cos(th), th),
                              Vector3((l / 2) * std::cos(th) * w, -(l / 2) * std::sin(th) * w, w));
  bar.shapes = {body_point("A", Vector2(0.0, l / 2)), body_point("B", Vector2(0.0, -l / 2))};
  const Index b = world->add_body(bar);
  touch_ground(*world, "A/wall", b, 0, 0, p.nonnegative("mu_a"), 0.0, ConstraintKind::bilateral);
  touch_ground(*world, "B/floor", b, 1, 1, p.nonnegative("mu_b"), 0.0);
  return world_system("constrained_pendulum", world);
}

// Brogliato 2014 §3.2.4: particle q = (x, y), M = m I, F = (0, m g), h = y, ∇h = (0, 1),
// H_t = (1, 0) (t_q = (1, 0)ᵀ; the paper prints the basis as a matrix [[0, 1], [1, 0]]).
SystemPtr build_particle_on_rough_line(const Params& p) {
  const double m = p.positive("mass"), mu = p.nonnegative("mu"), e = p.in_range("e", 0.0, 1.0);
  const double g = p.get("g");
  auto mass = [m](const Vector&) { return Matrix(m * Matrix::Identity(2, 2)); };
  auto force = [m, g](const Vector&, const Vector&, double) { return Vector(Vector2(0.0, m * g)); };
  auto sys = std::make_shared<CallbackSystem>("particle_on_rough_line", 2, 2, mass, force);
  sys->add_constraint(
      constraint("line", ConstraintKind::unilateral, mu, e, [](const Vector& q, const Vector&) {
        ConstraintKinematics k;
        k.gap = q[1];
        k.normal = Vector2(0, 1);
        k.tangent = Vector2(1, 0);
        return k;
      }));
  sys->set_names({"x", "y"});
  sys->set_potential([m, g](const Vector& q) { return m * g * q[1]; });
  sys->initial_q = Vector2(0.0, 0.0);
  sys->initial_v = Vector2(p.get("x_dot"), p.get("y_dot"));
  return sys;
}

}  // namespace moreau::gallery_detail
