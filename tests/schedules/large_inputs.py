#!/usr/bin/env python3
"""Writes the bad inputs too large to commit into FOLDER, with FOLDER/expected.txt in the format of
tests/bad-inputs/expected.txt; bad_inputs.sh then checks each (status 2, one line, time, memory).
Each is a case fuzzing or review found: deep nesting, quadratic or cubic work, unbounded totals,
megabyte-long values echoed into an error."""
import pathlib
import sys

folder = pathlib.Path(sys.argv[1])
folder.mkdir(parents=True, exist_ok=True)
cases = []
long_word = "x" * (8 << 20)
raw_columns = "level,kind,n,delay_s,bytes,rep,seconds\n"


def write(name, text, args, expected):
    (folder / name).write_text(text)
    cases.append(f"{args} ||| {expected}")


(folder / "l0.csv").write_text("s,L,o_s,o_r,g,G\n1,2e-6,1e-7,1e-7,1e-7,1e-11\n")

# PICCL topology with 20,000 nested groups (was a stack overflow).
depth = 20000
text = "<topo>\n" + "".join(f'<group level="{depth - 1 - i}" id="0" param_file="l0.csv">'
                             for i in range(depth))
text += '<node id="0"/>' + "</group>" * depth + "\n</topo>\n"
write("piccl-deep.xml", text, "args: machines piccl-deep.xml",
      "piccl-deep.xml:2: level: must be 0..31 (piccolo models at most 32 levels), got 19999")

# PICCL topology with 200,000 ranks and a gap at the end (line numbers were quadratic).
nodes = 50000
lines = ['<topo>', '<group level="1" id="0" param_file="l0.csv">']
for n in range(nodes):
    ranks = [4 * n + d for d in range(4)]
    if n == nodes - 1:
        ranks[-1] += 1
    lines.append(f'<group level="0" id="{n}" param_file="l0.csv">' +
                 "".join(f'<node id="{r}"/>' for r in ranks) + "</group>")
lines += ["</group>", "</topo>"]
write("piccl-200k.xml", "\n".join(lines) + "\n", "args: machines piccl-200k.xml",
      f'piccl-200k.xml:{nodes + 2}: <node id="{4 * nodes}">: the ids must be the ranks '
      f"0..{4 * nodes - 1} without gaps (rank {4 * nodes - 1} is missing)")

# Raw profile with 4,000 sizes (the fit was cubic in them).
rows = []
for i in range(4000):
    size = 8 * (i + 1)
    t = 1e-6 + size * 1e-10
    rows += [f"node,prtt,1,0,{size},0,{2 * t}", f"node,prtt,8,0,{size},0,{9 * t}",
             f"node,prtt,8,1e-6,{size},0,{17 * t}", f"node,o_r,1,1e-6,{size},0,{t / 4}"]
write("sizes-4000.csv", "# level: node 2\n# level: system 1\n" + raw_columns + "\n".join(rows) +
      "\n", "args: fit sizes-4000.csv",
      "sizes-4000.csv: level 'node': samples at 4000 message sizes; the fit takes at most 512")

# Megabyte-long values must be cut in the one-line error.
write("long-header.csv", long_word + "\n", "args: fit long-header.csv",
      "long-header.csv:1: field 'header': expected the column line")
write("long-attribute.xml",
      f'<collective name="allgather" nodes="2" buffer_size="{long_word}"/>\n',
      "long-attribute.xml", 'long-attribute.xml:1: buffer_size: must be an integer >= 0 (got "xxx')
levels = "".join(f"  - {{name: {n}, fanout: 2, L: 1e-6, o_s: 1e-7, o_r: 1e-7, g: 1e-7, G: 1e-10}}\n"
                 for n in ("node", "system"))
write("long-value.yaml", f"name: m\nlevels:\n{levels}sharing: {long_word}\n", "args: machines long-value.yaml",
      "long-value.yaml:5: sharing: expected fifo or fair (got 'xxx")

# Dependency lists whose ranges are each plausible but add up to more than the reader takes.
tasks = 6000
lines = ['<collective name="allgather" nodes="2" buffer_size="2">']
lines += [f'<transfer id="{t}" size="1" src="0" dst="1" deps="0-{tasks - 1}"/>'
          for t in range(tasks)]
write("total-deps.xml", "\n".join(lines + ["</collective>"]) + "\n", "total-deps.xml",
      "total-deps.xml:5594: deps: the lists of the file name more than 33554432 ids in all")

(folder / "expected.txt").write_text("\n".join(cases) + "\n")
