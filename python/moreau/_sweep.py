"""Parameter sweeps and Monte Carlo studies on Dask (docs/sweeps.md): ``moreau sweep SWEEP.json``
and ``moreau.sweep(base, parameters, outputs)``.

A sweep takes a base input (a scene, an impact SPEC or an analyze input), sets parameters in it by
JSON pointer (RFC 6901) at each point of a grid or a zip of value lists, runs each point as one
task (the document ``moreau simulate|impact|analyze FILE --json`` prints, computed by the compiled
module in the worker; with a time-out, by that program in a subprocess that is killed at the
limit), and gathers the chosen outputs, pointers into
each result document, into one table: one column per parameter (named by its pointer), one per
output, then ``status`` (ok, error or timeout) and ``error``. Tasks run on Dask distributed: a
LocalCluster with one single-threaded worker process per core, or an existing scheduler.

Run as ``python3 -m moreau._sweep SWEEP.json [...]`` (what ``moreau sweep`` does); the engine
imports neither numpy nor the compiled module, only dask.distributed (and h5py for the HDF5 copy).
"""
import copy
import csv
import io
import itertools
import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

__all__ = ["sweep", "load_sweep", "sweep_points", "run_point", "SweepSpec"]

KINDS = ("scene", "impact", "analyze")
COMMAND = {"scene": "simulate", "impact": "impact", "analyze": "analyze"}

# Named shortcuts of outputs, per kind: name -> JSON pointer into the result document (scenes:
# ``moreau simulate --json``; impacts: ``moreau impact --json``; analyze: ``moreau analyze --json``).
# ``first:KIND`` (the time of the first event of that kind, NaN if none) and ``count:KIND`` are
# computed from a scene's event list.
SHORTCUTS = {
    "scene": {"status": "/summary/status", "t_end": "/summary/t_end",
              "energy_final": "/summary/energy_final", "energy_initial": "/summary/energy_initial",
              "max_penetration": "/summary/max_penetration", "steps": "/summary/steps"},
    "impact": {"status": "/status", "energy_change": "/kinetic_energy/change",
               "energy_after": "/kinetic_energy/after"},
    "analyze": {"mu_critical": "/mu_critical", "painleve_case": "/painleve/case",
                "alpha": "/painleve/alpha", "beta": "/painleve/beta"},
}


class SweepError(ValueError):
    """A sweep file or argument that cannot be run (the message names the field and the value)."""


class SweepSpec:
    """A sweep: the base document and its kind, the parameters, the outputs and how they combine.

    parameters: list of (column name, [pointers], [values]); outputs: dict column -> pointer or
    shortcut; combine: "grid" (every combination, the last parameter fastest) or "zip"; timeout:
    seconds per point (None: no limit)."""

    def __init__(self, base, kind, parameters, outputs, combine="grid", timeout=None, source="sweep"):
        self.base, self.kind, self.parameters = base, kind, parameters
        self.outputs, self.combine, self.timeout, self.source = outputs, combine, timeout, source

    def columns(self):
        return [p[0] for p in self.parameters] + list(self.outputs) + ["status", "error"]


# ---------------------------------------------------------------------------------------------
# Reading a sweep

def _number(x, where):
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        raise SweepError(f"{where} = {json.dumps(x)}: must be a finite number")
    return float(x)


def _count(x, where):
    if isinstance(x, bool) or not isinstance(x, (int, float)) or x != int(x) or x < 1:
        raise SweepError(f"{where} = {json.dumps(x)}: must be a whole number ≥ 1")
    return int(x)


