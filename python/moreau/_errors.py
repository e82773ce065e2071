"""Argument errors of the compiled module, as sentences that name the argument (issue 15 §6).

pybind11 answers a call whose arguments it cannot convert (None for an array, strings where
numbers go, a 1-D array for a matrix, an object of the wrong class) with a TypeError that lists
the supported signatures. ``install`` wraps every function, constructor, method and property
setter of ``moreau._moreau`` so that such a call raises ``InputError`` instead: one line naming the
function, the argument, its value and what was expected, e.g.

    moreau.Lcp(): argument 'M' = None: expected a 2-D array of numbers

``InputError`` is a ValueError (what the library raises for every bad input: wrong sizes, NaN,
values out of range) and also a TypeError, so code written against pybind11's behaviour keeps
working. Errors raised by the C++ code itself (std::invalid_argument → ValueError) pass unchanged.
"""
import functools
import numbers
import os
import re
import warnings

import numpy as np

__all__ = ["InputError"]


class InputError(ValueError, TypeError):
    """A wrong argument: its name, its value and what was expected."""


_MISMATCH = ("incompatible function arguments", "incompatible constructor arguments")
_OVERLOAD = re.compile(r"^\s*\d+\.\s*([\w.]*)\((.*)\)(?:\s*->.*)?$")
_PARAM = re.compile(r"^\s*(\*{0,2}\w+)\s*:\s*(.+?)(?:\s+=\s+(.*))?\s*$")


def finite_number(function, name, value):
    """`value` as a finite float, or InputError naming `function`'s argument `name`."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InputError(f"{function}: argument '{name}' = {_describe(value)}: expected a finite number")
    if not np.isfinite(float(value)):
        raise InputError(f"{function}: argument '{name}' = {value!r}: expected a finite number")
    return float(value)


def path_or_none(function, name, value):
    """`value` as a path string (None stays None), or InputError naming the argument."""
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise InputError(f"{function}: argument '{name}' = {_describe(value)}: expected a folder path or None")
    return os.fspath(value)


def _split_top_level(text):
    """Splits 'a: X[1, 2], b: Y' at the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for k, c in enumerate(text):
        if c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    if text[start:].strip():
        parts.append(text[start:])
    return parts


def _overloads(message):
    """[(is_constructor, [(name, type, has_default)])] from pybind11's message."""
    out = []
    for line in message.splitlines():
        m = _OVERLOAD.match(line)
        if not m:
            continue
        params = []
        for part in _split_top_level(m.group(2)):
            p = _PARAM.match(part)
            if p:
                params.append((p.group(1), p.group(2).strip(), p.group(3) is not None))
        out.append((bool(m.group(1)), params))
    return out


def _describe(value):
    """A value as a message shows it: short, with the shape and dtype of arrays."""
    if isinstance(value, np.ndarray):
        return f"array of shape {value.shape} and dtype {value.dtype}"
    text = repr(value)
    return text if len(text) <= 50 else text[:47] + "..."


def _array_problem(value, type_text):
    """Why `value` is not the Eigen array of `type_text` (numpy.ndarray[numpy.float64[m, n]]),
    or None when it is convertible (sizes are then checked by the C++ code)."""
    dims = re.search(r"\[([\w]+),\s*([\w]+)\]\]", type_text)
    vector = dims is not None and dims.group(2) == "1"
    want = "a 1-D array of numbers" if vector else "a 2-D array of numbers"
    if value is None or isinstance(value, (str, bytes, dict)):
        return want
    try:
        a = np.asarray(value)
    except Exception:  # noqa: BLE001 (ragged lists and other objects numpy refuses)
        return want
    if a.dtype.kind not in "biuf":
        return f"{want}, got dtype {a.dtype}"
    if vector and not (a.ndim == 1 or (a.ndim == 2 and a.shape[1] == 1)):
        return f"{want}, got shape {a.shape}"
    if not vector and a.ndim != 2:
        return f"{want}, got shape {a.shape}"
    if dims is not None:
        for axis, size in enumerate(dims.groups()):
            if size.isdigit() and axis < a.ndim and a.shape[axis] != int(size) and not (vector and axis == 1):
                return f"{want} with {size} {'rows' if axis == 0 else 'columns'}, got shape {a.shape}"
    return None


