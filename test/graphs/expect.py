#!/usr/bin/env python3
"""Writes what ptx-front --cfg --json and --callgraph --json say of one
module as facts, one a line, in the order of the documents, for
test/graphs/run.sh to compare with a case's NAME.expected (written by
hand from the module):
  function NAME KIND exit N calls N max_loop_depth N
  block FUNC ID LABEL lines A-B statements N instructions N idom I|- [unreachable] [header] depth N
  edge FUNC FROM>TO KIND [GUARD] [back]
  loop FUNC INDEX header H depth D parent P|- blocks B,B,...
  node NAME KIND [defined] [root] [recursive]
  call FROM>TO KIND sites N
A key the documents hold and this script does not know is an error (so
that none goes unchecked).
usage: expect.py CFG.json CALLGRAPH.json"""
import json
import sys


def take(obj, keys, where):
    extra = set(obj) - set(keys)
    if extra:
        sys.exit(f"expect.py: {where}: keys not pinned: {sorted(extra)}")
    return [obj[k] for k in keys]


def dash(v):
    return "-" if v is None else str(v)


out = []
cfg = json.load(open(sys.argv[1]))
_, graph, _, valid, funcs = take(cfg, ["schema", "graph", "file", "valid", "functions"], "cfg")
assert graph == "cfg", graph
assert valid is True, "the hand-made modules are valid"
for f in funcs:
    name, kind, exit_, blocks, edges, loops, maxd, calls = take(
        f, ["name", "kind", "exit", "blocks", "edges", "loops", "max_loop_depth", "calls"], "function")
    out.append(f"function {name} {kind} exit {exit_} calls {calls} max_loop_depth {maxd}")
    for b in blocks:
        bid, label, lines, st, ins, reach, idom, header, depth = take(
            b, ["id", "label", "lines", "statements", "instructions", "reachable", "idom",
                "loop_header", "loop_depth"], "block")
        out.append(f"block {name} {bid} {dash(label)} lines {lines[0]}-{lines[1]} statements {st} "
                   f"instructions {ins} idom {dash(idom)}" + ("" if reach else " unreachable")
                   + (" header" if header else "") + f" depth {depth}")
    for e in edges:
        fr, to, ek, back, guard = take(e, ["from", "to", "kind", "back", "guard"], "edge")
        out.append(f"edge {name} {fr}>{to} {ek}" + (f" {guard}" if guard else "") + (" back" if back else ""))
    for i, lp in enumerate(loops):
        h, d, p, bl = take(lp, ["header", "depth", "parent", "blocks"], "loop")
        out.append(f"loop {name} {i} header {h} depth {d} parent {dash(p)} blocks "
                   + ",".join(str(x) for x in bl))
cg = json.load(open(sys.argv[2]))
_, graph, _, valid, nodes, calls = take(cg, ["schema", "graph", "file", "valid", "functions", "calls"], "callgraph")
assert valid is True, "the hand-made modules are valid"
assert graph == "callgraph", graph
for n in nodes:
    name, kind, defined, root, rec = take(n, ["name", "kind", "defined", "root", "recursive"], "node")
    out.append(f"node {name} {kind}" + (" defined" if defined else "") + (" root" if root else "")
               + (" recursive" if rec else ""))
for c in calls:
    fr, to, ck, sites = take(c, ["from", "to", "kind", "sites"], "call")
    out.append(f"call {fr}>{to} {ck} sites {sites}")
print("\n".join(out))