def parameter_values(spec, where):
    """The values of one parameter: a list, {"linspace": [a, b, n]}, {"logspace": [a, b, n]}
    (10^a … 10^b) or {"uniform": [a, b, n], "seed": s} (n draws of Python's Mersenne Twister
    seeded with s: the same values on every machine)."""
    if isinstance(spec, list):
        if not spec:
            raise SweepError(f"{where}: the list of values is empty")
        return list(spec)
    if not isinstance(spec, dict) or len(set(spec) - {"seed"}) != 1:
        raise SweepError(f"{where} = {json.dumps(spec)[:60]}: must be a list of values or one of "
                         f"{{\"linspace\": [a, b, n]}}, {{\"logspace\": [a, b, n]}}, "
                         f"{{\"uniform\": [a, b, n], \"seed\": s}}")
    (form,) = set(spec) - {"seed"}
    args = spec[form]
    if form not in ("linspace", "logspace", "uniform"):
        raise SweepError(f"{where}.{form}: unknown form (linspace, logspace or uniform)")
    if not isinstance(args, list) or len(args) != 3:
        raise SweepError(f"{where}.{form} = {json.dumps(args)}: must be [a, b, n]")
    a, b = _number(args[0], f"{where}.{form}[0]"), _number(args[1], f"{where}.{form}[1]")
    n = _count(args[2], f"{where}.{form}[2]")
    if form == "uniform":
        if "seed" not in spec:
            raise SweepError(f"{where}: uniform needs a \"seed\" (the draws must be reproducible)")
        seed = spec["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise SweepError(f"{where}.seed = {json.dumps(seed)}: must be a whole number ≥ 0")
        rng = random.Random(seed)
        return [rng.uniform(a, b) for _ in range(n)]
    if "seed" in spec:
        raise SweepError(f"{where}.seed: only uniform draws take a seed")
    values = [a if n == 1 else a + (b - a) * i / (n - 1) for i in range(n)]
    if n > 1:
        values[-1] = b
    return [10.0 ** v for v in values] if form == "logspace" else values


def _pointer_parts(pointer, where):
    if not isinstance(pointer, str) or not pointer.startswith("/"):
        raise SweepError(f"{where} = {json.dumps(pointer)}: a JSON pointer starts with '/'")
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer[1:].split("/")]


def get_pointer(doc, pointer):
    """The value at a JSON pointer; KeyError naming the first part that is missing."""
    node = doc
    for part in _pointer_parts(pointer, "pointer"):
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise KeyError(f"no {pointer} in the result ('{part}' is not an index below {len(node)})")
            node = node[int(part)]
        elif isinstance(node, dict):
            if part not in node:
                raise KeyError(f"no {pointer} in the result (no key '{part}')")
            node = node[part]
        else:
            raise KeyError(f"no {pointer} in the result ('{part}' below a value)")
    return node


def set_pointer(doc, pointer, value, where):
    """Sets the value at a JSON pointer of doc: every part but the last must exist; the last may
    add a key to an object (a gallery parameter left at its default) or replace an entry."""
    parts = _pointer_parts(pointer, where)
    node = doc
    for i, part in enumerate(parts):
        last = i + 1 == len(parts)
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise SweepError(f"{where} = {pointer}: '{part}' is not an index below {len(node)} of the base")
            if last:
                node[int(part)] = value
            else:
                node = node[int(part)]
        elif isinstance(node, dict):
            if last:
                node[part] = value
            elif part not in node:
                raise SweepError(f"{where} = {pointer}: the base has no '{part}'")
            else:
                node = node[part]
        else:
            raise SweepError(f"{where} = {pointer}: '{part}' is below a value of the base")


def detect_kind(base):
    """scene, impact or analyze, from the base's keys (an explicit "kind" in the sweep wins)."""
    if "law" in base:
        return "impact"
    if "M" in base or "constraints" in base:
        return "analyze"
    if "gallery" in base and not ({"description", "t_end", "integrator", "output"} & set(base)):
        return "analyze"
    return "scene"


def _unreadable(path, error):
    """The one wording of a file that cannot be opened, as the C++ readers say it
    (io/os/input_file.hpp): "PATH: no such file", "PATH: is a folder, not a file", ..."""
    if isinstance(error, (FileNotFoundError, NotADirectoryError)):
        return f"{path}: no such file"
    if isinstance(error, IsADirectoryError):
        return f"{path}: is a folder, not a file"
    if isinstance(error, PermissionError):
        return f"{path}: cannot be read (permission denied)"
    return f"{path}: cannot be read ({error.strerror})"


