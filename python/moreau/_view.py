"""The viewer from Python: ``moreau.view(out_dir)`` writes the page of ``moreau view``.

The page is made by the command line program (apps/moreau/cmd_view.cpp), which holds the page
template built from viewer/ (three.js bundled in) and reads both output formats; this module
calls it (found as ``moreau sweep`` finds it: $MOREAU_CLI, the build tree, the prefix, PATH).
"""
import os
import subprocess

from ._errors import InputError, path_or_none
from ._sweep import find_cli

__all__ = ["view"]


def view(out_dir, html=None, max_frames=None):
    """Writes one self-contained HTML page that plays the run in ``out_dir`` and returns its path.

    out_dir: the output folder of ``moreau simulate`` or ``moreau.simulate(out=…)`` (CSV files or
    run.h5, with the run's geometry). html: the page to write (default ``out_dir/view.html``).
    max_frames: keep at most this many frames (every k-th record and the last; default 2000,
    0 = all). The page needs no network: open it in a browser (play, pause, speed, time slider,
    contacts by mode with impulse arrows, events, energy curve; ``#frame=last`` opens the last
    frame). A missing folder or a foreign file raises ValueError naming it.
    """
    out_dir = path_or_none("moreau.view()", "out_dir", out_dir)
    if out_dir is None:
        raise InputError("moreau.view(): argument 'out_dir' = None: expected the output folder of a run")
    html = path_or_none("moreau.view()", "html", html)
    command = [find_cli(), "-q", "view", os.fspath(out_dir)]
    if html is not None:
        command += ["-o", os.fspath(html)]
    if max_frames is not None:
        if isinstance(max_frames, bool) or not isinstance(max_frames, int) or max_frames < 0:
            raise InputError(f"moreau.view(): argument 'max_frames' = {max_frames!r}: expected an integer ≥ 0")
        command += ["--max-frames", str(max_frames)]
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except OSError as e:
        raise RuntimeError(f"moreau.view(): cannot run the moreau program '{command[0]}': {e} "
                           "(set MOREAU_CLI)") from e
    if done.returncode != 0:
        message = done.stderr.strip().removeprefix("moreau: error: ") or f"exit status {done.returncode}"
        raise ValueError(f"moreau.view(): {message}")
    return os.fspath(html) if html is not None else os.path.join(os.fspath(out_dir), "view.html")
