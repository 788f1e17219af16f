#!/usr/bin/env python3
"""Checks that every doctest test case can be run by its ctest entry.

doctest_discover_tests (tests/CMakeLists.txt) gives ctest one entry per test case, named after
it, which runs the executable with -tc=NAME. A name holding a semicolon is a CMake list: the
entry gets the name cut at the semicolon, its filter matches no test case, and doctest exits 0
having run nothing, so the entry passes whatever the test would say. (It hid a failing test of
the schedules library until 2026-11-29.) Exits 1 naming file, line and test case of each such
name; --self-test also checks that a planted one is found.

  test_case_names.py REPO_ROOT [--self-test]
"""
import os
import re
import sys
import tempfile

TEST_CASE = re.compile(r'TEST_CASE\s*\(\s*"((?:[^"\\]|\\.)*)"')


def violations(root):
    found = []
    for folder, _, files in os.walk(os.path.join(root, "tests")):
        for name in sorted(files):
            if not name.endswith((".cpp", ".hpp")):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for match in TEST_CASE.finditer(text):
                if ";" in match.group(1):
                    line = text.count("\n", 0, match.start()) + 1
                    found.append(f"{os.path.relpath(path, root)}:{line}: test case "
                                 f"\"{match.group(1)}\" holds ';', which cuts its ctest entry's "
                                 "filter (use ':' or ',' instead)")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "tests", "x"))
        with open(os.path.join(root, "tests", "x", "test_a.cpp"), "w", encoding="utf-8") as f:
            f.write('TEST_CASE("fine: a, b") {}\n\nTEST_CASE("cut; here") {}\n')
        found = violations(root)
        return len(found) == 1 and found[0].startswith("tests/x/test_a.cpp:3:")


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    if "--self-test" in sys.argv[2:]:
        if not self_test():
            print("self-test: the planted ';' in a test case name was not found")
            return 1
        print("self-test: the planted name was found")
        return 0
    found = violations(root)
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} test case name(s) that ctest cannot run")
        return 1
    print("every test case name can be run by its ctest entry")
    return 0


if __name__ == "__main__":
    sys.exit(main())
