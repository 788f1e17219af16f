"""piccolo: choose the parameters of collective algorithms by simulation, from Python.

The compiled module (piccolo._core) binds piccolo's C++ libraries; python/README.md says what it
owns and docs/python.md shows a whole study. Errors the user can fix raise
piccolo.InputError (a ValueError) with the message the piccolo CLI prints.
"""

from piccolo._core import (  # noqa: F401
    TASK_KINDS,
    InputError,
    Level,
    Machine,
    Schedule,
    SimResult,
    accuracy,
    algorithms,
    compare,
    default_preset,
    generate,
    load_schedule,
    presets,
    select,
    simulate,
    valid_radices,
    vary,
)
from piccolo._rows import Rows  # noqa: F401

InputError.__module__ = "piccolo"  # tracebacks say piccolo.InputError, where users catch it

__all__ = [
    "TASK_KINDS", "InputError", "Level", "Machine", "Rows", "Schedule", "SimResult", "accuracy",
    "algorithms", "compare", "default_preset", "generate", "load_schedule", "presets", "select",
    "simulate", "valid_radices", "vary",
]
