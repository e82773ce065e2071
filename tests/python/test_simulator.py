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
    with pytest.raises(moreau.InputError, match=r"qfrc_applied\[0\] = nan"):
        sim.step()
    assert (sim.q == q).all() and (sim.v == v).all() and sim.t == t
    with pytest.raises(moreau.InputError, match=r"qfrc_applied: got shape \(2, 1\), the simulator holds \(1, 1\)"):
        sim.qfrc_applied = [1.0, 2.0]  # a wrong shape is refused at once: the views stay valid
    view = sim.qfrc_applied
    sim.reset()
    view[0] = 0.5  # still the simulator's storage after reset()
    assert sim.qfrc_applied[0] == 0.5
    with pytest.raises(moreau.InputError, match="q has 3 entries"):
        sim.q = [0.0, 0.0, 0.0]
    with pytest.raises(moreau.InputError, match="argument .ground. places a URDF robot"):
        moreau.Simulator(ROTOR, ground=True)
    sim.qfrc_applied = [0.0]
    sim.step(2)
    before_q, before_t = sim.q, sim.t
    with pytest.raises(moreau.InputError, match="no keyframe named 'home'"):
        sim.reset("home")
    assert (sim.q == before_q).all() and sim.t == before_t
    q = sim.q
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


BOX = {
    "description": "a 1 kg cube of 0.2 m resting on a floor, mu 0.5",
    "dimension": 3,
    "static_shapes": [{"type": "plane", "name": "floor", "normal": [0, 0, 1], "offset": 0}],
    "bodies": [{"name": "box", "mass": 1.0, "position": [0, 0, 0.1],
                "shapes": [{"type": "box", "half_extents": [0.1, 0.1, 0.1]}]}],
    "contact": {"default": {"mu": 0.5}},
    "integrator": {"kind": "timestepping", "dt": 1e-3},
    "t_end": 0.05,
}


def test_contacts_give_points_normals_and_the_weight_as_impulse():
    # At rest the floor's impulses over one step add up to m g h = 9.81e-3 N·s upwards on the
    # box, at points on z = 0 under its footprint.
    sim = moreau.Simulator(BOX)
    assert sim.contacts == []
    sim.step(10)
    contacts = sim.contacts
    assert len(contacts) >= 3
    total = np.zeros(3)
    for c in contacts:
        assert (c.body_a, c.body_b) == ("box", "ground")  # the normal points from ground to box
        assert abs(c.point[2]) < 1e-6 and np.abs(c.point[:2]).max() <= 0.1 + 1e-9
        assert abs(abs(c.normal[2]) - 1) < 1e-12 and c.mode in ("stick", "slip", "separate")
        total += c.impulse
    assert total == pytest.approx([0, 0, 9.81e-3], abs=1e-9)
    assert "moreau.Contact(" in repr(contacts[0])


def test_a_recording_is_what_simulate_writes(tmp_path):
    # The same 50 steps recorded from a Simulator and run by moreau.simulate: the same states, and
    # contacts.csv carries each contact's point and normal.
    sim = moreau.Simulator(BOX)
    sim.start_recording()
    sim.step(50)
    rec = sim.stop_recording(out=tmp_path / "rec")
    ref = moreau.simulate(BOX, out=tmp_path / "ref")
    assert rec.q.shape == ref.q.shape == (51, 7)
    assert np.abs(rec.q - ref.q).max() <= 1e-12
    assert np.isfinite(ref.contacts["point"]).all() and ref.contacts["point"].shape[1] == 3
    back = moreau.load_run(tmp_path / "rec")
    assert np.allclose(back.contacts["point"], rec.contacts["point"], atol=1e-15)
    assert np.allclose(np.abs(back.contacts["normal"][:, 2]), 1.0, atol=1e-12)
    assert not (tmp_path / "rec" / "plot.png").exists()
    with pytest.raises(ValueError, match="no recording is on"):
        sim.stop_recording()


def test_a_controller_is_called_before_every_step(tmp_path):
    # simulate(controller=f): f(sim) before each of the 1000 steps; a held torque from the
    # controller turns the rotor as tau t^2 / 2I, which the recorded final state shows.
    calls = []

    def torque(sim):
        calls.append(sim.t)
        sim.qfrc_applied[0] = 0.3

    res = moreau.simulate(ROTOR, controller=torque, out=tmp_path / "run")
    assert len(calls) == 1000 and calls[0] == 0.0
    assert res.t[-1] == pytest.approx(1.0, abs=1e-12)
    angle = res.q[:, res.position_names.index("axle.q")]
    assert angle[-1] == pytest.approx(0.3 / (2 * 0.2), abs=1e-11)
    assert (tmp_path / "run" / "trajectory.csv").exists()
    assert not (tmp_path / "run" / "plot.png").exists()  # drawn only when asked
    with pytest.raises(ValueError, match="argument 'controller'"):
        moreau.simulate(ROTOR, controller=3)


