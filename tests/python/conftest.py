"""Shared by the Python tests: the piccolo program built beside the package, to compare with."""

import json
import os
import subprocess

import pytest

CLI = os.environ.get("PICCOLO_CLI", "piccolo")
SOURCE_DIR = os.environ.get(
    "PICCOLO_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..")
)


def run_cli(*args):
    """stdout of `piccolo ARGS`; fails the test when it does not exit 0."""
    done = subprocess.run([CLI, *args], capture_output=True, text=True)
    assert done.returncode == 0, f"piccolo {' '.join(args)}: {done.stderr}"
    return done.stdout


def cli_json(*args):
    return json.loads(run_cli(*args))


def cli_error(*args):
    """The one-line message `piccolo ARGS` fails with, without its 'piccolo: error: ' prefix."""
    done = subprocess.run([CLI, *args], capture_output=True, text=True)
    assert done.returncode == 2, f"piccolo {' '.join(args)} exited {done.returncode}"
    line = done.stderr.strip().splitlines()[-1]
    prefix = "piccolo: error: "
    assert line.startswith(prefix), line
    return line[len(prefix):]


def source_path(*parts):
    return os.path.join(SOURCE_DIR, *parts)


@pytest.fixture
def data():
    return source_path
