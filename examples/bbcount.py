#!/usr/bin/env python3
"""bbcount.py: basic-block execution counters, the Python version of bbcount.c.

    PYTHONPATH=build/python python3 examples/bbcount.py FILE.ptx > instrumented.ptx

Adds a module variable `.global .u64 __bbcount[N]`, one slot per basic block
of every kernel and function (the blocks of its control-flow graph), and at
the start of each block (after its labels; the entry block: after the
declarations that open the body) one `red.global.add.u64 [__bbcount+8*i], 1;`.
Every other line stays as it was: the output is the input with lines added.
On stderr, one line per block: "i function label" ("entry" for the first,
"-" for a block without a label).  Exit status 1 when the module has errors.
"""
import sys

import ptxfront


def main(argv):
    if len(argv) != 2:
        print("usage: bbcount.py FILE.ptx > instrumented.ptx", file=sys.stderr)
        return 2
    try:
        m = ptxfront.parse_file(argv[1])
    except OSError as e:
        print("bbcount.py: %s" % e, file=sys.stderr)
        return 2
    if not m.ok:
        for d in m.diagnostics:
            print("%s:%s:%s: %s: %s" % (d.file, d.line, d.column, d.severity, d.message), file=sys.stderr)
        return 1
    # every block of every function, taken before any edit changes the graphs
    blocks = [(f.name, b) for f in m.functions if f.is_definition for b in f.blocks]
    if blocks:
        counts = m.declare_variable(".global", ".u64", "__bbcount", len(blocks))
        for slot, (func, block) in enumerate(blocks):
            where = "entry" if block.index == 0 else block.label or "-"
            print(slot, func, where, file=sys.stderr)
            block.insert_at_start("red.global.add.u64 [%s+%d], 1;" % (counts, 8 * slot))
    if not m.validate():
        for d in m.diagnostics:
            print("%s:%s:%s: %s: %s" % (d.file, d.line, d.column, d.severity, d.message), file=sys.stderr)
        return 1
    sys.stdout.buffer.write(m.emit().encode("utf-8", "surrogateescape"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
