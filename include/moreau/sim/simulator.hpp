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
// The time-stepping integrator only (an event-driven scene is stepped by time stepping at its dt).
#include <memory>
#include <string>
#include <vector>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/sim/time_stepping.hpp"

namespace moreau {

// A rigid world driven a step at a time (see the file comment).
class Simulator {
 public:
  // The world with its detection settings and its run's settings (the scene's); t_end is ignored.
  Simulator(std::shared_ptr<const RigidWorld> world, CollisionSettings collision,
            SimulationSettings settings);
  ~Simulator();

  // n time steps of dt with the inputs held (n ≥ 0).
  void step(long n = 1);
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
  // The initial state at t = 0, inputs zero.
  void reset();

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

  // The system stepped (its names, forest and model functions).
  const RigidWorldSystem& system() const { return *system_; }

 private:
  // Checks the inputs and hands them to the system; throws naming the bad entry.
  void apply_inputs();
  // Starts a run at (q_, v_) when there is none.
  void start_run();

  std::shared_ptr<RigidWorldSystem> system_;
  SimulationSettings settings_;
  std::unique_ptr<TimeSteppingRun> run_;
  Vector q_, v_, qfrc_, ctrl_;
  Matrix xfrc_;
  double t_ = 0.0;   // s
  double t0_ = 0.0;  // s, the time the current run started at
};

}  // namespace moreau
