#pragma once
// A rigid world stepped one time step at a time, with inputs held between steps: the loop a
// controller is written in (MuJoCo's mj_step with qfrc_applied and xfrc_applied, Drake's
// AdvanceTo). Each step is a step of the Moreau–Jean run of simulate() (sim/time_stepping.hpp),
// with the scene's settings; nothing is recorded unless asked.
//
//   const Scene s = load_scene("arm.xml");              // moreau/io/import/load_scene.hpp
//   Simulator sim(s.world, s.collision, s.settings);
//   sim.qfrc_applied() = sim.inverse_dynamics(sim.q(), Vector::Zero(sim.nv()),
//   Vector::Zero(sim.nv())); sim.step(1000);                                      // holds the arm
//   still for 1000 steps
//
// State writes (set_state, reset) start a new run from the written state: contacts are detected
// again, warm starts and contact history dropped, quaternions normalized. Inputs are checked when
// step() runs: a bad input throws std::invalid_argument naming it, and the state is unchanged.
// contacts() are the last step's; start_recording() … stop_recording() keep the steps between as
// a SimulationResult, which io/run/simulation_output.hpp writes as simulate()'s outputs.
// Time stepping is stepped a step at a time; an event-driven scene is advanced by a time dt through
// every event on the way (advance).
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/sim/event_driven.hpp"
#include "moreau/sim/step_derivatives.hpp"
#include "moreau/sim/time_stepping.hpp"

namespace moreau {

// The detection settings a rigid world runs with under `integrator` (simulate() of a scene and the
// Simulator): time stepping sees contacts within a margin that a body cannot cross in a few
// steps, at least 0.02 m; the event-driven integrator sees every feature pair (it locates
// closings by root finding on the gaps).
CollisionSettings run_collision_settings(CollisionSettings collision, Integrator integrator);

// One contact of the last step (Simulator::contacts()).
struct SimulatorContact {
  std::string name;    // as in contacts.csv
  std::string body_a;  // the first body ("" for a constraint that is not a contact between shapes)
  std::string body_b;  // the second body: the normal points from body_b towards body_a
  // World point midway between the witness points, m (NaN for a constraint that is not a
  // contact between shapes).
  Vector3 point = Vector3::Zero();
  Vector3 normal = Vector3::Zero();   // unit, world axes (NaN as point)
  Vector3 impulse = Vector3::Zero();  // the step's impulse on body_a in world axes, N·s (NaN as
                                      // point)
  double r_n = 0.0;                   // its normal component, N·s
  Vector r_t;                         // its tangential components (contact frame), N·s
  double gap = 0.0;                   // m, after the step
  ContactMode mode = ContactMode::separate;  // stick, slip or separate
};

// A parameter of a Simulator's model for step_derivatives: the world with the parameter at
// p + δ and at p − δ (same bodies, joints and actuators; io's scene edits build them from JSON
// pointers: Python's sim.step_derivatives(params=[...])).
struct WorldParameter {
  std::string name;                         // e.g. "/contact/default/mu"
  std::shared_ptr<const RigidWorld> plus;   // the world at p + δ
  std::shared_ptr<const RigidWorld> minus;  // the world at p − δ
  double delta = 0.0;                       // δ > 0
};

// A rigid world driven a step at a time (see the file comment).
class Simulator {
 public:
  // The world with its detection settings and its run's settings (the scene's: time stepping;
  // t_end is only reported); the contact margin is at least 0.02 m, as simulate() runs a scene.
  Simulator(std::shared_ptr<const RigidWorld> world, CollisionSettings collision,
            SimulationSettings settings);
  ~Simulator();

  // n time steps of dt with the inputs held (n ≥ 0); refused for an event-driven scene.
  void step(long n = 1);
  // Advances by dt (s) with the inputs held: time stepping takes dt/h steps (a whole number);
  // an event-driven scene runs its integrator to t + dt through every event on the way (its
  // contacts() then hold forces, N). A failed stretch throws std::runtime_error, the state kept.
  void advance(double dt);
  // The time, s.
  double t() const { return t_; }
  // The positions q (nq) and velocities v (nv).
  const Vector& q() const { return q_; }
  // The velocities v (nv).
  const Vector& v() const { return v_; }
  // nq and nv.
  Index nq() const { return system_->position_size(); }
  // nv, the size of v and of qfrc_applied.
  Index nv() const { return system_->velocity_size(); }
  // Sets the state (validated: sizes, finite; quaternions normalized); the next step starts anew.
  void set_state(const Vector& q, const Vector& v);
  // The initial state at t = 0 (with the world's initial-state edits), inputs zero but the
  // edits' controls; a recording on is dropped.
  void reset();
  // The keyframe of that name at t = 0 (model/rigid/keyframe.hpp): its q, v and ctrl, other
  // inputs zero. Throws std::invalid_argument naming it when the model has no such keyframe,
  // and the state is unchanged.
  void reset(const std::string& keyframe);
  // The model's keyframes' names.
  std::vector<std::string> keyframe_names() const;

  // Generalized forces held until changed (nv; resized on first use), N or N·m.
  Vector& qfrc_applied() { return qfrc_; }
  // A wrench per body (body_count × 6: force, then torque; world axes; at the centre of mass).
  Matrix& xfrc_applied() { return xfrc_; }
  // One control per actuator (model/rigid/actuator.hpp), held until changed; clamped to an
  // actuator's ctrlrange when it has one.
  Vector& ctrl() { return ctrl_; }
  // nu, the number of actuators.
  Index nu() const { return static_cast<Index>(system_->world().actuators().size()); }
  // The actuators' names, in ctrl's order.
  std::vector<std::string> actuator_names() const;
  // The actuators' forces f at the current state and controls (after clamping), N or N·m.
  Vector actuator_forces() const;