def test_python_arguments_are_named_and_apply_or_are_refused():
    with pytest.raises(ValueError, match=r"argument 't_end' = -1.0: must be > 0 s"):
        moreau.simulate(ROTOR, t_end=-1)
    with pytest.raises(ValueError, match="argument 'floating_base' places a URDF robot"):
        moreau.simulate(ROTOR, floating_base=True)
    with pytest.raises(ValueError, match="kind = 'rk4'"):
        moreau.simulate(ROTOR, integrator="rk4")
    # integrator={"dt": ...} overrides a scene's step, for simulate and for the Simulator
    res = moreau.simulate(ROTOR, t_end=0.01, integrator={"dt": 2e-3})
    assert len(res.t) == 6
    assert moreau.Simulator(ROTOR, integrator={"dt": 5e-4}).dt == 5e-4
    with pytest.raises(ValueError, match="integrator.dt"):
        moreau.simulate(ROTOR, integrator={"dt": -1})
    names = dir(moreau.Simulator(ROTOR))
    for name in ("q", "v", "ctrl", "qfrc_applied", "contacts", "step", "inverse_dynamics",
                 "start_recording"):
        assert name in names
    assert moreau.Simulator.contacts.__doc__ and moreau.SimulationResult.__doc__


KEYED = """<mujoco><compiler angle="radian"/><option gravity="0 0 0"/><worldbody>
  <body name="box" pos="0 0 1"><freejoint/>
    <geom type="box" size="0.05 0.05 0.05" pos="0.1 0 0" mass="1"/></body>
  <body name="arm" pos="2 0 1"><joint name="elbow" axis="0 1 0" ref="0.2"/>
    <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05" contype="0" conaffinity="0"/></body>
  </worldbody>
  <actuator><position name="servo" joint="elbow" kp="10"/></actuator>
  <keyframe><key name="turned" qpos="1 2 3 0.7071067811865476 0 0 0.7071067811865476 0.5"
                 ctrl="0.25"/></keyframe></mujoco>"""


def test_keyframes_start_and_reset_the_simulator(tmp_path):
    # The key puts the box's frame at (1, 2, 3) turned 90° about z: its centre of mass, 0.1 m
    # along the frame's x, is at (1, 2.1, 3); the hinge's coordinate is qpos − ref = 0.3.
    path = tmp_path / "keyed.xml"
    path.write_text(KEYED)
    sim = moreau.Simulator(str(path), keyframe="turned")
    names = sim.coordinate_names
    q = dict(zip(names, sim.q))
    assert (q["box.x"], q["box.y"], q["box.z"]) == pytest.approx((1, 2.1, 3), abs=1e-12)
    assert q["elbow.q"] == pytest.approx(0.3, abs=1e-12) and sim.ctrl[0] == 0.25
    positions, quaternions = sim.body_poses()
    assert positions[sim.body_names.index("box")] == pytest.approx([1, 2.1, 3], abs=1e-12)
    sim.reset()  # the initial state is the keyframe's: it was chosen at load
    assert dict(zip(names, sim.q))["elbow.q"] == pytest.approx(0.3, abs=1e-12)
    plain = moreau.Simulator(str(path))
    assert plain.keyframe_names == ["turned"]
    plain.step(2)
    before = plain.q
    with pytest.raises(ValueError, match=r"no keyframe named 'home' \(the model's: turned\)"):
        plain.reset("home")
    assert (plain.q == before).all()
    plain.ctrl[0] = math.nan  # checked when step() runs: refused, the state kept
    with pytest.raises(moreau.InputError, match=r"ctrl\[0\] = nan"):
        plain.step()
    assert (plain.q == before).all()
    with pytest.raises(moreau.InputError):  # an int the compiled step cannot take
        plain.step(2**63)
    assert (plain.q == before).all()
    plain.reset("turned")
    assert plain.t == 0 and dict(zip(names, plain.q))["box.y"] == pytest.approx(2.1, abs=1e-12)
    with pytest.raises(ValueError, match="keyframe 'home'"):
        moreau.Simulator(str(path), keyframe="home")
    # a base pose applies after the keyframe: the box's frame at (5, 0, 1), unturned, puts its
    # centre at (5.1, 0, 1); the hinge keeps the key's 0.3
    based = moreau.Simulator(str(path), keyframe="turned", base_pose=(5, 0, 1))
    qb = dict(zip(names, based.q))
    assert (qb["box.x"], qb["box.y"], qb["box.z"]) == pytest.approx((5.1, 0, 1), abs=1e-12)
    assert qb["elbow.q"] == pytest.approx(0.3, abs=1e-12)
    # moreau.convert writes the keyframes and the chosen start; the scene starts where the model did
    scene = moreau.convert(str(path), keyframe="turned")
    assert scene["keyframes"][0]["name"] == "turned" and "initial" in scene
    again = moreau.Simulator(scene)
    assert np.abs(again.q - sim.q).max() <= 1e-12 and again.keyframe_names == ["turned"]


