#!/usr/bin/env python3
"""The layers hold (docs/design.md, "Layers and folders").

Fails, naming file and line, when
- a file of a layer includes a public header of a higher layer (or dash.hpp);
- a file above the collective layer (core, containers, algorithms) names an MPI identifier other
  than MPI_Comm: only dash::comm calls MPI, and the layers above take the communicator type alone
  (Team::mpi_comm hands a team's communicator to applications that call MPI themselves);
- such a file includes a private header of the collective layer (dash/comm/detail/, or one of comm/'s
  own source tree, which comm names from its root: "arena/collective_arena.hpp").
Comments and string literals are not searched. A layer's tests (<layer>/test/) are not checked: they
may call MPI to compare with it and reach into private headers.

  check_layering.py ROOT          check the layers under ROOT; exit 1 on a violation
  check_layering.py --self-test   prove on a scratch tree that each kind of violation is found
"""
import contextlib
import io
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import scratch_tree  # noqa: E402

LAYERS = [("comm", "comm"), ("core", "core"), ("containers", "containers"), ("algorithms", "algorithms")]
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
MPI_NAME = re.compile(r"(?<![A-Za-z0-9_])MPI_[A-Za-z0-9_]+")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
PRIVATE = re.compile(r"^(dash/comm/detail/|(\.\./)*comm/)")


def files_of(root, layer, source_dir):
    found = []
    tests = os.path.join(root, source_dir, "test")
    for top in (os.path.join(root, "include", "dash", layer), os.path.join(root, source_dir)):
        for directory, _, names in os.walk(top):
            if directory == tests or directory.startswith(tests + os.sep):
                continue
            found += [os.path.join(directory, name) for name in names if name.endswith((".hpp", ".cpp"))]
    return sorted(found)


def code_lines(path):
    """(line number, line without comments and string contents, the include it names or None)."""
    with open(path, encoding="utf-8") as file:
        text = file.read()
    in_block = False
    for number, line in enumerate(text.splitlines(), 1):
        include = INCLUDE.match(line)
        code = ""
        rest = line
        while rest:
            if in_block:
                end = rest.find("*/")
                if end < 0:
                    rest = ""
                    continue
                rest, in_block = rest[end + 2:], False
            else:
                rest = STRING.sub('""', rest)
                start = rest.find("/*")
                cut = rest.find("//")
                if cut >= 0 and (start < 0 or cut < start):
                    code += rest[:cut]
                    rest = ""
                elif start >= 0:
                    code += rest[:start]
                    rest, in_block = rest[start + 2:], True
                else:
                    code += rest
                    rest = ""
        yield number, code, (include.group(1) == '"', include.group(2)) if include else None


def comm_private(root, path, include):
    """A quoted include that is not the includer's neighbour but a file of comm/'s source tree."""
    if os.path.isfile(os.path.join(os.path.dirname(path), include)):
        return False
    return os.path.isfile(os.path.join(root, "comm", include))


def check(root):
    violations = []
    for index, (layer, source_dir) in enumerate(LAYERS):
        higher = [name for name, _ in LAYERS[index + 1:]]
        for path in files_of(root, layer, source_dir):
            shown = os.path.relpath(path, root)
            for number, code, named in code_lines(path):
                where = f"{shown}:{number}: layer '{layer}'"
                if named is not None:
                    quoted, include = named
                    if include == "dash/dash.hpp" or any(include.startswith(f"dash/{name}/") for name in higher):
                        violations.append(f"{where} includes {include}, a header of a higher layer")
                    if index > 0 and (PRIVATE.match(include) or quoted and comm_private(root, path, include)):
                        violations.append(f"{where} includes {include}, a private header of the collective layer")
                    continue
                if index > 0:
                    for name in MPI_NAME.findall(code):
                        if name != "MPI_Comm":
                            violations.append(f"{where} calls MPI ({name}); only dash::comm does")
    for violation in violations:
        print(violation)
    if not violations:
        print("layering holds for: " + ", ".join(name for name, _ in LAYERS))
    return 1 if violations else 0


def self_test():
    expected = {
        "core/global.cpp:3: layer 'core' calls MPI (MPI_Send)",
        "include/dash/containers/bad.hpp:2: layer 'containers' includes dash/comm/detail/execution.hpp, a private",
        "core/global.cpp:1: layer 'core' includes dash/algorithms/sort.hpp, a header of a higher layer",
        "core/global.cpp:4: layer 'core' includes arena/arena.hpp, a private",
    }
    with tempfile.TemporaryDirectory() as root:
        write = scratch_tree.writer(root)
        write("comm/send.cpp", "#include <mpi.h>\nvoid f() { MPI_Send(0, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD); }\n")
        write("comm/arena/arena.hpp", "#pragma once\n")
        write("core/test/send_test.cpp", '#include "arena/arena.hpp"\nvoid f() { MPI_Send(0, 0, 0, 0, 0, 0); }\n')
        write("core/global.cpp", '#include <dash/comm/group.hpp>\n// MPI_Send in a comment\n'
              'MPI_Comm c; const char* s = "MPI_Recv in a string";\n/* MPI_Get\n   in a block */\n')
        write("include/dash/containers/bad.hpp", "#pragma once\n#include <dash/comm/group.hpp>\n")
        if check(root) != 0:
            print("self-test: a tree without a violation was rejected")
            return 1
        write("core/global.cpp", '#include <dash/algorithms/sort.hpp>\n\nvoid f() { MPI_Send(0, 0, 0, 0, 0, 0); }\n'
              '#include "arena/arena.hpp"\n')
        write("include/dash/containers/bad.hpp", "#pragma once\n#include <dash/comm/detail/execution.hpp>\n")
        report = io.StringIO()
        with contextlib.redirect_stdout(report):
            status = check(root)
        missing = [line for line in expected if line not in report.getvalue()]
        if status != 1 or missing:
            print(report.getvalue() + "self-test: not reported: " + "; ".join(missing))
            return 1
    print("self-test passed: an MPI call, private includes (detail/ and comm's source tree) and an upward "
          "include are each reported; comments, strings, MPI_Comm and a layer's tests are not")
    return 0


if __name__ == "__main__":
    scratch_tree.main(check, self_test, __doc__)
