"""moreau.Simulator (docs/simulator.md): a step at a time with held inputs, against closed forms."""
import math

import numpy as np
import pytest

import moreau

ROTOR = {
    "description": "a rotor on a hinge about z, no gravity",
    "dimension": 3,
    "gravity": [0, 0, 0],
    "bodies": [{"name": "rotor", "mass": 1, "inertia": [0.1, 0.1, 0.2], "position": [0, 0, 0],
                "parent": "world", "joints": [{"name": "axle", "axis": [0, 0, 1]}]}],
    "integrator": {"kind": "timestepping", "dt": 1e-3},
    "t_end": 1,
}

ARM = """<mujoco><option timestep="0.001"/><worldbody>
  <body name="upper" pos="0 0 1"><joint name="shoulder" axis="0 1 0"/>
    <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.04" contype="0" conaffinity="0"/>
    <body name="fore" pos="0.4 0 0"><joint name="elbow" axis="0 1 0" damping="0.1"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" contype="0" conaffinity="0"/>
    </body></body></worldbody></mujoco>"""


def test_a_held_torque_turns_a_hinge_as_tau_t_squared_over_two_i():
    sim = moreau.Simulator(ROTOR)
    assert sim.velocity_names == ["axle.v"] and sim.nv == 1
    sim.qfrc_applied[0] = 0.3  # a view: the write reaches the simulator
    sim.step(500)
    assert sim.t == pytest.approx(0.5, abs=1e-12)
    assert sim.q[0] == pytest.approx(0.3 * 0.25 / (2 * 0.2), abs=1e-12)
    assert sim.v[0] == pytest.approx(0.3 * 0.5 / 0.2, abs=1e-12)


def test_gravity_compensation_holds_an_arm_at_rest(tmp_path):
    path = tmp_path / "arm.xml"
    path.write_text(ARM)
    sim = moreau.Simulator(str(path))
    q0 = sim.q
    zero = np.zeros(sim.nv)
    for _ in range(500):
        sim.qfrc_applied = sim.inverse_dynamics(sim.q, zero, zero)
        sim.step()
    assert np.abs(sim.q - q0).max() < 1e-9
    # mass_matrix and inverse_dynamics are one model: τ(a) − τ(0) = M a
    a = np.array([1.0, -2.0])
    v = np.array([0.3, 0.1])
    M = sim.mass_matrix()
    assert np.allclose(sim.inverse_dynamics(sim.q, v, a) - sim.bias_forces(sim.q, v), M @ a,
                       atol=1e-12)
    sim.reset()
    sim.step(100)
    assert np.abs(sim.q - q0).max() > 1e-2  # without compensation it falls


def test_bad_inputs_raise_at_step_and_keep_the_state():
    sim = moreau.Simulator(ROTOR)
    sim.step(3)
    q, v, t = sim.q, sim.v, sim.t
    sim.qfrc_applied[0] = math.nan
    with pytest.raises(ValueError, match=r"qfrc_applied\[0\] = nan"):
        sim.step()
    assert (sim.q == q).all() and (sim.v == v).all() and sim.t == t
    with pytest.raises(ValueError, match=r"qfrc_applied: got shape \(2, 1\), the simulator holds \(1, 1\)"):
        sim.qfrc_applied = [1.0, 2.0]  # a wrong shape is refused at once: the views stay valid
    view = sim.qfrc_applied
    sim.reset()
    view[0] = 0.5  # still the simulator's storage after reset()
    assert sim.qfrc_applied[0] == 0.5
    with pytest.raises(ValueError, match="q has 3 entries"):
        sim.q = [0.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="floating_base and ground"):
        moreau.Simulator(ROTOR, ground=True)
    sim.qfrc_applied = [0.0]
    sim.v = [2.0]  # a state write: the next step starts from it
    sim.step(10)
    assert sim.q[0] == pytest.approx(q[0] + 2.0 * 0.01, abs=1e-12)


def test_the_simulator_shows_its_attributes():
    names = dir(moreau.Simulator)
    for attribute in ("q", "v", "t", "step", "reset", "qfrc_applied", "xfrc_applied",
                      "inverse_dynamics", "mass_matrix", "velocity_names"):
        assert attribute in names
    assert moreau.Simulator.__doc__ and moreau.Simulator.inverse_dynamics.__doc__


def test_urdf_joints_get_motors_capped_by_their_effort(tmp_path):
    """A URDF joint becomes a torque motor named after it, its force capped by <limit effort>:
    ctrl 3 on an effort of 0.5 N·m turns a link of I = 0.01 kg·m² as 0.5 t²/(2I)."""
    urdf = tmp_path / "wrist.urdf"
    urdf.write_text(
        '<robot name="w"><link name="base"/><link name="hand"><inertial><mass value="1"/>'
        '<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>'
        '<joint name="wrist" type="continuous"><parent link="base"/><child link="hand"/>'
        '<axis xyz="0 0 1"/><limit effort="0.5" velocity="0"/></joint></robot>')
    sim = moreau.Simulator(str(urdf))
    assert sim.actuator_names == ["wrist"]
    sim.ctrl[0] = 3.0
    sim.step(500)
    assert sim.actuator_forces[0] == pytest.approx(0.5, abs=1e-15)
    assert sim.q[0] == pytest.approx(0.5 * 0.25 / (2 * 0.01), abs=1e-10)


def test_scene_actuators_and_bad_ctrl():
    scene = dict(ROTOR, actuators=[{"name": "servo", "joint": "axle", "type": "position",
                                    "kp": 10, "kv": 1, "ctrlrange": [-1, 1]}])
    sim = moreau.Simulator(scene)
    assert sim.nu == 1 and sim.actuator_names == ["servo"]
    sim.ctrl = [0.5]
    sim.step(5000)  # a damped servo settles at its target
    assert sim.q[0] == pytest.approx(0.5, abs=1e-6)
    q = sim.q
    sim.ctrl[0] = math.inf
    with pytest.raises(ValueError, match=r"ctrl\[0\] = inf \(actuator 'servo'\)"):
        sim.step()
    assert (sim.q == q).all()
    with pytest.raises(ValueError, match="actuators\\[0\\].type = \"hydraulic\""):
        moreau.Simulator(dict(ROTOR, actuators=[{"joint": "axle", "type": "hydraulic"}]))
