"""select, compare, vary: rows equal to the CLI's JSON."""

import pytest

import piccolo
from conftest import cli_json


def flat_selection(point):
    """One `piccolo select --format json` selection in the shape of a select() row."""
    best, base, runner = point["best"], point["baseline"], point["runner_up"]
    row = {key: point[key] for key in ("collective", "nodes", "ppn", "ranks", "size_bytes")}
    row.update(
        algorithm=best and best["algorithm"], k=best and best.get("k"),
        time_s=best and best["time_s"], baseline=base and base["algorithm"],
        baseline_time_s=base and base["time_s"], speedup=point["speedup"],
        runner_up=runner and runner["algorithm"], runner_up_k=runner and runner.get("k"),
        runner_up_time_s=runner and runner["time_s"], margin=runner and runner["margin"])
    row["algorithms"] = [
        dict(a, candidates=[tuple(c) for c in a["candidates"]]) if "candidates" in a else a
        for a in point["algorithms"]]
    return row


def test_select_rows_equal_the_cli_json():
    rows = piccolo.select("polaris", collectives=["allgather", "allreduce"],
                          algorithms=["ring", "rd", "rm", "k-ring"], radices=[2, 3, 4],
                          sizes=[8, 4096, 1 << 20], nodes=[1, 3, 4], threads=2)
    cli = cli_json("select", "-m", "polaris", "-c", "allgather,allreduce",
                   "-a", "ring,rd,rm,k-ring", "-k", "2,3,4", "-s", "8,4096,1048576",
                   "--nodes", "1,3,4", "-j", "2", "--format", "json")
    assert [dict(r) for r in rows] == [flat_selection(p) for p in cli["selections"]]
    assert rows.machine == cli["machine"] and rows.style == cli["style"]
    assert rows.notes == cli["notes"] and rows.contention is True


def test_select_defaults_and_options_follow_the_cli():
    rows = piccolo.select(collectives=["allreduce"], sizes=[64], nodes=[2], ppn=2, style="mpi",
                          contention=False)
    cli = cli_json("select", "-c", "allreduce", "-s", "64", "--nodes", "2", "--ppn", "2",
                   "--style", "mpi", "--no-contention", "--format", "json")
    assert [dict(r) for r in rows] == [flat_selection(p) for p in cli["selections"]]
    assert rows.contention is False


def compare_rows(cli):
    rows = []
    for point in cli["points"]:
        for choice in point["choices"]:
            row = {key: point[key] for key in ("collective", "nodes", "ppn", "ranks", "size_bytes")}
            row.update(machine=choice["machine"], reference=point["choices"][0]["machine"],
                       algorithm=choice.get("algorithm"), k=choice.get("k"),
                       time_s=choice.get("time_s"),
                       speedup_vs_baseline=choice.get("speedup_vs_baseline"),
                       time_ratio_vs_reference=choice.get("time_ratio_vs_reference"),
                       same_choice_as_reference=choice["same_choice_as_reference"])
            rows.append(row)
    return rows


def test_compare_rows_equal_the_cli_json():
    rows = piccolo.compare(["delta", "polaris"], variants=["system.G*0.5, system.L*0.5"],
                           collectives=["allgather"], sizes=[8, 1 << 16], nodes=[2, 8])
    cli = cli_json("compare", "-m", "delta", "-m", "polaris", "--variant",
                   "system.G*0.5,system.L*0.5", "-c", "allgather", "-s", "8,65536",
                   "--nodes", "2,8", "--format", "json")
    assert [dict(r) for r in rows] == compare_rows(cli)
    assert rows.machines == [m["name"] for m in cli["machines"]]
    assert rows.notes == cli["notes"]


def test_vary_rows_equal_the_cli_json():
    rows = piccolo.vary("system.G=0.5x..2x:3", "delta", collectives=["allreduce"],
                        sizes=[1 << 20], nodes=[4, 16], algorithms=["ring", "rd", "rm"])
    cli = cli_json("compare", "--vary", "system.G=0.5x..2x:3", "-c", "allreduce", "-s",
                   "1MiB", "--nodes", "4,16", "-a", "ring,rd,rm", "--format", "json")
    assert [dict(r) for r in rows] == compare_rows(cli)
    assert rows.reference == "delta[system.G*0.5]"
    alone = piccolo.compare("delta", variants=(["system.G*0.5"],), collectives=["allreduce"],
                            sizes=[1 << 20], nodes=[4], algorithms=["ring", "rd", "rm"])
    half, same, _ = [r["time_s"] for r in rows if r["nodes"] == 4]  # G*0.5, G*1, G*2
    assert [r["time_s"] for r in alone] == [same, half]  # delta, then its variant


def test_to_pandas_with_and_without_pandas(monkeypatch):
    rows = piccolo.select("delta", collectives=["allgather"], sizes=[8], nodes=[1])
    pandas = pytest.importorskip("pandas")
    frame = rows.to_pandas()
    assert isinstance(frame, pandas.DataFrame) and len(frame) == len(rows) == 1
    assert frame["algorithm"][0] == rows[0]["algorithm"] and frame.attrs["machine"] == "delta"
    monkeypatch.setitem(__import__("sys").modules, "pandas", None)  # import pandas now fails
    with pytest.raises(ImportError, match="needs pandas"):
        rows.to_pandas()


def test_bad_sweeps_raise():
    with pytest.raises(piccolo.InputError, match="unknown collective"):
        piccolo.select(collectives=["allscatter"])
    with pytest.raises(piccolo.InputError, match="ppn: must be >= 1"):
        piccolo.select(ppn=0)
    with pytest.raises(piccolo.InputError, match="--vary"):
        piccolo.vary("system.G=1x..2x:1")


def test_ctrl_c_stops_a_long_sweep():
    """A SIGINT during select() raises KeyboardInterrupt within about one replay: the sweep of
    delta at 256 nodes (1024 ranks, every default) takes about 11 s on the 2-core development
    machine; interrupted at 0.5 s it must stop well before."""
    import os
    import signal
    import threading
    import time

    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        piccolo.select("delta", nodes=[256])
    assert time.monotonic() - start < 5
    # The module is usable afterwards: a small sweep gives its rows.
    assert len(piccolo.select("delta", nodes=[1], sizes=[8], algorithms=["ring"])) == 2
