// A rigid world stepped one step at a time (sim/simulator.hpp).
#include "moreau/sim/simulator.hpp"

#include <cmath>
#include <stdexcept>

#include "moreau/common/error.hpp"

namespace moreau {

Simulator::Simulator(std::shared_ptr<const RigidWorld> world, CollisionSettings collision,
                     SimulationSettings settings)
    : system_(std::make_shared<RigidWorldSystem>(std::move(world), collision)),
      settings_(std::move(settings)) {
  // one step at a time: a run of 5e8 steps (half the run's limit; the next run continues from
  // its end), recording its start only
  settings_.integrator = Integrator::time_stepping;
  settings_.t_end = 5e8 * settings_.time_stepping.dt;
  settings_.record_interval = settings_.t_end;
  settings_.max_logged_events = 0;
  validate(settings_);
  reset();
  check_model_laws(*system_, settings_, system_->constraint_summary(q_, v_, 0.0));
}

Simulator::~Simulator() = default;

std::vector<std::string> Simulator::body_names() const {
  std::vector<std::string> names;
  for (const RigidBody& b : system_->world().bodies()) names.push_back(b.name);
  return names;
}

std::vector<std::string> Simulator::actuator_names() const {
  std::vector<std::string> names;
  for (const Actuator& a : system_->world().actuators()) names.push_back(a.name);
  return names;
}

Vector Simulator::actuator_forces() const {
  if (nu() == 0) return Vector();
  system_->set_inputs(qfrc_, xfrc_, ctrl_);
  return system_->actuator_force_values(q_, v_);
}

void Simulator::reset() {
  run_.reset();
  q_ = system_->initial_q;
  v_ = system_->initial_v;
  t_ = t0_ = 0.0;
  qfrc_.setZero(nv());  // in place at the same size: Python's views stay valid
  ctrl_.setZero(nu());
  xfrc_.setZero(system_->world().body_count(), 6);
}

void Simulator::set_state(const Vector& q, const Vector& v) {
  MOREAU_REQUIRE(q.size() == nq(), "set_state: q has {} entries, the system has {} coordinates",
                 q.size(), nq());
  MOREAU_REQUIRE(v.size() == nv(), "set_state: v has {} entries, the system has {} velocities",
                 v.size(), nv());
  for (Index i = 0; i < q.size(); ++i)
    MOREAU_REQUIRE(std::isfinite(q[i]), "set_state: q[{}] = {}: must be finite", i, q[i]);
  for (Index i = 0; i < v.size(); ++i)
    MOREAU_REQUIRE(std::isfinite(v[i]), "set_state: v[{}] = {}: must be finite", i, v[i]);
  Vector qn = q;
  system_->normalize_position(qn);
  run_.reset();
  q_ = std::move(qn);
  v_ = v;
  t0_ = t_;
}

void Simulator::apply_inputs() {
  system_->set_inputs(qfrc_, xfrc_, ctrl_);  // throws naming the entry; nothing has moved yet
}

void Simulator::start_run() {
  if (run_) return;
  run_ = std::make_unique<TimeSteppingRun>(*system_, settings_, q_, v_);
  t0_ = t_;
  q_ = run_->q();  // the start's projection, when the state penetrated
  v_ = run_->v();
}

void Simulator::step(long n) {
  MOREAU_REQUIRE(n >= 0, "step: n = {}: must be ≥ 0", n);
  apply_inputs();
  start_run();
  for (long k = 0; k < n; ++k) {
    if (run_->ended() && run_->t() >= settings_.t_end) {  // the run's length, not a failure
      run_.reset();
      start_run();
    }
    try {
      run_->step();
    } catch (...) {  // a step that throws leaves the run past the kept state: start anew
      run_.reset();
      throw;
    }
    if (run_->result().status != SimulationStatus::completed) {  // diverged: keep the last state
      const std::string why = run_->result().message;
      run_.reset();
      throw std::runtime_error(fmt::format("step at t = {} s failed: {}", t_, why));
    }
    q_ = run_->q();
    v_ = run_->v();
    t_ = t0_ + run_->t();
  }
}

Matrix Simulator::mass_matrix(const Vector& q) const {
  MOREAU_REQUIRE(q.size() == nq(), "mass_matrix: q has {} entries, the system has {}", q.size(),
                 nq());
  Matrix M;
  Vector F;
  system_->mass_and_forces(q, Vector::Zero(nv()), t_, M, F);
  return M;
}

Vector Simulator::inverse_dynamics(const Vector& q, const Vector& v, const Vector& a) const {
  MOREAU_REQUIRE(q.size() == nq() && v.size() == nv() && a.size() == nv(),
                 "inverse_dynamics: q, v, a have {}, {}, {} entries; the system has {}, {}, {}",
                 q.size(), v.size(), a.size(), nq(), nv(), nv());
  Matrix M;
  Vector F;
  system_->mass_and_forces(q, v, t_, M, F);
  Vector tau = M * a + F + system_->input_forces(q);  // F holds −inputs and −actuators: added back
  if (nu() > 0) tau += system_->actuator_forces(q, v);
  return tau;
}

Vector Simulator::bias_forces(const Vector& q, const Vector& v) const {
  return inverse_dynamics(q, v, Vector::Zero(nv()));
}

}  // namespace moreau