  // Names of q and v, as in trajectory.csv's joint columns and the system's coordinates.
  std::vector<std::string> coordinate_names() const { return system_->position_names(); }
  // Names of v.
  std::vector<std::string> velocity_names() const { return system_->velocity_names(); }
  // The body names, in xfrc_applied's row order.
  std::vector<std::string> body_names() const;

  // The derivatives of the next step (as step() would take it, without its projection) with
  // respect to the state and the inputs: sim/step_derivatives.hpp, docs/gradients.md. The state
  // and inputs are unchanged. Throws std::invalid_argument for an event-driven scene or Siconos'
  // scheme, and for bad inputs (naming them).
  // With parameters, dv_dparams and dq_dparams have a column for each.
  StepDerivatives step_derivatives(const StepDerivativeSettings& settings = {},
                                   const std::vector<WorldParameter>& parameters = {});

  // M(q) (nv × nv).
  Matrix mass_matrix(const Vector& q) const;
  // The generalized force that gives the acceleration a at (q, v) without contacts:
  //   τ = M(q) a + F(q, v),
  // F the system's forces without the inputs and actuators: gravity, Coriolis and centrifugal
  // forces, the joint springs and dampers (their armature is in M) and the scene's constant loads.
  // As MuJoCo's mj_inverse, it leaves out dry joint friction (frictionloss) and equality and
  // contact forces.
  Vector inverse_dynamics(const Vector& q, const Vector& v, const Vector& a) const;
  // F(q, v) of the same (inverse_dynamics at a = 0).
  Vector bias_forces(const Vector& q, const Vector& v) const;
  // Forward kinematics: the pose of every body at q (body_names' order; the body frame of the
  // rigid world, at the centre of mass; static bodies where they stand).
  std::vector<Pose> body_poses(const Vector& q) const;
  // The body Jacobian J_b (6 × nv) at q: (v_G; ω) = J_b v, the velocity of body b's centre of
  // mass and its angular velocity, world axes (zero for a static body). b indexes body_names.
  Matrix body_jacobian(const Vector& q, Index b) const;
  // The index of a body in body_names; throws naming it when there is none.
  Index body_index(const std::string& name) const;

  // The system stepped (its names, forest and model functions).
  const RigidWorldSystem& system() const { return *system_; }
  // The settings of its steps (the scene's; t_end and record_interval are the scene's too).
  const SimulationSettings& settings() const { return scene_settings_; }

  // The contacts of the last step (of the index set: closed, or open and about to be), with
  // their impulses; empty before the first step and after a state write.
  const std::vector<SimulatorContact>& contacts() const;

  // Starts keeping the steps: the current state is the first record, then every step (or every
  // record_interval of the scene's settings), its contacts and its events. A recording already
  // on goes on.
  void start_recording();
  // Ends the recording and hands it over as simulate() would return it (status completed,
  // energies and penetration of the records, the steps' solver failures); empty when none was
  // on.
  SimulationResult stop_recording();
  // Whether a recording is on.
  bool recording() const { return recording_.has_value(); }
  // Puts back a recording handed over by stop_recording() (a caller that could not write it),
  // to go on from where it was.
  void resume_recording(SimulationResult recording);

 private:
  // Checks the inputs and hands them to the system; throws naming the bad entry.
  void apply_inputs();
  // Starts a run at (q_, v_) when there is none.
  void start_run();
  // Ends the run, keeping the names of the last step's contacts.
  void drop_run();
  // Takes the last step's records from the run: contacts(), and the recording's.
  void take_step_records();
  // Appends the current state and the last step's contacts to the recording.
  void record_state();
  // The name of contact `id` of last_'s records (last_names()), "" when out of range.
  std::string run_contact_name(Index id) const;
  // The names that last_'s contact ids index: last_'s own, or the current run's.
  const std::vector<std::string>* last_names() const;
  // Logs a run's events (started at t0, contact ids into names) in the recording, capped.
  void log_events(const std::vector<SimulationEvent>& events, double t0,
                  const std::vector<std::string>& names);
  // The recording's index of a contact name (added on first sight).
  Index recorded_id(const std::string& name);
  // The recording's index of contact `id` of the current run (its name's, found once a run).
  Index recorded_id_of(Index run_id);

  std::shared_ptr<RigidWorldSystem> system_;
  SimulationSettings settings_, scene_settings_;  // the runs', the scene's
  std::unique_ptr<TimeSteppingRun> run_;
  Vector q_, v_, qfrc_, ctrl_;
  Matrix xfrc_;
  double t_ = 0.0;                                  // s
  double t0_ = 0.0;                                 // s, the time the current run started at
  mutable std::vector<SimulatorContact> contacts_;  // contacts(), built from last_ when asked
  mutable bool contacts_built_ = false;
  SimulationResult last_;  // the last step's records taken from the run (contacts, names, events)
  std::optional<SimulationResult> recording_;            // the steps kept since start_recording()
  std::unordered_map<std::string, Index> recorded_ids_;  // contact name → the recording's index
  std::vector<Index> recorded_of_run_;  // the current run's contact id → recording's (−1: not yet)
  double next_record_ = 0.0;            // s, the next recorded time (record_interval > 0)
  double emin_ = 0.0;                   // J, the least energy recorded so far
  int failures_before_ = 0;             // solver failures of the current run before the last step
  double worst_before_ = 0.0;           // the run's worst solver residual before the last step
  long iterations_before_ = 0;          // the run's solver iterations before the last step
  double work_before_ = 0.0;            // the run's solver work before the last step
  bool event_driven_ = false;           // the scene's integrator is event-driven: advance(dt) only
};

}  // namespace moreau
