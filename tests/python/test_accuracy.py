"""accuracy(): the scores of `piccolo accuracy --json`."""

import json

import pytest

import piccolo
from conftest import cli_error, run_cli


def test_accuracy_rows_equal_the_cli_json(data, tmp_path):
    measured = data("tests", "sim", "data", "accuracy_measured.csv")
    out = tmp_path / "accuracy.json"
    run_cli("accuracy", "--measured", measured, "-m", "polaris", "--json", str(out))
    cli = json.loads(out.read_text())
    rows = piccolo.accuracy(measured, "polaris")
    assert [dict(r) for r in rows] == cli["sizes"]
    for key in ("host", "date", "mpi_library", "ranks", "nodes", "ranks_per_node", "profile",
                "machine", "noisy", "noise", "geomean_captured_share"):
        assert rows.meta[key] == cli[key], key
    frame_rows = piccolo.accuracy(measured, piccolo.Machine.preset("polaris"))
    assert [dict(r) for r in frame_rows] == cli["sizes"]


def test_bad_measurement_raises_the_cli_message(data):
    bad = data("tests", "bad-inputs", "accuracy", "unknown-algorithm.csv")
    with pytest.raises(piccolo.InputError) as e:
        piccolo.accuracy(bad, "delta")
    assert str(e.value) == cli_error("accuracy", "--measured", bad, "-m", "delta")
