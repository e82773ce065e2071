// A rigid world stepped one step at a time (sim/simulator.hpp).
#include "moreau/sim/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "moreau/common/error.hpp"
#include "moreau/model/contact_frame.hpp"
#include "sim_internal.hpp"

namespace moreau {
namespace {}  // namespace

CollisionSettings run_collision_settings(CollisionSettings collision, Integrator integrator) {
  collision.margin =
      integrator == Integrator::event_driven ? INFINITY : std::max(collision.margin, 0.02);
  return collision;
}

Simulator::Simulator(std::shared_ptr<const RigidWorld> world, CollisionSettings collision,
                     SimulationSettings settings)
    : system_(std::make_shared<RigidWorldSystem>(
          std::move(world), run_collision_settings(collision, settings.integrator))),
      settings_(settings),
      scene_settings_(std::move(settings)),
      event_driven_(settings_.integrator == Integrator::event_driven) {
  if (event_driven_) {  // advance(dt) runs the integrator over each stretch
    validate(settings_);
    reset();
    check_model_laws(*system_, settings_, system_->constraint_summary(q_, v_, 0.0));
    return;
  }
  // one step at a time: a run of 5e8 steps (half the run's limit; the next run continues from
  // its end), recording every step, whose records take_step_records() takes away
  settings_.t_end = 5e8 * settings_.time_stepping.dt;
  settings_.record_interval = 0.0;
  settings_.max_logged_events = std::max(settings_.max_logged_events, 1000);
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
  last_ = {};
  contacts_built_ = false;
  recording_.reset();
  q_ = system_->initial_q;
  v_ = system_->initial_v;
  t_ = t0_ = 0.0;
  qfrc_.setZero(nv());  // in place at the same size: Python's views stay valid
  ctrl_.setZero(nu());
  if (system_->initial_ctrl().size() == nu()) ctrl_ = system_->initial_ctrl();
  xfrc_.setZero(system_->world().body_count(), 6);
}

void Simulator::reset(const std::string& keyframe) {
  const Keyframe* k = system_->world().find_keyframe(keyframe);
  if (k == nullptr) {
    std::string known;
    for (const std::string& n : keyframe_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument(fmt::format("reset: no keyframe named '{}' (the model's: {})",
                                            keyframe, known.empty() ? "none" : known));
  }
  const KeyframeState s = system_->keyframe_state(*k);  // throws before anything changes
  reset();
  q_ = s.q;
  v_ = s.v;
  ctrl_ = s.ctrl;  // same size: in place
}

std::vector<std::string> Simulator::keyframe_names() const {
  std::vector<std::string> names;
  for (const Keyframe& k : system_->world().keyframes()) names.push_back(k.name);
  return names;
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
  last_ = {};
  contacts_built_ = false;
  q_ = std::move(qn);
  v_ = v;
  t0_ = t_;
  if (recording_) record_state();  // the written state, at the same time
}

void Simulator::apply_inputs() {
  system_->set_inputs(qfrc_, xfrc_, ctrl_);  // throws naming the entry; nothing has moved yet
}

// Ends the run; the last step's records keep their contact names (last_). Records that already
// hold their names (kept from an earlier run that ended: two failed steps in a row) keep those.
void Simulator::drop_run() {
  if (run_ && last_.contact_names.empty()) last_.contact_names = run_->result().contact_names;
  run_.reset();
}

void Simulator::start_run() {
  if (run_) return;
  run_ = std::make_unique<TimeSteppingRun>(*system_, settings_, q_, v_);
  recorded_of_run_.clear();    // a new run numbers its contacts anew
  run_->take_records();        // its start: recorded already, or not asked for
  run_->record_states(false);  // the recording takes its states itself (record_state)
  run_->form_records(recording_.has_value());  // formed with the detection only when recording
  failures_before_ = 0;
  worst_before_ = 0.0;
  iterations_before_ = 0;
  work_before_ = 0.0;
  t0_ = t_;
  q_ = run_->q();  // the start's projection, when the state penetrated
  v_ = run_->v();
}

// The last step's contact records as SimulatorContacts (world impulse r_n n + r_t,j t_j in the
// frame convention of model/contact_frame.hpp), and the step kept when recording: its state
// (every step, or on the record_interval grid), contacts and events.
void Simulator::take_step_records() {
  run_->take_records(last_);  // its lists reused from step to step
  contacts_built_ = false;    // contacts() builds them when asked
  const SimulationResult& run = run_->result();
  const int failed = run.solver_failures - failures_before_;  // in this step (0 or 1)
  failures_before_ = run.solver_failures;
  const bool worse = run.worst_solver_residual > worst_before_;
  worst_before_ = run.worst_solver_residual;
  const long iterations = run.solver_iterations - iterations_before_;
  const double work = run.solver_work - work_before_;
  iterations_before_ = run.solver_iterations, work_before_ = run.solver_work;
  if (!recording_) return;
  SimulationResult& rec = *recording_;
  ++rec.steps;
  rec.solver_iterations += iterations;
  rec.solver_work += work;
  if (failed > 0) {
    rec.solver_failures += failed;
    // the step's residual is the run's new worst, or at most the old one (an upper bound)
    if (worse || rec.worst_solver_residual == 0.0)
      rec.worst_solver_residual = std::max(rec.worst_solver_residual, run.worst_solver_residual);
  }
  for (const SimulationEvent& e : last_.events) ++rec.event_counts[e.kind];
  log_events(last_.events, t0_, run_->result().contact_names);
  const double interval = scene_settings_.record_interval;
  if (interval > 0.0 && t_ < next_record_ - 1e-12) return;
  while (interval > 0.0 && next_record_ <= t_ + 1e-12) next_record_ += interval;
  record_state();
}

// The last step's contacts from last_'s contact records, built on first use after a step (world
// impulse r_n n + r_t,j t_j in the frame convention of model/contact_frame.hpp).
const std::vector<SimulatorContact>& Simulator::contacts() const {
  if (contacts_built_) return contacts_;
  contacts_built_ = true;
  const auto& bodies = system_->world().bodies();
  const auto body_name = [&](Index b) {
    return b >= 0 && b < static_cast<Index>(bodies.size()) ? bodies[b].name : std::string();
  };
  const int d = system_->world().dimension();
  contacts_.clear();
  for (const ContactRecord& c : last_.contacts) {
    SimulatorContact out;
    out.name = run_contact_name(c.contact);
    out.body_a = body_name(c.body_a);
    out.body_b = body_name(c.body_b);
    out.point = c.point;
    out.normal = c.normal;
    out.r_n = c.r_n;
    out.r_t = c.r_t;
    out.gap = c.gap;
    out.mode = c.mode;
    out.impulse = Vector3::Constant(std::numeric_limits<double>::quiet_NaN());
    if (c.normal.allFinite()) {
      const Matrix3 frame = contact_frame(c.normal, d);
      out.impulse = c.r_n * frame.col(0);
      for (Index j = 0; j < c.r_t.size() && j + 1 < 3; ++j)
        out.impulse += c.r_t[j] * frame.col(j + 1);
    }
    contacts_.push_back(std::move(out));
  }
  return contacts_;
}

// Logs events of a run that started at t0 (contact ids into `names`) in the recording, under its
// own contact ids, while it holds fewer than max_logged_events.
void Simulator::log_events(const std::vector<SimulationEvent>& events, double t0,
                           const std::vector<std::string>& names) {
  SimulationResult& rec = *recording_;
  for (SimulationEvent e : events) {
    if (rec.events.size() >= static_cast<size_t>(std::max(0, scene_settings_.max_logged_events)))
      return;
    e.t += t0;
    if (e.contact >= 0) e.contact = recorded_id(names.at(static_cast<size_t>(e.contact)));
    rec.events.push_back(std::move(e));
  }
}

// last_ holds its own names when its ids are not the current run's: the records of a run that
// ended (drop_run: a failed step), kept while a new run starts (step(0)), or an event-driven
// stretch's. A step's records (take_records) leave them empty: the run's ids.
const std::vector<std::string>* Simulator::last_names() const {
  if (!last_.contact_names.empty() || !run_) return &last_.contact_names;
  return &run_->result().contact_names;
}

std::string Simulator::run_contact_name(Index id) const {
  const std::vector<std::string>& names = *last_names();
  return id >= 0 && id < static_cast<Index>(names.size()) ? names[static_cast<size_t>(id)]
                                                          : std::string();
}

Index Simulator::recorded_id(const std::string& name) {
  const auto [it, added] =
      recorded_ids_.try_emplace(name, static_cast<Index>(recording_->contact_names.size()));
  if (added) recording_->contact_names.push_back(name);
  return it->second;
}

// The recording's index of the current run's contact id: by name once per id and run, then from
// recorded_of_run_ (every step records each active contact: a name copied and hashed for each
// was a twentieth of a 5-cube column's step). Without a run, for records kept from a run that
// ended (last_names), or for an id the run has not named yet, by name each time, as recorded_id.
Index Simulator::recorded_id_of(Index run_id) {
  const std::vector<std::string>* names =
      run_ && last_names() == &run_->result().contact_names ? last_names() : nullptr;
  if (!names || run_id < 0 || run_id >= static_cast<Index>(names->size()))
    return recorded_id(run_contact_name(run_id));
  if (run_id >= static_cast<Index>(recorded_of_run_.size()))
    recorded_of_run_.resize(static_cast<size_t>(run_id) + 1, -1);
  Index& id = recorded_of_run_[static_cast<size_t>(run_id)];
  if (id < 0) id = recorded_id((*names)[static_cast<size_t>(run_id)]);
  return id;
}

// The state at t_ and the last step's contacts (numbered by name in the recording: a new run
// numbers its contacts anew).
void Simulator::record_state() {
  SimulationResult& rec = *recording_;
  detail::record_state(rec, *system_, t_, q_, v_, emin_,
                       run_ ? run_->take_formed_record(q_, v_) : std::nullopt);
  for (ContactRecord c : last_.contacts) {
    c.t = t_;
    c.contact = recorded_id_of(c.contact);
    if (c.mode != ContactMode::separate || c.r_n != 0.0)
      rec.max_penetration = std::max(rec.max_penetration, -c.gap);
    rec.contacts.push_back(std::move(c));
  }
}

void Simulator::resume_recording(SimulationResult recording) {
  recording_ = std::move(recording);
  if (run_) run_->form_records(true);
}

void Simulator::start_recording() {
  if (recording_) return;
  SimulationResult& rec = recording_.emplace();
  rec.system = system_->name();
  rec.integrator = event_driven_ ? Integrator::event_driven : Integrator::time_stepping;
  rec.dimension = system_->world().dimension();
  rec.position_names = system_->recorded_position_names();
  rec.velocity_names = system_->recorded_velocity_names();
  recorded_ids_.clear();
  recorded_of_run_.clear();
  next_record_ = t_ + scene_settings_.record_interval;
  record_state();
  if (run_) run_->form_records(true);
}

SimulationResult Simulator::stop_recording() {
  if (!recording_) return {};
  SimulationResult out = std::move(*recording_);
  recording_.reset();
  if (run_) run_->form_records(false);
  if (out.solver_failures > 0)
    out.message = fmt::format("{} of {} steps ended without reaching the solver tolerance",
                              out.solver_failures, out.steps);
  return out;
}

void Simulator::advance(double dt) {
  MOREAU_REQUIRE(std::isfinite(dt) && dt > 0.0, "advance: dt = {} s: must be > 0", dt);
  if (!event_driven_) {
    const double h = settings_.time_stepping.dt;
    const long n = std::lround(dt / h);
    MOREAU_REQUIRE(n >= 1 && std::abs(n * h - dt) <= 1e-9 * dt,
                   "advance: dt = {} s is not a whole number of time steps of {} s", dt, h);
    step(n);
    return;
  }
  apply_inputs();
  SimulationSettings st = scene_settings_;
  st.t_end = dt;
  st.record_interval = recording_ ? scene_settings_.record_interval : dt;
  Vector q_end, v_end;
  SimulationResult res = simulate_event_driven(*system_, st, q_, v_, q_end, v_end);
  if (res.status != SimulationStatus::completed)  // the state stays where it was
    throw std::runtime_error(fmt::format("advance from t = {} s failed: {}", t_, res.message));
  const double t0 = t_;
  q_ = std::move(q_end);
  v_ = std::move(v_end);
  t_ = t0 + dt;
  // the contacts at the end (forces, N), then the stretch's records after its start
  last_ = SimulationResult{};
  last_.contact_names = res.contact_names;
  for (const ContactRecord& c : res.contacts) {  // an event at the end records before and after
    if (c.t < res.t.back() - 1e-12) continue;
    const auto same = [&](const ContactRecord& o) { return o.contact == c.contact; };
    const auto it = std::find_if(last_.contacts.begin(), last_.contacts.end(), same);
    if (it != last_.contacts.end())
      *it = c;  // the later record: after the event
    else
      last_.contacts.push_back(c);
  }
  contacts_built_ = false;
  if (!recording_) return;
  SimulationResult& rec = *recording_;
  rec.steps += res.steps;
  rec.rejected_steps += res.rejected_steps;
  rec.solver_failures += res.solver_failures;
  rec.solver_iterations += res.solver_iterations;
  rec.solver_work += res.solver_work;
  rec.worst_solver_residual = std::max(rec.worst_solver_residual, res.worst_solver_residual);
  for (auto [kind, count] : res.event_counts) rec.event_counts[kind] += count;
  log_events(res.events, t0, res.contact_names);
  for (Index k = 1; k < res.records(); ++k) {  // record 0 is the stretch's start, kept already
    rec.t.push_back(t0 + res.t[k]);
    rec.q.push_back(res.q[k]);
    rec.v.push_back(res.v[k]);
    rec.kinetic.push_back(res.kinetic[k]);
    rec.potential.push_back(res.potential[k]);
    detail::note_energy(rec, res.kinetic[k] + res.potential[k], emin_);
  }
  for (ContactRecord c : res.contacts) {
    if (c.t <= 0.0) continue;
    c.t += t0;
    c.contact = recorded_id(res.contact_names[c.contact]);
    rec.contacts.push_back(std::move(c));
  }
  rec.max_penetration = std::max(rec.max_penetration, res.max_penetration);
}

StepDerivatives Simulator::step_derivatives(const StepDerivativeSettings& ds,
                                            const std::vector<WorldParameter>& parameters) {
  MOREAU_REQUIRE(!event_driven_,
                 "step_derivatives: the scene's integrator is event-driven, which has no step to "
                 "differentiate; derivatives are of a time step (integrator \"time_stepping\")");
  apply_inputs();  // checks them, naming a bad entry
  const Vector qfrc = qfrc_.size() == nv() ? qfrc_ : Vector(Vector::Zero(nv()));
  const Vector ctrl = ctrl_.size() == nu() ? ctrl_ : Vector(Vector::Zero(nu()));
  const auto set = [&](const Vector& c, const Vector& f) { system_->set_inputs(f, xfrc_, c); };
  // each parameter's two systems, with this simulator's detection and inputs
  std::vector<std::unique_ptr<RigidWorldSystem>> systems;
  std::vector<StepParameter> params;
  for (const WorldParameter& p : parameters) {
    MOREAU_REQUIRE(p.plus && p.minus, "step_derivatives: parameter '{}' has no world", p.name);
    for (const auto& w : {p.plus, p.minus}) {
      systems.push_back(std::make_unique<RigidWorldSystem>(w, system_->settings()));
      systems.back()->set_inputs(qfrc, xfrc_, ctrl);
    }
    params.push_back({p.name, systems[systems.size() - 2].get(), systems.back().get(), p.delta});
  }
  try {
    StepDerivatives d =
        moreau::step_derivatives(*system_, q_, v_, t_, settings_, ctrl, qfrc, set, ds, params);
    apply_inputs();
    return d;
  } catch (...) {
    apply_inputs();
    throw;
  }
}

void Simulator::step(long n) {
  MOREAU_REQUIRE(!event_driven_,
                 "step: an event-driven scene advances by time, through its events: call "
                 "advance(dt) (Python: sim.step(dt=…))");
  MOREAU_REQUIRE(n >= 0, "step: n = {}: must be ≥ 0", n);
  apply_inputs();
  start_run();
  for (long k = 0; k < n; ++k) {
    if (run_->ended() && run_->t() >= settings_.t_end) {  // the run's length, not a failure
      drop_run();
      start_run();
    }
    try {
      run_->step();
    } catch (const std::invalid_argument& e) {  // the inputs were checked: the model failed
      drop_run();  // a step that throws leaves the run past the kept state: start anew
      throw std::runtime_error(fmt::format("step at t = {} s failed: {}", t_, e.what()));
    } catch (...) {
      drop_run();
      throw;
    }
    if (run_->result().status != SimulationStatus::completed) {  // diverged: keep the last state
      const std::string why = run_->result().message;
      drop_run();
      throw std::runtime_error(fmt::format("step at t = {} s failed: {}", t_, why));
    }
    q_ = run_->q();
    v_ = run_->v();
    t_ = t0_ + run_->t();
    take_step_records();
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

Index Simulator::body_index(const std::string& name) const {
  const auto& bodies = system_->world().bodies();
  for (size_t b = 0; b < bodies.size(); ++b)
    if (bodies[b].name == name) return static_cast<Index>(b);
  throw std::invalid_argument(
      fmt::format("no body named '{}' (the world has {} bodies)", name, bodies.size()));
}

std::vector<Pose> Simulator::body_poses(const Vector& q) const {
  MOREAU_REQUIRE(q.size() == nq(), "body_poses: q has {} entries, the system has {}", q.size(),
                 nq());
  const RigidWorld& w = system_->world();
  const Vector qm = system_->maximal_positions(q);
  std::vector<Pose> out;
  for (Index b = 0; b < w.body_count(); ++b) out.push_back(w.body_pose(qm, b));
  return out;
}

// Joint coordinates: J_b of the forest's body (MultibodyModel::body_jacobian); loose bodies: the
// body's own block of v, (v; ω) in 3D, (v_x, v_y, ω) placed in (v_G; ω) in a planar world.
Matrix Simulator::body_jacobian(const Vector& q, Index b) const {
  const RigidWorld& w = system_->world();
  MOREAU_REQUIRE(q.size() == nq(), "body_jacobian: q has {} entries, the system has {}", q.size(),
                 nq());
  MOREAU_REQUIRE(b >= 0 && b < w.body_count(), "body_jacobian: body {} is not below {}", b,
                 w.body_count());
  Matrix J = Matrix::Zero(6, nv());
  if (const RigidWorldForest* forest = system_->forest()) {
    const Index mb = forest->body_of[static_cast<size_t>(b)];
    if (mb < 0) return J;
    MultibodyKinematics k;
    forest->model.kinematics(q, k);
    return forest->model.body_jacobian(k, mb);
  }
  const Index o = w.velocity_offset(b);
  if (o < 0) return J;
  if (w.dimension() == 3) {
    J.middleCols(o, 6).setIdentity();
  } else {
    J(0, o) = J(1, o + 1) = J(5, o + 2) = 1.0;
  }
  return J;
}

}  // namespace moreau
