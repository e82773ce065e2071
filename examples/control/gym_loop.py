"""A Gymnasium-style reaching environment on the six-joint arm (arm6.xml), without gymnasium.

ArmReachEnv follows Gymnasium's API: reset(seed) -> (obs, info) and
step(action) -> (obs, reward, terminated, truncated, info). The action is the six joint torques
(N·m, clipped to the motors' range), the observation is concat(q, v), the reward is
-||q - q_goal||^2, and an episode is truncated after max_steps steps. reset() goes back to the
model's initial state with sim.reset() and adds small random joint offsets (sim.set_state), drawn
from a generator seeded by reset(seed=...), so a seed repeats an episode exactly.

main() runs one episode with a PD + gravity-compensation policy and prints its return. Run from
the repository root:

    PYTHONPATH=build/python /usr/bin/python3 examples/control/gym_loop.py
"""
from pathlib import Path

import numpy as np

import moreau

MODEL = Path(__file__).with_name("arm6.xml")
GOAL = np.array([-0.4, -0.8, 1.2, -0.5, 0.6, 0.5])  # rad, j1 … j6
KP = np.array([200.0, 200.0, 50.0, 5.0, 5.0, 5.0])   # the policy's gains (arm_hold_pose.py's)
KD = np.array([20.0, 20.0, 5.0, 0.5, 0.5, 0.5])


class ArmReachEnv:
    """Reach a joint-space goal with joint torques; one env step = frame_skip simulator steps."""

    def __init__(self, goal=GOAL, max_steps=1000, frame_skip=1, noise=0.05, torque_limit=100.0,
                 model=MODEL):
        self.sim = moreau.Simulator(str(model))
        self.goal = np.asarray(goal, dtype=float)
        self.max_steps, self.frame_skip, self.noise = max_steps, frame_skip, noise
        self.torque_limit = torque_limit
        self.n = self.sim.nv
        self._rng = np.random.default_rng()
        self._steps = 0

    def _obs(self):
        return np.concatenate([self.sim.q, self.sim.v])

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.sim.reset()
        q = self.sim.q + self._rng.uniform(-self.noise, self.noise, self.n)
        self.sim.set_state(q, np.zeros(self.n))
        self._steps = 0
        return self._obs(), {"t": self.sim.t}

    def step(self, action):
        self.sim.ctrl[:] = np.clip(action, -self.torque_limit, self.torque_limit)
        self.sim.step(self.frame_skip)
        self._steps += 1
        error = self.sim.q - self.goal
        truncated = self._steps >= self.max_steps
        return self._obs(), -float(error @ error), False, truncated, {
            "t": self.sim.t, "error": float(np.linalg.norm(error))}


def pd_gravity_policy(env, kp=KP, kd=KD):
    """A policy obs -> torques: PD on the goal plus the gravity term of env's own model."""
    zero = np.zeros(env.n)

    def policy(obs):
        q, v = obs[:env.n], obs[env.n:]
        return kp * (env.goal - q) - kd * v + env.sim.inverse_dynamics(q, zero, zero)
    return policy


def episode(env, policy, seed=None):
    """Runs one episode; returns (return, last obs, last info)."""
    obs, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        obs, reward, terminated, truncated, info = env.step(policy(obs))
        total += reward
        done = terminated or truncated
    return total, obs, info


def main():
    env = ArmReachEnv()
    total, obs, info = episode(env, pd_gravity_policy(env), seed=0)
    print(f"PD + gravity: return {total:.4f} over {env.max_steps} steps ({info['t']:.3f} s), "
          f"final ||q - q_goal|| = {info['error']:.3e} rad")
    total, obs, info = episode(env, lambda obs: np.zeros(env.n), seed=0)
    print(f"zero torque:  return {total:.4f}, final ||q - q_goal|| = {info['error']:.3e} rad")


if __name__ == "__main__":
    main()
