#!/usr/bin/env python3
"""Checks the direction of every #include against docs/layers.txt (docs/architecture.md).

For each source file of a component (the table's folders; tests/ and fuzz targets are not
components: a test may reach into the library it tests):
  - "piccolo/<lib>/x.hpp" must name the component itself or one it may use, and exist in
    <lib>'s include/piccolo/<lib>/;
  - any other quoted include must resolve inside the component itself (next to the file, or in
    one of its folders outside include/), or in a folder another component exports to it;
    a header found only in another component's private folders is a violation;
  - no public header may sit directly in include/piccolo/ (every one is in piccolo/<lib>/);
  - no CMakeLists.txt (tests' included) may compile another component's sources by path.
Exits 1 and lists every violation; --self-test also checks that planted violations are found.

  include_direction.py REPO_ROOT [--self-test]
"""
import os
import re
import sys

SOURCE_EXT = (".cpp", ".hpp", ".h", ".cu", ".cuh")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
CMAKE_SOURCE = re.compile(r'\$\{(?:PROJECT_SOURCE_DIR|CMAKE_SOURCE_DIR)\}/([\w./-]+\.(?:cpp|cu))')


def read_table(root):
    components, exports = {}, []
    with open(os.path.join(root, "docs", "layers.txt"), encoding="utf-8") as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if words[0] == "export":
                exports.append((words[1], words[2]))
                continue
            name, folder, uses = words[0], words[1], [w for w in words[2:] if w != "-"]
            components[name] = {"folder": folder, "uses": set(uses)}
    for name, c in components.items():
        unknown = c["uses"] - set(components)
        if unknown:
            sys.exit(f"docs/layers.txt: {name} uses unknown {sorted(unknown)}")
    return components, exports


def owner(path, components):
    """The component whose folder holds `path` (longest folder first), or None."""
    best = None
    for name, c in components.items():
        folder = c["folder"] + "/"
        if path.startswith(folder) and (best is None or len(folder) > len(components[best]["folder"]) + 1):
            best = name
    return best


def walk(root, folder):
    for base, dirs, files in os.walk(os.path.join(root, folder)):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "build"]
        for f in files:
            yield os.path.relpath(os.path.join(base, f), root)


def index_headers(root, components):
    """Header base name -> [(component, path)] of every header outside include/ folders."""
    private = {}
    for name, c in components.items():
        for path in walk(root, c["folder"]):
            if path.endswith(SOURCE_EXT) and "/include/" not in "/" + path:
                if owner(path, components) == name:
                    private.setdefault(os.path.basename(path), []).append((name, path))
    return private


def check_include(root, path, me, target, components, exports, private):
    c = components[me]
    m = re.match(r"piccolo/([\w-]+)/", target)
    if m:
        lib = m.group(1)
        if lib not in components:
            return f"includes {target}: no component {lib} in docs/layers.txt"
        if lib != me and lib not in c["uses"]:
            return f"includes {target}: {me} may not use {lib} (docs/layers.txt)"
        header = os.path.join(root, components[lib]["folder"], "include", target)
        if not os.path.isfile(header):
            return f"includes {target}, which is not a public header of {lib}"
        return None
    if target.startswith("piccolo/"):
        return f"includes {target}: public headers are piccolo/<lib>/name.hpp"
    beside = os.path.normpath(os.path.join(os.path.dirname(path), target))
    if os.path.isfile(os.path.join(root, beside)):
        other = owner(beside, components)
        if other in (me, None):
            return None
        return f"includes {target} ({beside}), private to {other}"
    found = private.get(os.path.basename(target), [])
    if not found or any(name == me for name, _ in found):
        return None  # a system or third-party header, or one of our own
    for name, header in found:
        for folder, to in exports:
            if to == me and header.startswith(folder + "/"):
                return None
    return f"includes {target} ({found[0][1]}), private to {found[0][0]}"


def check(root, planted=()):
    components, exports = read_table(root)
    private = index_headers(root, components)
    problems = []
    extra = {}
    for path, line in planted:
        extra.setdefault(path, []).append(line)
    for me, c in components.items():
        for path in walk(root, c["folder"]):
            if owner(path, components) != me:
                continue
            if re.search(r"(^|/)include/piccolo/[^/]+\.(hpp|h)$", path):
                problems.append(f"{path}: public header outside include/piccolo/<lib>/")
            if os.path.basename(path) == "CMakeLists.txt":
                continue
            if not path.endswith(SOURCE_EXT):
                continue
            text = open(os.path.join(root, path), encoding="utf-8", errors="replace").read()
            text += "".join(f"\n{line}\n" for line in extra.get(path, []))
            for target in INCLUDE.findall(text):
                why = check_include(root, path, me, target, components, exports, private)
                if why:
                    problems.append(f"{path}: {why}")
    for path in walk(root, "."):
        if os.path.basename(path) == "CMakeLists.txt":
            me = owner(path, components)
            text = open(os.path.join(root, path), encoding="utf-8").read()
            text += "".join(f"\n{line}\n" for line in extra.get(path, []))
            for source in CMAKE_SOURCE.findall(text):
                other = owner(source, components)
                if other not in (me, None):
                    problems.append(f"{path}: compiles {source} of {other} by path")
    return problems


def self_test(root):
    """Each planted violation must be found, and only it."""
    cases = [
        ("core/src/text.cpp", '#include "piccolo/engine/engine.hpp"'),           # upward
        ("sim/engine/src/engine.cpp", '#include "piccolo/select/select.hpp"'),     # upward
        ("topologies/src/machine.cpp", '#include "piccolo/schedules/schedule.hpp"'),  # sideways
        ("sim/studies/src/compare.cpp", '#include "select_roster.hpp"'),         # private
        ("sim/emit/src/emit_csv.cpp", '#include "piccolo/select.hpp"'),           # old layout
        ("python/src/module.cpp", '#include "piccolo/select/select_roster.hpp"'),  # not public
        ("tests/sim/CMakeLists.txt", "add_executable(x ${PROJECT_SOURCE_DIR}/tools/piccolo/src/cmd_sim.cpp)"),
    ]
    failed = 0
    for path, line in cases:
        found = [p for p in check(root, [(path, line)]) if p.startswith(path + ":")]
        if not found:
            print(f"self-test: {path} with {line} passed the check; it must not")
            failed = 1
    return failed


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    problems = check(root)
    for p in problems:
        print(p)
    if "--self-test" in sys.argv[2:]:
        if problems:
            print("self-test: the tree itself must pass first")
            return 1
        if self_test(root):
            return 1
        print("include_direction: every planted violation found")
        return 0
    if not problems:
        print("include_direction: every #include follows docs/layers.txt")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
