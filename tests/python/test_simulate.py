"""simulate(): makespans bit for bit those of `piccolo sim --json`."""

import json

import numpy
import pytest

import piccolo
from conftest import cli_error, cli_json


@pytest.mark.parametrize(
    "collective,algorithm,k,nodes,size,machine",
    [
        ("allgather", "ring", 0, 4, 1 << 20, "delta"),
        ("allgather", "rm", 4, 8, 8192, "polaris"),
        ("allreduce", "prm", 3, 3, 1000, "frontier"),
        ("allreduce", "rd", 0, 2, 64, "dgx-h100"),
    ],
)
def test_makespan_equals_the_cli(collective, algorithm, k, nodes, size, machine):
    m = piccolo.Machine.preset(machine)
    ppn = m.devices_per_node
    s = piccolo.generate(collective, algorithm, k=k, style=m.style or "mpi", p=nodes * ppn,
                         size=size, payload=False)
    r = piccolo.simulate(s, m, nodes=nodes)
    args = ["sim", "-m", machine, "-c", collective, "-a", algorithm, "--nodes", str(nodes),
            "--bytes", str(size), "--json"] + (["-k", str(k)] if k else [])
    cli = cli_json(*args)
    assert r.makespan == cli["makespan_s"]  # bit for bit: JSON numbers read back exactly
    assert r.rank_finish.tolist() == cli["rank_finish_s"]
    assert (r.transfers, r.computes, r.compute_time) == (
        cli["transfers"], cli["computes"], cli["compute_time_s"])
    assert r.levels == cli["levels"] and r.queueing == cli["queueing"]
    assert r.nodes == cli["nodes"] and r.machine == cli["machine"]


def test_loaded_file_options_and_overrides(tmp_path):
    s = piccolo.generate("allgather", "rd", p=8, size=4096)
    file = tmp_path / "rd.xml"
    s.write(str(file))
    m = piccolo.Machine.load("delta", ["system.G*0.5"])
    r = piccolo.simulate(piccolo.load_schedule(str(file)), m, nodes=4, ppn=2,
                         placement="round-robin", contention=False)
    cli = cli_json("sim", str(file), "--set", "system.G*0.5", "--nodes", "4", "--ppn", "2",
                   "--placement", "round-robin", "--no-contention", "--json")
    assert r.makespan == cli["makespan_s"] and r.rank_finish.tolist() == cli["rank_finish_s"]


def test_trace(tmp_path):
    s = piccolo.generate("allreduce", "ring", p=4, size=4096)
    r = piccolo.simulate(s, "delta", trace=True)
    transfers = r.transfer_trace()
    assert len(transfers) == r.transfers and len(r.compute_trace()) == r.computes
    assert max(t["complete"] for t in transfers) <= r.makespan
    assert all(t["src"] != t["dst"] for t in transfers)
    trace = tmp_path / "cli.json"
    cli_json("sim", "-c", "allreduce", "-a", "ring", "--nodes", "1", "--bytes", "4096",
             "--style", "mpi", "--trace", str(trace), "--json")
    assert json.loads(r.chrome_trace()) == json.loads(trace.read_text())
    untraced = piccolo.simulate(s, "delta")
    with pytest.raises(piccolo.InputError):
        untraced.transfer_trace()
    finish = untraced.rank_finish
    del untraced
    assert isinstance(finish, numpy.ndarray) and finish.max() > 0


def test_too_few_nodes_raises():
    s = piccolo.generate("allgather", "ring", p=16, size=8)
    with pytest.raises(piccolo.InputError, match="place only 8"):
        piccolo.simulate(s, "delta", nodes=2)
    with pytest.raises(piccolo.InputError) as e:
        piccolo.simulate(s, "delta", placement="diagonal")
    assert str(e.value) == cli_error("sim", "-a", "ring", "--nodes", "4", "--bytes", "8",
                                     "--placement", "diagonal").replace("--placement", "placement")