def _read_json(path, label):
    """The JSON document of a file; SweepError starting with label when it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        message = _unreadable(path, e)
        raise SweepError(message if label == path else f"{label}: {message}") from None
    except json.JSONDecodeError as e:
        raise SweepError(f"{label}: not valid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None


def load_sweep(spec, source=None):
    """A SweepSpec from a SWEEP.json path, JSON text or a dict (docs/sweeps.md)."""
    base_dir = os.getcwd()
    if isinstance(spec, (str, os.PathLike)) and not str(spec).lstrip().startswith("{"):
        path = os.fspath(spec)
        source = source or path
        spec = _read_json(path, path)
        base_dir = os.path.dirname(os.path.abspath(path))
    elif isinstance(spec, str):
        source = source or "sweep"
        try:
            spec = json.loads(spec)
        except json.JSONDecodeError as e:
            raise SweepError(f"{source}: not valid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    source = source or "sweep"
    try:
        return _parse_sweep(spec, base_dir, source)
    except SweepError as e:
        msg = str(e)
        raise SweepError(msg if msg.startswith(source) else f"{source}: {msg}") from None


def _parse_sweep(spec, base_dir, source):
    if not isinstance(spec, dict):
        raise SweepError("a sweep must be a JSON object")
    unknown = set(spec) - {"$schema", "description", "base", "kind", "parameters", "outputs",
                           "combine", "timeout"}
    if unknown:
        raise SweepError(f"{sorted(unknown)[0]}: unknown field (allowed: base, kind, parameters, "
                         f"outputs, combine, timeout, description)")
    for key in ("base", "parameters", "outputs"):
        if key not in spec:
            raise SweepError(f"{key}: missing required field")
    base = spec["base"]
    if isinstance(base, str):
        path = base if os.path.isabs(base) else os.path.join(base_dir, base)
        base = _read_json(path, f"base = \"{base}\"")
    if not isinstance(base, dict):
        raise SweepError("base: must be a path (relative to the sweep file) or the input inline")
    kind = spec.get("kind", detect_kind(base))
    if kind not in KINDS:
        raise SweepError(f"kind = {json.dumps(kind)}: must be \"scene\", \"impact\" or \"analyze\"")
    return make_spec(base, spec["parameters"], spec["outputs"], spec.get("combine", "grid"), kind,
                     spec.get("timeout"), source)


def make_spec(base, parameters, outputs, combine="grid", kind=None, timeout=None, source="sweep"):
    """A SweepSpec from its parts (checked; messages name the field)."""
    if not isinstance(parameters, dict) or not parameters:
        raise SweepError("parameters: must be a nonempty object from JSON pointers to values")
    params = []
    for key, values in parameters.items():
        pointers = key.split()
        if not pointers:
            raise SweepError("parameters: an empty key")
        for p in pointers:
            _pointer_parts(p, f"parameters[\"{key}\"]")
        params.append((key, pointers, parameter_values(values, f"parameters[\"{key}\"]")))
    kind = kind or detect_kind(base)
    if not isinstance(outputs, dict) or not outputs:
        raise SweepError("outputs: must be a nonempty object from column names to JSON pointers or shortcuts")
    for name, target in outputs.items():
        if not isinstance(target, str) or not (target.startswith("/") or target in SHORTCUTS[kind]
                                               or target.split(":")[0] in ("first", "count")):
            raise SweepError(f"outputs.{name} = {json.dumps(target)}: must be a JSON pointer into the "
                             f"result or a shortcut ({', '.join(sorted(SHORTCUTS[kind]))}"
                             f"{', first:KIND, count:KIND' if kind == 'scene' else ''})")
        if name in ("status", "error") or name in parameters:
            raise SweepError(f"outputs.{name}: the name is taken by another column")
    if combine not in ("grid", "zip"):
        raise SweepError(f"combine = {json.dumps(combine)}: must be \"grid\" or \"zip\"")
    if combine == "zip" and len({len(p[2]) for p in params}) > 1:
        raise SweepError("combine = \"zip\": every parameter needs the same number of values, got "
                         + ", ".join(f"{p[0]}: {len(p[2])}" for p in params))
    if timeout is not None:
        timeout = _number(timeout, "timeout")
        if timeout <= 0:
            raise SweepError(f"timeout = {timeout}: must be > 0 s")
    # every pointer must reach into the base (checked once here, not per point)
    probe = copy.deepcopy(base)
    for key, pointers, values in params:
        for p in pointers:
            set_pointer(probe, p, values[0], f"parameters[\"{key}\"]")
    return SweepSpec(base, kind, params, dict(outputs), combine, timeout, source)


def sweep_points(spec):
    """The points, in table order: tuples of one value per parameter."""
    lists = [p[2] for p in spec.parameters]
    return list(zip(*lists)) if spec.combine == "zip" else list(itertools.product(*lists))


def point_document(spec, point):
    doc = copy.deepcopy(spec.base)
    for (key, pointers, _), value in zip(spec.parameters, point):
        for p in pointers:
            set_pointer(doc, p, value, f"parameters[\"{key}\"]")
    return doc


# ---------------------------------------------------------------------------------------------
# One point (runs on a worker)

def find_cli():
    """The moreau program: $MOREAU_CLI, else next to this package (build tree: build/bin/moreau;
    installed: PREFIX/bin/moreau), else `moreau` on PATH."""
    env = os.environ.get("MOREAU_CLI")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for rel in ("../../bin/moreau", "../../../../bin/moreau", "../../../bin/moreau"):
        p = os.path.normpath(os.path.join(here, rel))
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return shutil.which("moreau") or "moreau"


def _output(kind, result, target):
    if target.startswith("/"):
        return get_pointer(result, target)
    if target.startswith("first:") or target.startswith("count:"):
        what, event = target.split(":", 1)
        times = [e["t"] for e in result.get("events", []) if e.get("kind") == event]
        if what == "count":
            return len(times)
        return min(times) if times else float("nan")
    return get_pointer(result, SHORTCUTS[kind][target])


def _result_in_process(kind, doc):
    """The --json document of one point, computed in this process by the compiled module (the
    same C++ functions as the program; no process start-up per point)."""
    from moreau import _moreau
    text = json.dumps(doc)
    if kind == "impact":
        return json.loads(_moreau._impact_json(text))
    if kind == "analyze":
        return json.loads(_moreau._analyze_input_json(text))
    return json.loads(_moreau._scene_result_json(text))


def _fill(kind, row, result, outputs):
    try:
        for name, target in outputs.items():
            value = _output(kind, result, target)
            row[name] = value if isinstance(value, (int, float, str, bool)) or value is None \
                else json.dumps(value)
    except KeyError as e:
        row.update(status="error", error=f"output: {e}".replace("'", ""))
        return row
    row.update(status="ok", error="")
    return row


def run_point(kind, doc, outputs, cli=None, timeout=None):
    """Runs one point (in this process, or with a timeout as a `moreau … --json` subprocess):
    returns a dict of the outputs plus status ("ok", "error" or "timeout"; or
    "interrupted" when a signal stopped the program, which the sweep does not record) and error
    (the program's message, one line). Never raises for a bad point."""
    row = {name: float("nan") for name in outputs}
    if timeout is None:  # in this process: fast; a crash takes the worker, which Dask replaces
        try:
            result = _result_in_process(kind, doc)
        except (ValueError, RuntimeError) as e:
            row.update(status="error", error=" ".join(str(e).split()))
            return row
        return _fill(kind, row, result, outputs)
    cli = cli or find_cli()
    with tempfile.TemporaryDirectory(prefix="moreau_sweep_") as tmp:
        path = os.path.join(tmp, "point.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        try:
            done = subprocess.run([cli, COMMAND[kind], path, "--json"], capture_output=True,
                                  text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            row.update(status="timeout", error=f"no result within {timeout:g} s")
            return row
        except OSError as e:
            row.update(status="error", error=f"cannot run {cli}: {e.strerror}")
            return row
    if done.returncode in (130, 143):  # the point was interrupted (Ctrl-C reached the process group)
        row.update(status="interrupted", error="interrupted")
        return row
    if done.returncode == 1 and done.stdout.lstrip().startswith("{"):
        pass  # a run that ended early (diverged) still has its document; its status is an output
    elif done.returncode != 0:
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        message = lines[-1] if lines else f"exit status {done.returncode}"
        row.update(status="error", error=message.replace(path, "point").strip())
        return row
    try:
        result = json.loads(done.stdout)
    except ValueError as e:
        row.update(status="error", error=f"the result is not JSON: {e}")
        return row
    return _fill(kind, row, result, outputs)


def _task(kind, docs, outputs, cli, timeout, indices):
    """One Dask task: a chunk of points, [(index, row)]."""
    return [(i, run_point(kind, d, outputs, cli, timeout)) for i, d in zip(indices, docs)]


# ---------------------------------------------------------------------------------------------
# The table

def _cell(value):
    if isinstance(value, float):
        return repr(value)
    if value is None:
        return ""
    return str(value)


def _key(values):
    """A point's identity in a table: its parameter values as text (floats in repr, which reads
    back to the same double)."""
    out = []
    for v in values:
        if isinstance(v, str):
            try:
                v = float(v)
            except ValueError:
                pass
        out.append(repr(float(v)) if isinstance(v, (int, float)) and not isinstance(v, bool) else str(v))
    return tuple(out)


def write_table(rows, columns, path):
    """Writes the rows as CSV at path and as HDF5 next to it (same stem, .h5): each through a
    temporary file in the same folder, then renamed, so that no reader ever sees half a table."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    text = io.StringIO()
    w = csv.writer(text, lineterminator="\n")
    w.writerow(columns)
    for r in rows:
        w.writerow([_cell(r.get(c)) for c in columns])
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".sweep_", suffix=".csv.tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text.getvalue())
    os.replace(tmp, path)
    h5 = os.path.splitext(path)[0] + ".h5"
    try:
        import h5py
    except ImportError:
        return path, None
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".sweep_", suffix=".h5.tmp")
    os.close(fd)
    with h5py.File(tmp, "w") as f:
        g = f.create_group("table")
        g.attrs["columns"] = json.dumps(columns)
        for c in columns:
            values = [r.get(c) for r in rows]
            numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
            if numeric:
                g.create_dataset(c.replace("/", "|"), data=[float(v) for v in values], dtype="f8")
            else:
                g.create_dataset(c.replace("/", "|"), data=[_cell(v) for v in values],
                                 dtype=h5py.string_dtype("utf-8"))
    os.replace(tmp, h5)
    return path, h5


def read_table(path, columns):
    """The rows of an earlier table (for --resume); its columns must be this sweep's."""
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header != columns:
            raise SweepError(f"{path}: its columns {header} are not this sweep's {columns}; "
                             f"--resume continues the same sweep")
        rows = []
        for line in reader:
            row = dict(zip(columns, line))
            for c in columns:
                if c not in ("status", "error"):
                    try:
                        row[c] = float(row[c])
                    except ValueError:
                        pass
            rows.append(row)
    return rows


# ---------------------------------------------------------------------------------------------
# The engine

def make_client(scheduler=None, workers=None, quiet=True):
    """A Dask client: on `scheduler` (an address such as tcp://host:8786), else on a LocalCluster
    of `workers` single-threaded worker processes (default: one per core)."""
    import logging
    import dask
    from dask.distributed import Client, LocalCluster
    if scheduler:
        return Client(scheduler, timeout="30s")
    # every point is a root task of the same cost: hand them to the workers at once instead of
    # one at a time (Dask's root-task queuing), which would leave a worker idle for a round trip
    # after each point
    dask.config.set({"distributed.scheduler.worker-saturation": float("inf")})
    # Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536, which makes glibc give memory
    # back after every small free: moreau's steps allocate, and run a third slower under it
    environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ", {}))
    environ.pop("MALLOC_TRIM_THRESHOLD_", None)
    dask.config.set({"distributed.nanny.pre-spawn-environ": environ})
    if quiet:
        logging.getLogger("distributed").setLevel(logging.ERROR)
    cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                           processes=True, dashboard_address=":0", silence_logs=logging.ERROR)
    return Client(cluster)


class _Progress:
    """A bar redrawn in place on a terminal; elsewhere (logs) a line at the first point done and
    at every tenth of the points."""

    def __init__(self, total, stream, enabled, lines=False):
        self.total, self.stream, self.enabled, self.done, self.errors = total, stream, enabled, 0, 0
        self.width, self.lines, self.tenth = 0, lines, 0

    def step(self, row):
        self.done += 1
        self.errors += row.get("status") != "ok"
        if self.lines and not self.enabled:
            tenth = 10 * self.done // max(1, self.total)
            if self.done == 1 or tenth > self.tenth:
                self.tenth = tenth
                self.stream.write(f"sweep: {self.done}/{self.total} points done"
                                  f"{f', {self.errors} failed' if self.errors else ''}\n")
                self.stream.flush()
            return
        if not self.enabled:
            return
        w = 40
        k = min(w, int(w * self.done / max(1, self.total)))
        line = (f"[{'#' * k}{' ' * (w - k)}] {self.done}/{self.total} points"
                f"{f', {self.errors} failed' if self.errors else ''}")
        self.width = max(self.width, len(line))
        self.stream.write("\r" + line)
        self.stream.flush()

    def close(self):
        if self.enabled and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


def _plan(spec, done_rows):
    """The points, the table's rows so far (those of done_rows that are points of spec, in point
    order; None where a point is still to run) and the indices of the points to run."""
    points = sweep_points(spec)
    names = [p[0] for p in spec.parameters]
    have = {_key([r[n] for n in names]): r for r in done_rows}
    rows = [None] * len(points)
    todo = []
    for i, p in enumerate(points):
        r = have.get(_key(p))
        if r is None:
            todo.append(i)
            continue
        rows[i] = dict(r)
        rows[i].update(zip(names, p))
    return points, rows, todo


def _close(client):
    """Closes a client and, for a LocalCluster, the cluster it made."""
    if client is None:
        return
    cluster = getattr(client, "cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


def run_sweep(spec, client=None, scheduler=None, workers=None, done_rows=(), progress=None,
              cli=None, on_row=None, chunk=None):
    """Runs the points of spec that are not in done_rows (rows of an earlier table); returns the
    table's rows in point order. client: a dask.distributed Client (else one is made from
    scheduler / workers and closed at the end); chunk: points per task (default: about 16 tasks
    per worker, at most 50 points each). KeyboardInterrupt cancels the pending points and
    is raised again with the rows done so far in its ``rows`` attribute."""
    points, rows, todo = _plan(spec, done_rows)
    names = [p[0] for p in spec.parameters]
    own = client is None
    if own and todo:
        client = make_client(scheduler, workers)
    bar = progress or _Progress(len(todo), sys.stderr, False)
    cli = cli or find_cli()
    futures = []
    try:
        if todo:
            from dask.distributed import as_completed
            # chunks of points, about 16 per worker, so that tiny points (an impact takes ~3 ms)
            # do not spend their time in the scheduler; each chunk is one task
            n_workers = max(1, len(client.scheduler_info().get("workers", {})))
            size = chunk or max(1, min(50, len(todo) // (16 * n_workers)))
            chunks = [todo[k:k + size] for k in range(0, len(todo), size)]
            futures = [client.submit(_task, spec.kind, [point_document(spec, points[i]) for i in c],
                                     spec.outputs, cli, spec.timeout, c, pure=False,
                                     key=f"moreau-points-{c[0]}-{time.time_ns()}")
                       for c in chunks]
            for fut in as_completed(futures):
                c = chunks[futures.index(fut)]
                try:
                    results = fut.result()
                except Exception as e:  # a worker lost too often (KilledWorker) or the task failed
                    results = []
                    for i in c:
                        row = {name: float("nan") for name in spec.outputs}
                        row.update(status="error",
                                   error=f"task failed: {type(e).__name__}: {e}".splitlines()[0])
                        results.append((i, row))
                for i, row in results:
                    if row.get("status") == "interrupted":  # not a result: --resume runs it again
                        continue
                    for n, v in zip(names, points[i]):
                        row[n] = v
                    rows[i] = row
                    bar.step(row)
                    if on_row:
                        on_row(i, row)
    except KeyboardInterrupt as e:
        for f in futures:
            f.cancel()
        e.rows = [r for r in rows if r is not None]
        raise
    finally:
        bar.close()
        if own:
            _close(client)
    return rows


def sweep(base, parameters, outputs, client=None, combine="grid", kind=None, timeout=None,
          workers=None):
    """Runs a sweep and returns a pandas DataFrame (one column per parameter, named by its
    pointer, one per output, then status and error; one row per point in grid or zip order).

    base: a scene, impact SPEC or analyze input (a dict, JSON text or a path); parameters: JSON
    pointer -> list | {"linspace": [a, b, n]} | {"logspace": [a, b, n]} |
    {"uniform": [a, b, n], "seed": s} (a key holding several pointers separated by spaces sets them
    all); outputs: column -> JSON pointer into the result document or a shortcut (docs/sweeps.md);
    client: a dask.distributed Client, or None for a LocalCluster of `workers` processes."""
    import pandas as pd
    if isinstance(base, (str, os.PathLike)) and not str(base).lstrip().startswith("{"):
        with open(os.fspath(base), encoding="utf-8") as f:
            base = json.load(f)
    elif isinstance(base, str):
        base = json.loads(base)
    spec = make_spec(base, parameters, outputs, combine, kind, timeout)
    rows = run_sweep(spec, client=client, workers=workers)
    return pd.DataFrame(rows, columns=spec.columns())


# ---------------------------------------------------------------------------------------------
# The command line (`moreau sweep`)

def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(prog="moreau sweep", description="Run a parameter sweep on Dask.")
    ap.add_argument("sweep", help="SWEEP.json (docs/sweeps.md)")
    ap.add_argument("--scheduler", help="address of a running Dask scheduler, e.g. tcp://host:8786")
    ap.add_argument("--workers", type=int, help="local worker processes (default: one per core)")
    ap.add_argument("--resume", action="store_true", help="skip the points already in the table")
    ap.add_argument("-o", "--out", help="table (CSV; an HDF5 copy goes next to it as .h5); "
                                        "default: <sweep name>.csv in the current folder")
    args = ap.parse_args(argv)
    try:
        spec = load_sweep(args.sweep)
        if args.workers is not None and args.workers < 1:
            raise SweepError(f"--workers = {args.workers}: must be ≥ 1")
        out = args.out or os.path.splitext(os.path.basename(args.sweep))[0] + ".csv"
        done = []
        if args.resume and os.path.exists(out):
            done = read_table(out, spec.columns())
    except SweepError as e:
        print(f"moreau: {e}", file=sys.stderr)
        return 2
    points, _, pending = _plan(spec, done)
    todo = len(pending)
    client = None
    if todo > 0:
        try:
            client = make_client(args.scheduler, args.workers)
        except OSError as e:
            print(f"moreau: --scheduler {args.scheduler}: cannot connect ({e})", file=sys.stderr)
            return 2
        link = getattr(client, "dashboard_link", None)
        print(f"sweep: {len(points)} points, {todo} to run on {len(client.scheduler_info()['workers'])} "
              f"workers; dashboard {link}", file=sys.stderr)
    bar = _Progress(todo, sys.stderr, sys.stderr.isatty(), lines=True)
    status = 0
    try:
        rows = run_sweep(spec, client=client, done_rows=done, progress=bar)
    except KeyboardInterrupt as e:
        rows = getattr(e, "rows", [])  # the earlier table's rows and the new ones, in point order
        status = 130
    finally:
        if client is not None:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the writing
            _close(client)
    rows = [r for r in rows if r is not None]
    csv_path, h5_path = write_table(rows, spec.columns(), out)
    failed = sum(r.get("status") != "ok" for r in rows)
    print(f"sweep: {len(rows)} of {len(points)} points in {csv_path}"
          f"{' and ' + h5_path if h5_path else ''}{f', {failed} failed' if failed else ''}"
          f"{'; interrupted, --resume continues' if status else ''}")
    return status


if __name__ == "__main__":
    sys.exit(main())
