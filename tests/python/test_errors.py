"""Errors: piccolo.InputError is a ValueError carrying the CLI's one-line message."""

import pytest

import piccolo
from conftest import cli_error


def test_input_error_is_a_value_error():
    assert issubclass(piccolo.InputError, ValueError)


@pytest.mark.parametrize(
    "call,args",
    [
        (lambda: piccolo.generate("allgather", "ring", p=1, size=8),
         ["gen", "-a", "ring", "-p", "1", "--bytes", "8"]),
        (lambda: piccolo.generate("allgather", "k-ring", k=3, p=8, size=8),
         ["gen", "-a", "k-ring", "-k", "3", "-p", "8", "--bytes", "8"]),
        (lambda: piccolo.generate("allscatter", "ring", p=8, size=8),
         ["gen", "-c", "allscatter", "-a", "ring", "-p", "8", "--bytes", "8"]),
        (lambda: piccolo.Machine.preset("delta").with_overrides("system.G*x"),
         ["machines", "delta", "--set", "system.G*x"]),
        (lambda: piccolo.select("delta", algorithms=["bogus"], sizes=[8], nodes=[1]),
         ["select", "-a", "bogus", "-s", "8", "--nodes", "1"]),
        (lambda: piccolo.select("delta", radices=[1], sizes=[8], nodes=[1]),
         ["select", "-k", "1", "-s", "8", "--nodes", "1"]),
    ],
)
def test_messages_are_the_cli_messages(call, args):
    with pytest.raises(piccolo.InputError) as e:
        call()
    assert str(e.value) == cli_error(*args)


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError):
        piccolo.simulate(piccolo.generate("allgather", "ring", p=4, size=8), 42)
