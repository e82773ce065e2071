"""Ctrl-C in Python (issue 15 §3): SIGINT sent to a real Python process mid-run stops
moreau.simulate at the end of a step, writes the run so far (status `interrupted`, the trajectory's
last row at the summary's time) and raises KeyboardInterrupt."""
import csv
import json
import os
import signal
import subprocess
import sys
import time

SCRIPT = """
import sys, moreau
try:
    moreau.simulate(sys.argv[1], out=sys.argv[2], t_end=1e5)
except KeyboardInterrupt as e:
    print("KeyboardInterrupt:", e)
    sys.exit(7)
"""


def test_sigint_keeps_the_run_and_raises_keyboard_interrupt(tmp_path):
    scene = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "scenes", "box_stack.json")
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, scene, str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    time.sleep(2.0)  # import and set-up, then steps: hours of them are asked for
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 7, (stdout, stderr)
    assert "interrupted at t = " in stdout and str(out) in stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "interrupted"
    rows = list(csv.reader(open(out / "trajectory.csv")))
    assert len(rows) - 1 == summary["records"]
    assert 0.0 < float(rows[-1][0]) == summary["t_end"] < 1e5
    assert not [f for f in os.listdir(out) if ".tmp" in f]
