"""moreau: rigid multibody systems with unilateral contacts, Coulomb friction and impacts.

The compiled core is ``moreau._moreau``; the private submodules add the Python-side helpers
(plots, conveniences) of each area. Everything public is re-exported here.
"""
from . import _moreau, _errors

_errors.install(_moreau)  # argument errors name the argument (InputError, a ValueError)
from ._errors import InputError  # noqa: E402,F401
from ._moreau import *  # noqa: F401,F403,E402
from ._moreau import Status, SolverReport  # noqa: F401
from ._moreau import __version__  # noqa: F401  (the CMake project version)
from ._solve import *  # noqa: F401,F403
from ._analysis import *  # noqa: F401,F403
from ._impact import *  # noqa: F401,F403
from ._simulate import *  # noqa: F401,F403
from ._simulator import Simulator  # noqa: F401,E402
from ._sweep import sweep, load_sweep, sweep_points  # noqa: F401,E402
from ._view import view  # noqa: F401,E402
from ._gradients import rollout_gradient  # noqa: F401,E402
