#!/usr/bin/env python3
"""No include loop among the units of the collective layer (docs/design.md, "Layers and folders").

A unit is a source file of comm/ (comm/**/X.cpp, its tests in comm/test/ aside) with the header of
the same name (X.hpp, beside the sources or in include/dash/comm/; a schedule's within schedule/).
comm's private headers are named from comm/'s root ("arena/collective_arena.hpp"), the public ones
from include/. Unit U depends on unit V when a
file of U includes V's header, directly or through headers that belong to no unit. The check fails,
naming each loop, when a unit depends on itself through others: then neither can be understood,
built or started without the other (environment.cpp once started every part while every part read
its state from it).

  check_include_loops.py ROOT          check ROOT/comm and ROOT/include/dash/comm; exit 1 on a loop
  check_include_loops.py --self-test   prove on a scratch tree that a loop is found, and only then
"""
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import scratch_tree  # noqa: E402

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def collect(root):
    """Sources and headers of the layer, by path relative to root."""
    sources, headers = [], []
    for top in ("comm", os.path.join("include", "dash", "comm")):
        for directory, folders, files in os.walk(os.path.join(root, top)):
            if top == "comm" and os.path.relpath(directory, root) == "comm":
                folders[:] = [folder for folder in folders if folder != "test"]
            for name in files:
                path = os.path.relpath(os.path.join(directory, name), root)
                if name.endswith(".cpp"):
                    sources.append(path)
                elif name.endswith(".hpp"):
                    headers.append(path)
    return sorted(sources), sorted(headers)


def resolve(root, including, target):
    """The layer's file an include names, or None (system and other layers' headers)."""
    candidates = [os.path.join("include", target), os.path.join("comm", target),
                  os.path.normpath(os.path.join(os.path.dirname(including), target))]
    for candidate in candidates:
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def includes(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as file:
        text = file.read()
    found = []
    for target in INCLUDE.findall(text):
        resolved = resolve(root, path, target)
        if resolved is not None and (resolved.startswith("comm") or resolved.startswith(os.path.join("include", "dash", "comm"))):
            found.append(resolved)
    return found


def family(path):
    """Schedules (comm/schedule/, include/dash/comm/schedule/) share names with the collectives'
    public headers (allgather.hpp): a header and a source of one name match within a family."""
    return "schedule" in path.split(os.sep)


def units(sources, headers):
    """unit name -> its files; header path -> unit name."""
    by_name = {}
    for source in sources:
        by_name.setdefault((stem(source), family(source)), []).append(source)
    members = {source: [source] for source in sources}
    owner = {}
    for header in headers:
        owners = by_name.get((stem(header), family(header)), [])
        if len(owners) == 1:
            owner[header] = owners[0]
            members[owners[0]].append(header)
    return members, owner


def dependencies(root, members, owner):
    graph = {}
    for unit, files in members.items():
        seen, stack, targets = set(files), list(files), set()
        while stack:
            for included in includes(root, stack.pop()):
                if included in seen:
                    continue
                seen.add(included)
                target = owner.get(included)
                if target is None:
                    stack.append(included)  # a header of no unit: its includes count as the includer's
                elif target != unit:
                    targets.add(target)
        graph[unit] = targets
    return graph


def loops(graph):
    """Strongly connected components of more than one unit (Tarjan)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph[node]):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def check(root):
    sources, headers = collect(root)
    members, owner = units(sources, headers)
    graph = dependencies(root, members, owner)
    found = loops(graph)
    for component in found:
        print("include loop among " + ", ".join(component) + ":")
        for unit in component:
            inside = sorted(set(graph[unit]) & set(component))
            print("  " + unit + " includes the headers of " + ", ".join(inside))
    if not found:
        print(f"no include loop among the {len(members)} units of the collective layer")
    return 1 if found else 0


def self_test():
    with tempfile.TemporaryDirectory() as root:
        write = scratch_tree.writer(root)
        write("include/dash/comm/a.hpp", "#pragma once\n")
        write("comm/a.cpp", '#include <dash/comm/a.hpp>\n#include "part/helper.hpp"\n')
        write("comm/part/helper.hpp", '#pragma once\n#include "part/b.hpp"\n')  # a header of no unit
        write("comm/part/b.hpp", "#pragma once\n")
        write("comm/part/b.cpp", '#include "part/b.hpp"\n#include <vector>\n')
        if check(root) != 0:
            print("self-test: a tree without a loop was rejected")
            return 1
        write("comm/part/b.cpp", '#include "part/b.hpp"\n#include <dash/comm/a.hpp>\n')
        if check(root) != 1:
            print("self-test: the loop a -> (helper) -> b -> a was not found")
            return 1
    print("self-test passed: a loop through a header of no unit is found, a tree without one passes")
    return 0


if __name__ == "__main__":
    scratch_tree.main(check, self_test, __doc__)
