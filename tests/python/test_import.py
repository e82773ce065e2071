"""The package imports from the build tree and exposes the solver statuses."""
import moreau


def test_status_names_round_trip():
    assert moreau.Status.converged.name == "converged"
    assert moreau.Status.ray_termination.name == "ray_termination"
