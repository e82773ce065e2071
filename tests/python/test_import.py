"""The package imports from the build tree and exposes the solver statuses."""
import moreau


def test_status_names_round_trip():
    assert str(moreau.Status.converged) == "converged"
    assert str(moreau.Status.ray_termination) == "ray_termination"
