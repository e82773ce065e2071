"""Gradients of a rollout by the adjoint (reverse) method over Simulator.step_derivatives
(docs/gradients.md §Trajectories)."""
import numpy as np

__all__ = ["rollout_gradient"]


def _checked(name, value, shape, k):
    value = np.asarray(value, dtype=float)
    if value.shape != shape:
        from ._errors import InputError
        raise InputError(f"rollout_gradient: {name} at step {k} has shape {value.shape}, "
                         f"expected {shape}")
    if not np.all(np.isfinite(value)):
        from ._errors import InputError
        raise InputError(f"rollout_gradient: {name} at step {k} is not finite: {value}")
    return value


def rollout_gradient(sim, controls, cost, final_cost=None, inputs="ctrl"):
    """The cost of a rollout and its gradient by the adjoint method.

    From the simulator's current state x_0 = (q_0, v_0), takes N = len(controls) steps with
    u_k = controls[k] held during step k, and returns (J, dJ_du, dJ_dx0) for

        J = sum_{k<N} l(x_k, u_k, k) + l_N(x_N).

    sim: a moreau.Simulator (time stepping). controls: an N x m array; inputs names what u sets:
    'ctrl' (m = nu) or 'qfrc' (m = nv, the generalized forces qfrc_applied). The other inputs
    stay as held.

    cost(q, v, u, k) returns (l, l_x, l_u): the stage cost, its gradient in x (2 nv entries: with
    respect to the tangent step dq of q + dq, as q ⊕ dq = integrate(q, dq, 1), then to v; for
    joints without quaternions that is the plain gradient in q) and its gradient in u (m).
    final_cost(q, v) returns (l_N, l_N_x), or None for no final cost.

    The adjoint recursion with A_k = d x_{k+1}/d x_k and B_k = d x_{k+1}/d u_k from
    sim.step_derivatives() at each step: lambda_N = l_N_x, dJ/du_k = l_u + B_k^T lambda_{k+1},
    lambda_k = l_x + A_k^T lambda_{k+1}; dJ_dx0 = lambda_0 (2 nv, tangent then v). Each step
    costs one step and one step_derivatives. The simulator is put back at x_0 with its inputs
    as they were; a contact on a mode boundary gives the one-sided derivative of
    docs/gradients.md §Modes."""
    from ._errors import InputError
    if inputs not in ("ctrl", "qfrc"):
        raise InputError(f"rollout_gradient: inputs = {inputs!r}: expected 'ctrl' or 'qfrc'")
    controls = np.atleast_2d(np.asarray(controls, dtype=float))
    n = sim.nv
    m = sim.nu if inputs == "ctrl" else n
    if controls.ndim != 2 or controls.shape[1] != m or controls.shape[0] == 0:
        raise InputError(f"rollout_gradient: controls has shape {controls.shape}, expected "
                         f"(N, {m}) with N >= 1 ({inputs})")
    if not np.all(np.isfinite(controls)):
        raise InputError("rollout_gradient: controls has a NaN or an infinity")
    q0, v0 = sim.q, sim.v
    held_ctrl, held_qfrc = np.array(sim.ctrl), np.array(sim.qfrc_applied)
    dv_du, dq_du = ("dv_dctrl", "dq_dctrl") if inputs == "ctrl" else ("dv_dqfrc", "dq_dqfrc")
    J = 0.0
    A, B, lx, lu = [], [], [], []
    try:
        for k, u in enumerate(controls):
            if inputs == "ctrl":
                sim.ctrl = u
            else:
                sim.qfrc_applied = u
            q, v = sim.q, sim.v
            l, l_x, l_u = cost(q, v, u.copy(), k)
            J += float(l)
            lx.append(_checked("cost's l_x", l_x, (2 * n,), k))
            lu.append(_checked("cost's l_u", l_u, (m,), k))
            d = sim.step_derivatives()
            A.append(np.block([[d["dq_dq"], d["dq_dv"]], [d["dv_dq"], d["dv_dv"]]]))
            B.append(np.vstack([d[dq_du], d[dv_du]]))
            sim.step()
        lam = np.zeros(2 * n)
        if final_cost is not None:
            l_N, l_N_x = final_cost(sim.q, sim.v)
            J += float(l_N)
            lam = _checked("final_cost's gradient", l_N_x, (2 * n,), len(controls))
        grad = np.zeros_like(controls)
        for k in range(len(controls) - 1, -1, -1):
            grad[k] = lu[k] + B[k].T @ lam
            lam = lx[k] + A[k].T @ lam
        return J, grad, lam
    finally:
        sim.set_state(q0, v0)
        sim.ctrl = held_ctrl
        sim.qfrc_applied = held_qfrc
