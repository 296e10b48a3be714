"""A fuzzer of the Python module's calls (make fuzz): seeded, for a fixed time.

    PYTHONPATH=build/python python3 python/fuzz.py [--seconds N] [--seed S]
        [--save FILE] SEED_FILE...

Each round takes a seed file, mutates its bytes (flips, deletions, copies of
lines, splices of other seeds, tokens of PTX, truncation), parses it as
bytes and as str, reads everything the module gives (diagnostics,
functions, instructions, operands and their parts, blocks and their edges,
callees, JSON, both printers), then makes random edits (insert, replace,
remove, declarations, statements taken from the seeds or mutated) and
validates and prints the result, and parses that again.  It checks that an
unedited module prints back byte for byte and that nothing raises but the
ValueError of an edit the library refuses.  A crash kills the process: the
input of the round is in --save (written before each round) to replay.
The same seed gives the same rounds.  Not libFuzzer: no coverage feedback;
the C targets of test/fuzz have that, this drives the Python layer.
"""
import argparse
import os
import random
import sys
import time

import ptxfront

TOKENS = [b".reg", b".b32", b".u64", b".pred", b"%r1", b"%rd2", b"%p1", b"@%p1", b"@!%p1", b"{", b"}",
          b"[", b"]", b"(", b")", b";", b",", b"+", b"-8", b"0x10", b"0f3F800000", b"ld.global.u32",
          b"st.shared.v4.f32", b"bra", b"$L1:", b"ret;", b"call", b".entry k()", b".func f()",
          b".param .u64 p", b"mov.u32", b"add.s32", b"setp.eq.s32", b"\n", b"\r\n", b"\0", b"\xff", b"//",
          b"/*", b"*/", b"\"", b".version 9.0", b".target sm_90", b".address_size 64", b"wgmma.mma_async",
          b".branchtargets", b".callprototype", b"brx.idx", b"{%r1, %r2}", b"_", b"%tid.x", b"<4>"]


def mutate(rnd, data, seeds):
    data = bytearray(data)
    for _ in range(rnd.randint(1, 8)):
        op = rnd.randrange(7)
        pos = rnd.randint(0, len(data))
        if op == 0 and data:
            data[min(pos, len(data) - 1)] ^= 1 << rnd.randrange(8)
        elif op == 1:
            del data[pos:pos + rnd.randint(1, 64)]
        elif op == 2:
            data[pos:pos] = rnd.choice(TOKENS)
        elif op == 3:
            lines = bytes(data).split(b"\n")
            if lines:
                i = rnd.randrange(len(lines))
                lines.insert(rnd.randrange(len(lines) + 1), lines[i])
                data = bytearray(b"\n".join(lines))
        elif op == 4:
            other = rnd.choice(seeds)
            a = rnd.randint(0, len(other))
            data[pos:pos] = other[a:a + rnd.randint(1, 256)]
        elif op == 5:
            data = data[:pos]
        else:
            data[pos:pos] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 8)))
    return bytes(data)


def read_all(m):
    m.ok, m.version, m.target, m.targets, m.address_size, m.name
    for d in m.diagnostics:
        assert d.severity in ("error", "warning", "note"), d
        assert (d.line is None) == (d.column is None), d
    for f in m.functions:
        f.name, f.kind, f.linkage, f.params, f.returns, f.line, hash(f)
        for i in f.instructions:
            i.opcode, i.modifiers, i.family, i.guard, i.line, i.column, i.text, repr(i)
            stack = list(i.operands)
            while stack:
                o = stack.pop()
                o.kind, o.text, o.name, o.selector, o.value, o.base, o.offset, o.elements, repr(o)
                stack.extend(o.items)
        for b in f.blocks:
            b.index, b.label, b.is_exit, b.loop_depth, b.reachable, repr(b)
            b.successors, b.predecessors, b.instructions
        f.callees
    m.emit()
    m.emit(canonical=True)
    try:
        m.to_json()
    except RecursionError:      # json.loads on very deep nesting
        pass


def statement(rnd, seeds):
    """A statement to insert: a line of a seed, mutated or not."""
    src = rnd.choice(seeds)
    lines = [l for l in src.split(b"\n") if l.strip()]
    line = rnd.choice(lines) if lines else b"ret;"
    if rnd.random() < 0.3:
        line = mutate(rnd, line, seeds)
    return line.decode("utf-8", "surrogateescape")


def edit(rnd, m, seeds):
    funcs = [f for f in m.functions if f.is_definition]
    for _ in range(rnd.randint(1, 6)):
        try:
            op = rnd.randrange(7)
            if op == 5:
                m.declare_variable(rnd.choice([".global", ".shared", ".const"]),
                                   rnd.choice([".u32", ".b64", ".f32"]), rnd.choice(["v", "x", "%r1"]),
                                   rnd.randrange(4))
                continue
            if not funcs:
                return
            f = rnd.choice(funcs)
            if op == 6:
                f.declare_register(rnd.choice([".u32", ".b64", ".pred"]), rnd.choice([None, "%t"]))
                continue
            ins = f.instructions
            if op == 4 or not ins:
                blocks = f.blocks
                if blocks:
                    rnd.choice(blocks).insert_at_start(statement(rnd, seeds))
                else:
                    f.insert_at_start(statement(rnd, seeds))
                continue
            i = rnd.choice(ins)
            if op == 0:
                i.insert_before(statement(rnd, seeds))
            elif op == 1:
                i.insert_after(statement(rnd, seeds))
            elif op == 2:
                i.replace(statement(rnd, seeds))
            else:
                i.remove()
        except ValueError:
            pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--save", default=None)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    seeds = []
    for path in args.files:
        with open(path, "rb") as f:
            data = f.read()
        if len(data) <= 200000:     # small ones: more rounds
            seeds.append(data)
    if not seeds:
        print("fuzz.py: no seed file of 200 KB or less", file=sys.stderr)
        return 2
    rnd = random.Random(args.seed)
    end = time.monotonic() + args.seconds
    rounds = edits = 0
    while time.monotonic() < end:
        data = mutate(rnd, rnd.choice(seeds), seeds) if rnd.random() < 0.9 else rnd.choice(seeds)
        if args.save:
            with open(args.save, "wb") as f:
                f.write(data)
        m = ptxfront.parse(data, name="fuzz.ptx")
        assert m.emit().encode("utf-8", "surrogateescape") == data, "unedited module does not print back"
        read_all(m)
        ptxfront.parse(data.decode("utf-8", "surrogateescape"))
        if rnd.random() < 0.5:
            edit(rnd, m, seeds)
            m.validate()
            read_all(m)
            ptxfront.parse(m.emit())
            edits += 1
        rounds += 1
    print("fuzz.py: %d rounds (%d with edits) in %.0f s, seed %d, %d seed files: no crash"
          % (rounds, edits, args.seconds, args.seed, len(seeds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