def test_joint_values_srdf_states_and_a_base_pose_start_a_urdf(tmp_path):
    import pathlib
    urdf = str(pathlib.Path(__file__).parents[2] / "examples" / "urdf" / "two_link_arm.urdf")
    srdf = tmp_path / "arm.srdf"
    srdf.write_text('<robot name="a"><group_state name="ready" group="arm">'
                    '<joint name="shoulder" value="-0.3"/><joint name="elbow" value="0.6"/>'
                    '</group_state></robot>')
    sim = moreau.Simulator(urdf, srdf=srdf, keyframe="ready", joints={"elbow": 0.5})
    q = dict(zip(sim.coordinate_names, sim.q))
    assert (q["shoulder.q"], q["elbow.q"]) == pytest.approx((-0.3, 0.5), abs=1e-12)
    with pytest.raises(ValueError, match="no revolute or prismatic joint 'wrist'"):
        moreau.Simulator(urdf, joints={"wrist": 0.1})
    with pytest.raises(ValueError, match=r"argument 'joints\['elbow'\]'"):
        moreau.Simulator(urdf, joints={"elbow": float("nan")})
    # base_pose moves the root link's frame: the base's centre of mass follows as p + R c
    default = moreau.Simulator(urdf, floating_base=True)
    c = default.body_poses()[0][default.body_names.index("base_link")]
    placed = moreau.Simulator(urdf, floating_base=True, base_pose=(1, 2, 3, 0, 0, 0, 1))
    got = placed.body_poses()[0][placed.body_names.index("base_link")]
    assert got == pytest.approx([1 - c[0], 2 - c[1], 3 + c[2]], abs=1e-12)
    with pytest.raises(ValueError, match="argument 'base_pose'"):
        moreau.Simulator(urdf, base_pose=(1, 2))
    with pytest.raises(ValueError, match="argument 'base_pose' places a URDF or MJCF"):
        moreau.Simulator(ROTOR, base_pose=(0, 0, 0))
    res = moreau.simulate(urdf, t_end=0.002, joints={"elbow": 0.3})
    assert res.q[0, res.position_names.index("elbow.q")] == pytest.approx(0.3, abs=1e-12)


def test_an_event_driven_scene_advances_by_time_through_its_impacts():
    # The ball of examples/scenes/bouncing_ball.json (centre 1 m up, r = 0.1 m, e = 0.8) meets
    # the floor at t1 = sqrt(2 · 0.9 / g) and leaves at 0.8 g t1: at t = 0.75 s its centre is at
    # 0.1 + u τ − g τ²/2 with τ = t − t1, u = 0.8 g t1. Three stretches of 0.25 s reach it, the
    # impact recorded on the way.
    import pathlib
    scene = pathlib.Path(__file__).parents[2] / "examples" / "scenes" / "bouncing_ball.json"
    sim = moreau.Simulator(str(scene))
    with pytest.raises(ValueError, match=r"advances by time"):
        sim.step()
    g = 9.81
    t1 = math.sqrt(2 * 0.9 / g)
    sim.step(dt=0.25)
    y = dict(zip(sim.coordinate_names, sim.q))["ball.y"]
    assert y == pytest.approx(1 - g * 0.25 ** 2 / 2, abs=1e-9)
    sim.start_recording()
    sim.step(dt=0.25)
    sim.step(dt=0.25)
    rec = sim.stop_recording()
    tau, u = 0.75 - t1, 0.8 * g * t1
    y = dict(zip(sim.coordinate_names, sim.q))["ball.y"]
    assert sim.t == pytest.approx(0.75, abs=1e-12)
    assert y == pytest.approx(0.1 + u * tau - g * tau ** 2 / 2, abs=1e-8)
    impacts = [e["t"] for e in rec.events if e["kind"] == "impact"]
    assert len(impacts) == 1 and impacts[0] == pytest.approx(t1, abs=1e-9)
    assert rec.t[0] == pytest.approx(0.25) and rec.t[-1] == pytest.approx(0.75)
    # time stepping advances by whole steps only
    rotor = moreau.Simulator(ROTOR)
    rotor.step(dt=0.005)
    assert rotor.t == pytest.approx(0.005, abs=1e-15)
    with pytest.raises(ValueError, match="not a whole number of time steps"):
        rotor.step(dt=0.0015)
    with pytest.raises(moreau.InputError, match="argument 'n' = 0.5"):
        rotor.step(0.5)
    with pytest.raises(moreau.InputError, match="not both"):
        rotor.step(5, dt=0.01)
    with pytest.raises(moreau.InputError, match="event-driven"):
        moreau.simulate(str(scene), controller=lambda sim: None)
