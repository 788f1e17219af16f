"""Machines: presets, files, --set-style overrides, levels (tests/python/CMakeLists.txt)."""

import pytest
import yaml

import piccolo
from conftest import cli_error, run_cli


def test_presets_are_the_cli_list():
    table = run_cli("machines").split("\n\n")[0]  # the table, then a blank line and notes
    listed = [line.split()[0] for line in table.splitlines()[1:]]
    assert piccolo.presets() == listed
    assert piccolo.default_preset() == "delta"


def test_override_gives_the_cli_machine():
    m = piccolo.Machine.preset("delta").with_overrides("system.G*0.5", "node.radix=2")
    assert m.name == "delta[system.G*0.5,node.radix=2]"
    assert m.to_yaml() == run_cli("machines", "delta", "--set", "system.G*0.5", "--set", "node.radix=2")
    assert m == piccolo.Machine.load("delta", ["system.G*0.5", "node.radix=2"])


def test_levels_read_as_the_yaml_says():
    m = piccolo.Machine.preset("delta")
    doc = yaml.safe_load(m.to_yaml())
    assert m.level_names == [level["name"] for level in doc["levels"]]
    assert m.devices_per_node == 4 and m.device_radix == doc["device_radix"]
    assert m.style == doc["style"] and m.placement == "block" and m.sharing == "fair"  # configs/machines/delta.yaml
    for level, written in zip(m.levels, doc["levels"]):
        assert level.radix == written.get("radix")
        (row,) = level.loggp
        for key in ("L", "o_s", "o_r", "g", "G"):
            assert row[key] == float(written[key])  # YAML 1.1 reads 1e-07 as a string
        assert level.loggp_at(1 << 20) == {k: row[k] for k in ("L", "o_s", "o_r", "g", "G")}
        assert level.to_dict()["name"] == level.name
    assert m.level("system").loggp[0]["G"] == float(doc["levels"][1]["G"])
    assert m.compute == {k: float(v) for k, v in doc["compute"].items()}
    with pytest.raises(KeyError):
        m.level("rack")
    assert "system.G" in m.override_paths()


def test_load_from_a_file_and_from_yaml(tmp_path):
    text = piccolo.Machine.preset("polaris").to_yaml()
    file = tmp_path / "polaris.yaml"
    file.write_text(text)
    assert piccolo.Machine.load(str(file)) == piccolo.Machine.preset("polaris")
    assert piccolo.Machine.from_yaml(text) == piccolo.Machine.preset("polaris")


def test_bad_machines_raise_the_cli_message(data):
    with pytest.raises(piccolo.InputError) as e:
        piccolo.Machine.load("nosuch")
    assert str(e.value) == cli_error("machines", "nosuch")
    with pytest.raises(piccolo.InputError, match="unknown machine preset 'nosuch'"):
        piccolo.Machine.preset("nosuch")
    with pytest.raises(piccolo.InputError) as e:
        piccolo.Machine.preset("delta").with_overrides("system.Q=1")
    assert str(e.value) == cli_error("machines", "delta", "--set", "system.Q=1")
    bad = data("tests", "bad-inputs", "machines", "no-levels.yaml")
    with pytest.raises(ValueError) as e:
        piccolo.Machine.load(bad)
    assert str(e.value) == cli_error("machines", bad)
