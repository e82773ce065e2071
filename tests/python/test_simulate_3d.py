"""Reading a 3D run back from its folder: trajectory.csv has per body 7 positions (x, y, z, qw, qx,
qy, qz) but 6 velocities (vx, vy, vz, wx, wy, wz), so the columns cannot be split in halves; the
reader finds the split from the header's names."""
import csv

import numpy as np

import moreau
from moreau import _simulate


def two_spheres_3d():
    # two spheres r = 0.1 m falling freely (no ground) for 0.05 s: two dynamic 3D bodies,
    # nq = 2·7 = 14, nv = 2·6 = 12
    return {
        "description": "two free spheres, 3D",
        "dimension": 3,
        "gravity": [0, 0, -9.81],
        "bodies": [
            {"name": "a", "mass": 1.0, "position": [0, 0, 1], "velocity": [0.5, 0, 0],
             "shapes": [{"type": "sphere", "radius": 0.1}]},
            {"name": "b", "mass": 2.0, "position": [1, 0, 1], "angular_velocity": [0, 0, 3],
             "shapes": [{"type": "sphere", "radius": 0.1}]},
        ],
        "integrator": {"kind": "timestepping", "dt": 0.01},
        "t_end": 0.05,
        "output": {"plot": False},
    }


def test_read_dir_splits_3d_columns(tmp_path):
    out = tmp_path / "run"
    res = moreau.simulate(two_spheres_3d(), out=out)
    assert res.q.shape[1] == 14 and res.v.shape[1] == 12
    with open(out / "trajectory.csv") as f:
        header = next(csv.reader(f))
    assert len(header) == 1 + 14 + 12 + 2

    d = _simulate._read_dir(str(out))
    q, v = np.asarray(d["q"]), np.asarray(d["v"])
    assert q.shape == (len(d["t"]), 14)   # 7 per body
    assert v.shape == (len(d["t"]), 12)   # 6 per body
    assert d["position_names"][:7] == ["a.x", "a.y", "a.z", "a.qw", "a.qx", "a.qy", "a.qz"]
    assert d["velocity_names"][:6] == ["a.vx", "a.vy", "a.vz", "a.wx", "a.wy", "a.wz"]
    np.testing.assert_allclose(q, res.q, rtol=0, atol=1e-15)
    np.testing.assert_allclose(v, res.v, rtol=0, atol=1e-15)
    # free flight: ż = −g t for both, b spins at ω_z = 3 rad/s, a moves at 0.5 m/s along x
    np.testing.assert_allclose(v[:, 2], -9.81 * d["t"], atol=1e-9)
    np.testing.assert_allclose(v[:, 6 + 5], 3.0, atol=1e-12)
    np.testing.assert_allclose(q[:, 0], 0.5 * d["t"], atol=1e-12)
    # unit quaternions in the q columns (the old split put a velocity in q)
    for k in range(2):
        np.testing.assert_allclose(np.linalg.norm(q[:, 7 * k + 3:7 * k + 7], axis=1), 1.0, atol=1e-12)


def test_position_count_from_names():
    # planar world, callback system, generic system and a 2D rigid world
    assert _simulate._position_count(["r.x", "r.y", "r.theta", "r.x_dot", "r.y_dot", "r.theta_dot"], {}) == 3
    assert _simulate._position_count(["x", "theta", "x_dot", "theta_dot"], {}) == 2
    assert _simulate._position_count(["q0", "q1", "q2", "v0", "v1", "v2"], {}) == 3
    assert _simulate._position_count(["b.x", "b.y", "b.theta", "b.vx", "b.vy", "b.omega"], {}) == 3
    assert _simulate._position_count(["b.x", "b.y", "b.z", "b.phi_x", "b.phi_y", "b.phi_z",
                                      "b.vx", "b.vy", "b.vz", "b.wx", "b.wy", "b.wz"], {}) == 6
