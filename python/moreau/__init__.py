"""moreau: rigid multibody systems with unilateral contacts, Coulomb friction and impacts.

The compiled core is ``moreau._moreau``; the submodules add the Python-side helpers
(plots, conveniences). Everything public is re-exported here.
"""
from ._moreau import *  # noqa: F401,F403
from ._moreau import Status, SolverReport  # noqa: F401