def _problem(value, type_text, module):
    """Why `value` does not fit the parameter type `type_text` of a signature, or None."""
    t = type_text.strip()
    optional = re.match(r"^Optional\[(.*)\]$", t)
    if optional:
        return None if value is None else _problem(value, optional.group(1), module)
    if t.startswith("numpy.ndarray"):
        return _array_problem(value, t)
    if t.startswith("scipy.sparse"):
        return None if hasattr(value, "tocsc") else _array_problem(value, "[m, n]]")
    if t == "float":
        ok = isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
        return None if ok else "a number"
    if t == "int":
        ok = isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))
        return None if ok else "an integer"
    if t == "bool":
        return None if isinstance(value, (bool, np.bool_)) else "True or False"
    if t == "str":
        return None if isinstance(value, str) else "a string"
    if t in ("os.PathLike", "Union[str, os.PathLike]", "Union[os.PathLike, str]"):
        return None if isinstance(value, (str, os.PathLike)) else "a path (str or os.PathLike)"
    if t.startswith(("List[", "Sequence[", "Tuple[")):
        return None if isinstance(value, (list, tuple, np.ndarray)) else "a list"
    if t.startswith("Dict["):
        return None if isinstance(value, dict) else "a dict"
    if t.startswith(("Callable", "function")):
        return None if callable(value) else "a function"
    m = re.match(r"^moreau\._moreau\.(\w+)$", t)
    if m and isinstance(getattr(module, m.group(1), None), type):
        cls = getattr(module, m.group(1))
        return None if isinstance(value, cls) else f"a moreau.{m.group(1)}"
    return None  # a type we do not know how to check: say nothing wrong about it


def _diagnose(label, message, args, kwargs, module, setter_name=None, has_self=False):
    """The InputError message for a call pybind11 refused. `has_self`: args[0] is the instance
    (of a method, or of a constructor: not initialised then, so never shown)."""
    tried = []
    shown_args = args[1:] if has_self else args
    for is_constructor, params in _overloads(message):
        call_args = list(args[1:]) if is_constructor else list(args)
        names = [name for name, _, _ in params]
        if len(call_args) > len(params) or any(k not in names for k in kwargs):
            tried.append("wrong number or names of arguments")
            continue
        bound = dict(zip(names, call_args))
        bound.update(kwargs)
        missing = [n for n, _, has_default in params if n not in bound and not has_default]
        if missing:
            tried.append(f"argument '{missing[0]}' is missing")
            continue
        for name, type_text, _ in params:
            if name in bound and name != "self":
                why = _problem(bound[name], type_text, module)
                if why:
                    if setter_name is not None:
                        return f"{label} = {_describe(bound[name])}: expected {why}"
                    return f"{label}: argument '{name}' = {_describe(bound[name])}: expected {why}"
        tried.append("no single argument found wrong")
    shown = ", ".join(_describe(a) for a in shown_args) + "".join(f", {k}={_describe(v)}" for k, v in kwargs.items())
    reason = tried[0] if tried else "no signature matches"
    return f"{label}: the arguments ({shown}) do not fit: {reason}"


def _any_complex(args, kwargs):
    """Whether an argument is a complex array: plain loops, as this runs on every call of the
    compiled module (generator expressions cost a control loop's sim.step() 3 µs)."""
    for a in args:
        if isinstance(a, np.ndarray) and a.dtype.kind == "c":
            return True
    if kwargs:
        for a in kwargs.values():
            if isinstance(a, np.ndarray) and a.dtype.kind == "c":
                return True
    return False


def _wrap(func, label, module, setter_name=None, has_self=False):
    @functools.wraps(func)
    def checked(*args, **kwargs):
        try:
            if _any_complex(args, kwargs):
                # numpy would drop the imaginary parts with a warning: make it refuse instead, so
                # that the argument is named below
                with warnings.catch_warnings():
                    warnings.simplefilter("error", np.ComplexWarning)
                    return func(*args, **kwargs)
            return func(*args, **kwargs)
        except TypeError as error:
            text = str(error)
            if not any(marker in text for marker in _MISMATCH):
                raise
            raise InputError(_diagnose(label, text, args, kwargs, module, setter_name, has_self)) from None

    return checked


def _wrap_class(cls, module):
    if hasattr(cls, "__members__"):  # pybind11 enums: nothing to check
        return
    for name, attr in list(vars(cls).items()):
        label = f"moreau.{cls.__name__}"
        if name == "__init__":
            setattr(cls, name, _wrap(attr, label + "()", module, has_self=True))
        elif isinstance(attr, property) and attr.fset is not None:
            fset = _wrap(attr.fset, f"{label}.{name}", module, setter_name=name, has_self=True)
            setattr(cls, name, property(attr.fget, fset, attr.fdel, attr.__doc__))
        elif not name.startswith("_") and type(attr).__name__ == "instancemethod":
            setattr(cls, name, _wrap(attr, f"{label}.{name}()", module, has_self=True))


def install(module):
    """Wraps the functions and classes of the compiled module in place (once)."""
    if getattr(module, "_arguments_checked", False):
        return
    for name, attr in list(vars(module).items()):
        if name.startswith("__"):
            continue
        if isinstance(attr, type):
            if attr.__module__ == module.__name__:
                _wrap_class(attr, module)
        elif type(attr).__name__ == "builtin_function_or_method":
            setattr(module, name, _wrap(attr, f"moreau.{name.lstrip('_')}()", module))
    module._arguments_checked = True
