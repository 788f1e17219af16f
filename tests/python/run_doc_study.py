"""Runs the study of docs/python.md verbatim: the python code block after the line
'<!-- study: the test runs this block verbatim -->', in a fresh working directory; the study
must write its PNG there.

    run_doc_study.py DOC WORKDIR
"""

import os
import shutil
import sys
import time

MARKER = "<!-- study: the test runs this block verbatim -->"


def study_code(doc):
    text = open(doc, encoding="utf-8").read()
    if MARKER not in text:
        sys.exit(f"{doc}: no line {MARKER!r}")
    after = text.split(MARKER, 1)[1]
    start = after.index("```python\n") + len("```python\n")
    return after[start:after.index("\n```", start) + 1]


def main():
    doc, work = sys.argv[1], sys.argv[2]
    code = study_code(doc)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.chdir(work)
    started = time.monotonic()
    exec(compile(code, f"{doc} (study block)", "exec"), {"__name__": "__main__"})
    pngs = [f for f in os.listdir(".") if f.endswith(".png") and os.path.getsize(f) > 0]
    if not pngs:
        sys.exit("the study wrote no PNG")
    print(f"study: {time.monotonic() - started:.1f} s, wrote {', '.join(pngs)}")


if __name__ == "__main__":
    main()
