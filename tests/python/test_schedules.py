"""Schedules: generate, XML, verify, the task columns as NumPy views."""

import gc

import numpy
import pytest

import piccolo
from conftest import cli_error, run_cli


def test_generate_writes_what_gen_writes(tmp_path):
    s = piccolo.generate("allreduce", "rm", k=4, style="nccl", p=16, size=4096)
    assert (s.collective, s.algorithm, s.k, s.ranks, s.bytes, s.style) == (
        "allreduce", "rm", 4, 16, 4096, "nccl")
    out = tmp_path / "rm.xml"
    s.write(str(out))
    cli = tmp_path / "cli.xml"
    run_cli("gen", "-c", "allreduce", "-a", "rm", "-k", "4", "--style", "nccl", "-p", "16",
            "--bytes", "4096", "-o", str(cli))
    assert out.read_text() == cli.read_text() == s.to_xml()
    back = piccolo.load_schedule(str(out))
    assert back.to_xml() == s.to_xml() and back.origin == str(out)
    assert s.verify() == back.verify()
    assert s.verify()["data_flow_checked"] is True


def test_columns_are_read_only_views_that_keep_the_schedule():
    s = piccolo.generate("allgather", "ring", p=8, size=1024)
    src, dst, kind, size = s.src, s.dst, s.kind, s.size
    assert len(src) == len(s) == 56 and src.dtype == numpy.int32
    assert not src.flags.owndata and not src.flags.writeable
    with pytest.raises(ValueError):
        src[0] = 3
    assert numpy.array_equal(dst, (src + 1) % 8)
    assert set(kind.tolist()) == {piccolo.TASK_KINDS.index("transfer")}
    assert size.dtype == numpy.uint64 and (size == 1024).all()
    assert numpy.array_equal(s.size_values[s.size_class], size)
    # Two views of one column share the C++ vector's memory.
    assert s.src.__array_interface__["data"][0] == src.__array_interface__["data"][0]
    del s
    gc.collect()
    assert src.sum() == 7 * 28 and dst.max() == 7  # the views keep the schedule alive


def test_resize_and_algorithm_list():
    s = piccolo.generate("allgather", "rm", k=3, p=9, size=8)
    assert s.with_size(16).to_xml() == piccolo.generate("allgather", "rm", k=3, p=9, size=16).to_xml()
    names = [a["name"] for a in piccolo.algorithms()]
    assert names[:2] == ["ring", "k-ring"]
    assert 4 in piccolo.valid_radices("rm", 16) and piccolo.valid_radices("ring", 16) == []


def test_verify_raises_the_verifier_message(data):
    race = data("tests", "bad-inputs", "schedules", "data-race.xml")
    s = piccolo.load_schedule(race)
    with pytest.raises(piccolo.InputError) as e:
        s.verify()
    assert str(e.value) == cli_error("verify", race)
    cycle = data("tests", "bad-inputs", "schedules", "cycle.xml")
    with pytest.raises(piccolo.InputError) as e:
        piccolo.load_schedule(cycle)
    assert str(e.value) == cli_error("verify", cycle)


def test_bad_generate_raises_the_gen_message():
    with pytest.raises(piccolo.InputError) as e:
        piccolo.generate("allgather", "rm", k=9, p=8, size=8)
    assert str(e.value) == cli_error("gen", "-a", "rm", "-k", "9", "-p", "8", "--bytes", "8")
    with pytest.raises(piccolo.InputError) as e:
        piccolo.generate("allgather", "bogus", p=8, size=8)
    assert str(e.value) == cli_error("gen", "-a", "bogus", "-p", "8", "--bytes", "8")


def test_rooted_schedules_take_a_root_as_gen_does(tmp_path):
    s = piccolo.generate("bcast", "knomial", k=3, p=7, size=700, root=5)
    assert (s.collective, s.algorithm, s.k, s.ranks, s.bytes, s.root) == (
        "bcast", "knomial", 3, 7, 700, 5)
    cli = tmp_path / "cli.xml"
    run_cli("gen", "-c", "bcast", "-a", "knomial", "-k", "3", "-p", "7", "--bytes", "700",
            "--root", "5", "-o", str(cli))
    assert cli.read_text() == s.to_xml()
    assert piccolo.load_schedule(str(cli)).root == 5
    # A binomial Bcast from the root: p - 1 transfers, the root never receives, every other
    # rank receives exactly once.
    b = piccolo.generate("bcast", "binomial", p=6, size=8, root=2)
    transfers = b.kind == piccolo.TASK_KINDS.index("transfer")
    assert transfers.sum() == 5
    assert sorted(b.dst[transfers].tolist()) == [0, 1, 3, 4, 5]
    assert s.verify()["data_flow_checked"] is True
    assert piccolo.generate("allgather", "ring", p=4, size=8).root == 0
    with pytest.raises(piccolo.InputError) as e:
        piccolo.generate("reduce", "binomial", p=4, size=8, root=4)
    assert str(e.value) == cli_error("gen", "-c", "reduce", "-a", "binomial", "-p", "4",
                                     "--bytes", "8", "--root", "4")
    by_name = {a["name"]: a["collectives"] for a in piccolo.algorithms()}
    assert by_name["knomial"] == ["bcast", "reduce"]
    assert by_name["ring"] == ["allgather", "allreduce", "reduce_scatter"]
