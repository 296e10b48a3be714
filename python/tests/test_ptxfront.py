"""The ptxfront module's tests (unittest, standard library only).

Run by `make python-check` (suite `python` of make check) through
test/python/run.sh, which builds the module and sets:
  PYTHONPATH      build/python (the module)
  PTXFRONT_CLI    build/ptx-front (the oracle of counts and diagnostics)
  PTX_SHARED      the corpora (../shared beside the checkout)
  PTXAS           ptxas, for the instrumented PTX of examples/bbcount.py
What a test cannot do here (no corpora, no ptxas) it skips saying why; under
REQUIRE_CORPORA=1 such a skip is a failure, and each skip is written to
SKIP_LOG (make check lists them at its end).
"""
import gc
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import tracemalloc
import unittest
import weakref

import ptxfront

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.environ.get("PTXFRONT_CLI", os.path.join(TOP, "build", "ptx-front"))
SHARED = os.environ.get("PTX_SHARED", os.path.join(TOP, "..", "shared"))
CORPUS = os.path.join(SHARED, "corpus", "public")
PTXAS = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")
SAXPY = os.path.join(TOP, "examples", "saxpy.ptx")
HDR = ".version 9.0\n.target sm_90\n.address_size 64\n"


def need(test, ok, reason):
    """Skips `test` unless ok; under REQUIRE_CORPORA=1 fails instead."""
    if ok:
        return
    log = os.environ.get("SKIP_LOG")
    if log:
        with open(log, "a") as f:
            f.write("python: %s: %s\n" % (test.id(), reason))
    if os.environ.get("REQUIRE_CORPORA") == "1":
        test.fail("REQUIRE_CORPORA=1: nothing may be skipped: " + reason)
    test.skipTest(reason)


def read_text(path):
    with open(path) as f:
        return f.read()


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def corpus_files():
    if not os.path.isdir(CORPUS):
        return []
    return sorted(os.path.join(CORPUS, f) for f in os.listdir(CORPUS) if f.endswith(".ptx"))


def cli(*args):
    return subprocess.run([CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


DIAG_LINE = re.compile(rb"^(.*?):(\d+):(\d+): (error|warning|note): (.*)$")
DIAG_NOPOS = re.compile(rb"^(.*?): (error|warning|note): (.*)$")


def cli_diagnostics(path):
    """(severity, line, column, message) of each diagnostic the CLI prints."""
    r = cli(path)
    out = []
    name = path.encode()
    for line in r.stderr.splitlines():
        m = DIAG_LINE.match(line)
        if m and m.group(1) == name:
            out.append((m.group(4).decode(), int(m.group(2)), int(m.group(3)),
                        m.group(5).decode("utf-8", "surrogateescape")))
    return out


def py_diagnostics(m):
    return [(d.severity, d.line, d.column, d.message) for d in m.diagnostics]


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Parsing(unittest.TestCase):
    def test_sources_of_every_kind(self):
        text = read_text(SAXPY)
        for src in (text, text.encode(), bytearray(text.encode()), memoryview(text.encode())):
            m = ptxfront.parse(src, name="s.ptx")
            self.assertTrue(m.ok, m.diagnostics)
            self.assertEqual(m.emit(), text)
            self.assertEqual(m.name, "s.ptx")
        self.assertEqual(ptxfront.parse(text).name, "<string>")

    def test_header(self):
        m = ptxfront.parse_file(SAXPY)
        self.assertEqual((m.version, m.target, m.targets, m.address_size),
                         ("9.0", "sm_90", ["sm_90"], 64))
        self.assertIsNone(ptxfront.parse(".version 8.0\n.target sm_80\n").address_size)
        self.assertEqual(ptxfront.parse_file(SAXPY, target="sm_100a").target, "sm_100a")

    def test_errors_raise_only_for_arguments_and_files(self):
        with self.assertRaises(TypeError):
            ptxfront.parse(3)
        with self.assertRaises(TypeError):
            ptxfront.parse(None)
        with self.assertRaises(TypeError):
            ptxfront.parse_file(3.5)
        with self.assertRaises(FileNotFoundError):
            ptxfront.parse_file("/nonexistent/x.ptx")
        with self.assertRaises(IsADirectoryError):
            ptxfront.parse_file(TOP)
        with self.assertRaises(ValueError):
            ptxfront.parse(HDR, target="not_an_arch")
        # invalid PTX never raises
        for bad in ("", "garbage", "\0\0\0", b"\xff\xfe", HDR + ".entry k( {"):
            m = ptxfront.parse(bad)
            self.assertFalse(m.ok)
            self.assertTrue(m.diagnostics)
            self.assertIsInstance(m.emit(), str)

    def test_diagnostics(self):
        m = ptxfront.parse(HDR + ".visible .entry k()\n{\n\tadd.s33 %r1, 1;\n\tret;\n}\n", name="t.ptx")
        self.assertFalse(m.ok)
        d = m.diagnostics[0]
        self.assertEqual((d.severity, d.line, d.column, d.code, d.file),
                         ("error", 6, 5, "instruction", "t.ptx"))
        self.assertIn("'.s33'", d.message)
        self.assertEqual(d.fixit, ".s32")
        self.assertIn("Diagnostic(severity='error', line=6", repr(d))

    def test_non_utf8_bytes_round_trip(self):
        raw = (HDR + "// caf\xe9\n").encode("latin-1")
        m = ptxfront.parse(raw)
        self.assertEqual(m.emit().encode("utf-8", "surrogateescape"), raw)
        # and back in as str with surrogates
        self.assertEqual(ptxfront.parse(m.emit()).emit(), m.emit())

    def test_threads_parse_side_by_side(self):
        text = read_text(SAXPY)
        results = []

        def work():
            for _ in range(50):
                m = ptxfront.parse(text)
                results.append(sum(len(f.instructions) for f in m.functions))

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(results, [20] * 200)

    def test_to_json_is_the_clis(self):
        need(self, os.access(CLI, os.X_OK), "%s not built" % CLI)
        got = ptxfront.parse_file(SAXPY).to_json()
        want = json.loads(cli(SAXPY, "--json").stdout)
        self.assertEqual(got, want)


class Tree(unittest.TestCase):
    def setUp(self):
        self.m = ptxfront.parse_file(SAXPY)
        self.f = self.m.functions[0]

    def test_function(self):
        f = self.f
        self.assertEqual((f.name, f.kind, f.linkage, f.is_definition), ("saxpy", "entry", ".visible", True))
        self.assertEqual([(p.name, p.space, p.type) for p in f.params][:2],
                         [("saxpy_param_0", ".param", ".u32"), ("saxpy_param_1", ".param", ".f32")])
        self.assertEqual(f, self.m.function("saxpy"))
        self.assertEqual(hash(f), hash(self.m.function("saxpy")))
        with self.assertRaises(KeyError):
            self.m.function("nope")
        self.assertEqual(repr(f), "<ptxfront.Function .entry saxpy>")

    def test_instructions(self):
        ins = self.f.instructions
        self.assertEqual(len(ins), 20)
        first = ins[0]
        self.assertEqual((first.opcode, first.modifiers, first.line, first.column, first.family),
                         ("ld", (".param", ".u32"), 20, 2, "ld"))
        self.assertEqual(first.text, "ld.param.u32 \t%r2, [saxpy_param_0]")
        self.assertEqual(repr(first), "<ptxfront.Instruction 20:2 'ld.param.u32 \\t%r2, [saxpy_param_0]'>")
        reg, addr = first.operands
        self.assertEqual((reg.kind, reg.text, reg.name), ("sym", "%r2", "%r2"))
        self.assertEqual((addr.kind, addr.base.text, addr.offset), ("addr", "saxpy_param_0", 0))
        mad = [i for i in ins if i.opcode == "mad.lo"]
        self.assertEqual(mad[0].modifiers, (".s32",))
        guarded = [i for i in ins if i.guard]
        self.assertEqual([(i.opcode, i.guard) for i in guarded], [("bra", "%p1")])
        tid = [o for i in ins for o in i.operands if o.name == "%tid"]
        self.assertEqual(tid[0].selector, ".x")
        self.assertEqual(first.function, self.f)

    def test_operand_parts(self):
        m = ptxfront.parse(HDR + ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<5>;\n.reg .b64 %rd<3>;\n"
                           "@!%p1 ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1+-16];\n"
                           "ld.global.u32 %r1, [%rd1-8];\nmov.b32 %r1, 0f3F800000;\nmov.u32 %r1, 42;\n"
                           "ld.global.u32 %r1, [64];\nret;\n}\n")
        ins = m.functions[0].instructions
        vec, addr = ins[0].operands
        self.assertEqual(ins[0].guard, "!%p1")
        self.assertEqual([e.text for e in vec.elements], ["%r1", "%r2", "%r3", "%r4"])
        self.assertEqual(vec.kind, "vec")
        self.assertEqual(addr.base.text, "%rd1")
        self.assertEqual(ins[1].operands[1].offset, -8)
        self.assertEqual(ins[2].operands[1].value, 1.0)
        self.assertEqual(ins[3].operands[1].value, 42)
        self.assertIsNone(ins[4].operands[1].base)
        self.assertEqual(ins[4].operands[1].offset, 64)
        self.assertIsNone(ins[3].operands[1].elements)

    def test_registers_and_variables(self):
        self.assertEqual(self.f.registers, {".pred": 2, ".f32": 5, ".b32": 6, ".b64": 8})
        m = ptxfront.parse(HDR + ".extern .shared .align 16 .b8 dyn[];\n.global .u32 g[2][3];\n"
                           ".entry k()\n{\n.reg .b32 %r<3>, %x;\n.shared .f32 tile[64];\n.local .u8 l;\nret;\n}\n")
        self.assertEqual(m.variables, [("dyn", ".shared", ".b8", 16, (0,), ".extern"),
                                       ("g", ".global", ".u32", 0, (2, 3), None)])
        k = m.function("k")
        self.assertEqual(k.registers, {".b32": 4})
        self.assertEqual([(v.name, v.space, v.dims) for v in k.variables],
                         [("tile", ".shared", (64,)), ("l", ".local", ())])

    def test_blocks_and_callees(self):
        blocks = self.f.blocks
        self.assertEqual([b.index for b in blocks], [0, 1, 2])
        self.assertEqual(sum(len(b.instructions) for b in blocks), 20)
        self.assertEqual(blocks[2].label, "$L__BB0_2")
        self.assertEqual(set(blocks[0].successors), {blocks[1], blocks[2]})
        self.assertEqual(set(blocks[2].predecessors), {blocks[0], blocks[1]})
        self.assertTrue(blocks[2].successors[0].is_exit)
        m = ptxfront.parse(HDR + ".func g()\n{\nret;\n}\n.func h()\n{\ncall g;\ncall g;\nret;\n}\n"
                           ".entry k()\n{\ncall h;\ncall g;\nret;\n}\n")
        k = m.function("k")
        self.assertEqual(sorted(f.name for f in k.callees), ["g", "h"])
        self.assertEqual([f.name for f in m.function("h").callees], ["g"])
        self.assertEqual(m.function("g").callees, [])

    def test_opcodes_are_instruction_names(self):
        names = set(ptxfront.instructions())
        need(self, os.access(CLI, os.X_OK), "%s not built" % CLI)
        listed = {line.split()[0] for line in cli("--list-instructions").stdout.decode().splitlines() if line}
        self.assertEqual(names, listed)
        files = corpus_files()[::8] or [SAXPY]
        for path in files:
            for f in ptxfront.parse_file(path).functions:
                for i in f.instructions:
                    if i.family:
                        self.assertIn(i.opcode, names, (path, i))

    def test_explain(self):
        text = ptxfront.explain("vadd4")
        self.assertTrue(text.startswith("vadd4:"))
        if os.access(CLI, os.X_OK):
            self.assertEqual(text, cli("--explain", "vadd4").stdout.decode())
        with self.assertRaises(ValueError):
            ptxfront.explain("nosuchop")
        self.assertEqual(ptxfront.instructions("mul24"), ["mul24.hi", "mul24.lo"])

    def test_docstrings(self):
        for obj in (ptxfront, ptxfront.parse, ptxfront.parse_file, ptxfront.explain, ptxfront.instructions,
                    ptxfront.Module, ptxfront.Module.emit, ptxfront.Function.instructions,
                    ptxfront.Instruction.insert_before, ptxfront.Operand.base, ptxfront.Block.successors):
            self.assertTrue(obj.__doc__, obj)


class Editing(unittest.TestCase):
    SRC = (HDR + ".visible .entry k()\n{\n\t.reg .b32 %r<3>;   \n\tmov.u32 %r1, 1;\t \n"
           "\tmov.u32 %r2, 2; // c  \n\tret;\n}\n")

    def test_insert_keeps_the_lines_around(self):
        m = ptxfront.parse(self.SRC)
        f = m.functions[0]
        mov1, mov2, ret = f.instructions
        new = mov1.insert_after("add.u32 %r1, %r1, 1;")
        self.assertEqual([i.text for i in new], ["add.u32 \t%r1, %r1, 1"])
        self.assertIsNone(new[0].line)
        self.assertEqual(new[0].operands[2].text, "1")
        mov2.insert_before("add.u32 %r2, %r2, 1;")
        mov2.insert_after("add.u32 %r2, %r2, 3;")
        f.insert_at_start("mov.u32 %r1, 7;")
        self.assertTrue(m.validate(), m.diagnostics)
        # every source line kept as it was, trailing spaces included
        self.assertEqual(m.emit(), HDR + ".visible .entry k()\n{\n\t.reg .b32 %r<3>;   \n\tmov.u32 \t%r1, 7;\n"
                         "\tmov.u32 %r1, 1;\t \n\tadd.u32 \t%r1, %r1, 1;\n\tadd.u32 \t%r2, %r2, 1;\n"
                         "\tmov.u32 %r2, 2; // c  \n\tadd.u32 \t%r2, %r2, 3;\n\tret;\n}\n")
        self.assertEqual(len(f.instructions), 7)

    def test_replace_remove_declare(self):
        m = ptxfront.parse(self.SRC)
        f = m.functions[0]
        mov1, mov2, ret = f.instructions
        new = mov1.replace("mov.u32 %r1, 5;\nmov.u32 %r2, 6;")
        self.assertEqual([i.opcode for i in new], ["mov", "mov"])
        mov2.remove()
        with self.assertRaises(ValueError):
            mov2.remove()
        g = m.declare_variable(".global", ".u64", "hits", 4)
        self.assertEqual(g, "hits")
        self.assertEqual(m.declare_variable("global", "u64", "hits"), "hits_1_")
        r = f.declare_register(".u64")
        ret.insert_before("mov.u64 %s, %s;\nred.global.add.u64 [%s+8], 1;" % (r, g, g))
        self.assertTrue(m.validate(), m.diagnostics)
        out = m.emit()
        self.assertIn(".global .u64 hits[4];\n", out)
        self.assertIn("\tmov.u32 \t%r1, 5;\n\tmov.u32 \t%r2, 6;\n", out)
        self.assertNotIn("mov.u32 %r2, 2", out)
        self.assertIn("red.global.add.u64 \t[hits + 8], 1;", out)
        self.assertTrue(ptxfront.parse(out).ok)
        self.assertTrue(ptxfront.parse(m.emit(canonical=True)).ok)

    def test_bad_edits(self):
        m = ptxfront.parse(self.SRC)
        f = m.functions[0]
        with self.assertRaises(ValueError):
            f.instructions[0].insert_after("mov.u32 %r1 1 2 3")
        with self.assertRaises(ValueError):
            f.instructions[0].insert_after("")
        with self.assertRaises(TypeError):
            f.instructions[0].insert_after(3)
        with self.assertRaises(ValueError):
            m.declare_variable(".nowhere", ".u32", "x")
        with self.assertRaises(ValueError):
            f.declare_register(".u33")
        f.instructions[0].insert_after("add.u32 %r9, %r9, 1;")
        self.assertFalse(m.validate())
        self.assertFalse(m.ok)
        self.assertTrue(any(d.line is None and "%r9" in d.message for d in m.diagnostics))

    def test_blocks_after_an_edit(self):
        m = ptxfront.parse_file(SAXPY)
        f = m.functions[0]
        old = f.blocks
        for b in old:
            b.insert_at_start("membar.cta;")
        self.assertTrue(m.validate(), m.diagnostics)
        self.assertEqual(len(f.instructions), 23)
        # the old blocks still read (their graphs are kept alive), the new ones see the edits
        self.assertEqual(sum(len(b.instructions) for b in old), 20)
        self.assertEqual(sum(len(b.instructions) for b in f.blocks), 23)

    def test_blocks_after_an_edit_of_another_module(self):
        # the library calls every graph stale after an edit anywhere; the
        # module's cached graphs are built again, not read as empty
        a = ptxfront.parse_file(SAXPY)
        b = ptxfront.parse_file(SAXPY)
        n = len(a.functions[0].blocks)
        self.assertGreater(n, 1)
        b.functions[0].blocks[1].insert_at_start("membar.cta;")
        self.assertEqual(len(a.functions[0].blocks), n)
        self.assertEqual(sum(len(x.instructions) for x in a.functions[0].blocks), 20)


class Lifetime(unittest.TestCase):
    def test_module_freed_before_its_objects(self):
        m = ptxfront.parse_file(SAXPY)
        ref = weakref.ref(m)
        f = m.functions[0]
        ins = f.instructions
        ops = ins[0].operands
        blocks = f.blocks
        del m
        gc.collect()
        self.assertIsNotNone(ref())     # the views keep it alive
        self.assertEqual(ins[0].text, "ld.param.u32 \t%r2, [saxpy_param_0]")
        self.assertEqual(ops[1].base.text, "saxpy_param_0")
        self.assertEqual(blocks[2].label, "$L__BB0_2")
        self.assertEqual(f.name, "saxpy")
        del f, ins, ops, blocks
        gc.collect()
        self.assertIsNone(ref())        # and it goes with the last one

    def test_unused_module_is_freed_at_once(self):
        m = ptxfront.parse_file(SAXPY)
        m.functions[0].blocks           # the graphs' cycle
        ref = weakref.ref(m)
        del m
        gc.collect()
        self.assertIsNone(ref())

    def test_no_leak_over_1000_parses(self):
        text = read_text(SAXPY)

        def one():
            m = ptxfront.parse(text)
            for f in m.functions:
                for i in f.instructions:
                    i.opcode, i.modifiers, i.text, i.guard
                    for o in i.operands:
                        o.text, o.items, o.base
                for b in f.blocks:
                    b.successors, b.instructions
                f.instructions[0].insert_after("membar.cta;")
            m.validate()
            m.emit()
            m.diagnostics
            ptxfront.parse(text + "bad")

        for _ in range(100):
            one()
        gc.collect()
        tracemalloc.start()
        rss0 = rss_kib()
        snap0 = tracemalloc.take_snapshot()
        for _ in range(1000):
            one()
        gc.collect()
        snap1 = tracemalloc.take_snapshot()
        rss1 = rss_kib()
        tracemalloc.stop()
        grown = sum(s.size_diff for s in snap1.compare_to(snap0, "filename"))
        self.assertLess(grown, 64 * 1024, "Python allocations grew by %d bytes" % grown)
        self.assertLess(rss1 - rss0, 2048, "RSS grew by %d KiB over 1,000 parses" % (rss1 - rss0))


HOSTILE = r'''
import os, random, sys
import ptxfront
HDR = ".version 9.0\n.target sm_90\n.address_size 64\n"

def walk(m):
    m.ok; m.diagnostics; m.version; m.target; m.address_size
    for f in m.functions:
        f.name; f.params; f.callees
        for i in f.instructions:
            i.opcode; i.modifiers; i.guard; i.text; i.line
            for o in i.operands:
                o.text; o.base; o.offset; o.elements; o.value
                for x in o.items:
                    x.text
        for b in f.blocks:
            b.successors; b.predecessors; b.instructions
    m.emit(); m.emit(canonical=True)
    try:
        m.to_json()
    except RecursionError:      # json.loads' limit, on 100,000 nested blocks
        pass

inputs = []
errors = os.environ["ERRORS_DIR"]
for name in sorted(os.listdir(errors)):
    if name.endswith(".ptx"):
        inputs.append(open(os.path.join(errors, name), "rb").read())
rnd = random.Random(35)
saxpy = open(os.environ["SAXPY"], "rb").read()
inputs += [bytes(rnd.randrange(256) for _ in range(4096)),
           HDR.encode() + bytes(rnd.randrange(256) for _ in range(4096)),
           open(sys.executable, "rb").read(1 << 20),
           (HDR + ".entry k()\n" + "{" * 100000 + "}" * 100000 + "\n").encode(),
           (HDR + ".entry k()\n{\n" + "{" * 200000 + "\n").encode(),
           (HDR + ".entry k()\n{\n" + "".join("L%d:\n" % i for i in range(100000)) + "ret;\n}\n").encode(),
           (HDR + ".entry k()\n{\n.reg .b32 %r<4>;\nld.global.v4.u32 {" + ", ".join(["%r1"] * 100000) + "}, [0];\n}\n").encode(),
           (HDR + "// " + "x" * 10000000 + "\n").encode(),
           (HDR + '.global .b8 s[1] = "' + "y" * 1000000).encode(),
           (HDR + ".entry k() { mov.u32 %r1, 0x" + "f" * 100000 + "; }").encode(),
           b"\0" * 1000, HDR.encode() + b"\xef\xbb\xbf\x80\0",
           saxpy.replace(b"\n", b"\r\n"), saxpy.replace(b"\n", b"\r")]
inputs += [saxpy[:k] for k in range(0, len(saxpy), 7)]
for data in inputs:
    walk(ptxfront.parse(data))
    m = ptxfront.parse(data)
    for f in m.functions:
        for i in f.instructions[:3]:
            try:
                i.insert_after("membar.cta;")
                i.replace("ret;")
            except ValueError:
                pass
    m.validate()
    walk(m)
print("hostile: %d inputs" % len(inputs))
'''


class Hostile(unittest.TestCase):
    def test_hostile_inputs_do_not_crash(self):
        env = dict(os.environ, ERRORS_DIR=os.path.join(TOP, "test", "errors"), SAXPY=SAXPY)
        r = subprocess.run([sys.executable, "-c", HOSTILE], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors="replace")[-2000:])
        self.assertIn(b"hostile:", r.stdout)


class Corpora(unittest.TestCase):
    def test_errors_diagnostics_are_the_clis(self):
        need(self, os.access(CLI, os.X_OK), "%s not built" % CLI)
        d = os.path.join(TOP, "test", "errors")
        n = 0
        for name in sorted(os.listdir(d)):
            if not name.endswith(".ptx"):
                continue
            path = os.path.join(d, name)
            m = ptxfront.parse_file(path)
            got = [x for x in py_diagnostics(m) if x[1] is not None]
            self.assertEqual(got, cli_diagnostics(path), path)
            self.assertEqual(m.emit().encode("utf-8", "surrogateescape"), read_bytes(path), path)
            n += 1
        self.assertGreater(n, 100)

    def test_corpus_agrees_with_the_cli(self):
        files = corpus_files()
        need(self, files, "%s not found (the corpora live beside the checkout)" % CORPUS)
        need(self, os.access(CLI, os.X_OK), "%s not built" % CLI)
        for path in files:
            with self.subTest(path=os.path.basename(path)):
                m = ptxfront.parse_file(path)
                self.assertEqual(m.emit().encode("utf-8", "surrogateescape"), read_bytes(path))
                self.assertEqual(py_diagnostics(m), cli_diagnostics(path))
                stats = json.loads(cli(path, "--stats", "--json").stdout)
                # --stats lists every kernel and function, declarations with 0
                counts = sorted((f.name, len(f.instructions)) for f in m.functions)
                want = sorted((f["name"], f["instructions"]) for f in stats["functions"])
                self.assertEqual(sorted(set(counts)), sorted(set(want)))
                regs = {f.name: f.registers for f in m.functions if f.is_definition}
                self.assertEqual(regs, {f["name"]: f["registers"] for f in stats["functions"] if f["name"] in regs})
                total = sum(len(f.instructions) for f in m.functions if f.is_definition)
                self.assertEqual(total, stats["totals"]["instructions"])
                blocks = sum(len(f.blocks) for f in m.functions if f.is_definition)
                self.assertEqual(blocks, sum(f.get("blocks", 0) for f in stats["functions"]))


    def test_wild_diagnostics_are_the_clis(self):
        wild = os.environ.get("PTXFRONT_WILD", os.path.join(TOP, "build", "wild", "orig"))
        files = sorted(os.path.join(d, f) for d, _, fs in os.walk(wild) for f in fs if f.endswith(".ptx"))
        need(self, files, "%s: no unpacked wild modules (make unpacks ../shared/wild/ptx.tar.xz)" % wild)
        need(self, os.access(CLI, os.X_OK), "%s not built" % CLI)
        rejected = 0
        for path in files:
            with self.subTest(path=path[len(wild):]):
                m = ptxfront.parse_file(path)
                self.assertEqual(m.emit().encode("utf-8", "surrogateescape"), read_bytes(path))
                self.assertEqual([x for x in py_diagnostics(m) if x[1] is not None], cli_diagnostics(path))
                rejected += not m.ok
        self.assertGreater(rejected, 0)


class Bbcount(unittest.TestCase):
    def test_instrumented_corpus_assembles(self):
        files = corpus_files()
        need(self, files, "%s not found (the corpora live beside the checkout)" % CORPUS)
        have_ptxas = os.access(PTXAS, os.X_OK)
        need(self, have_ptxas, "ptxas not found at %s: the instrumented PTX is not assembled" % PTXAS)
        # the smaller files (ptxas takes long on the big ones) and saxpy
        files = sorted(files, key=os.path.getsize)[:24:2] + [SAXPY]
        script = os.path.join(TOP, "examples", "bbcount.py")
        with tempfile.TemporaryDirectory() as tmp:
            for path in files:
                with self.subTest(path=os.path.basename(path)):
                    out = os.path.join(tmp, "out.ptx")
                    with open(out, "wb") as o:
                        r = subprocess.run([sys.executable, script, path], stdout=o, stderr=subprocess.PIPE)
                    self.assertEqual(r.returncode, 0, r.stderr.decode())
                    nblocks = len(r.stderr.splitlines())
                    old = read_bytes(path).splitlines()
                    new = read_bytes(out).splitlines()
                    # only lines added: the old ones are a subsequence, in order
                    it = iter(new)
                    self.assertTrue(all(any(x == y for y in it) for x in old), "lines removed or changed")
                    added = [l for l in new if l not in set(old)]
                    self.assertEqual(sum(1 for l in added if b"red.global.add.u64" in l), nblocks)
                    if b".address_size 32" in read_bytes(path) or nblocks == 0:
                        continue
                    arch = re.search(rb"^\s*\.target\s+(sm_\d+[af]?)", read_bytes(path), re.M)
                    arch = arch.group(1).decode() if arch else "sm_90"
                    if re.match(r"sm_([1-6]\d|7[02])$", arch):
                        arch = "sm_75"
                    r = subprocess.run([PTXAS, "-c", "-O0", "-arch=" + arch, out, "-o", os.path.join(tmp, "o.cubin")],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                    self.assertEqual(r.returncode, 0, r.stderr.decode())


# what `pip install --no-build-isolation` needs (Debian: python3-pip,
# python3-setuptools, python3-wheel; setuptools 70.1 and later has wheel's part)
CAN_BUILD = """
import setuptools
import pip
try:
    import wheel
except ImportError:
    from setuptools.command import bdist_wheel
"""


def pip_python():
    """An interpreter that can pip install without the network: this one,
    else Debian's (python3-pip, python3-setuptools, python3-wheel)."""
    for py in (sys.executable, "/usr/bin/python3"):
        if os.access(py, os.X_OK) and subprocess.run([py, "-c", CAN_BUILD], stdout=subprocess.DEVNULL,
                                                     stderr=subprocess.DEVNULL).returncode == 0:
            return py
    return None


class Install(unittest.TestCase):
    def test_pip_install_into_a_target_dir(self):
        py = pip_python()
        need(self, py, "no python3 here has pip, setuptools and wheel (Debian: python3-pip)")
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run([py, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
                                "--no-index", "--disable-pip-version-check", "-q", "--target", tmp, TOP],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900)
            self.assertEqual(r.returncode, 0, r.stdout.decode()[-3000:])
            installed = os.listdir(tmp)
            self.assertTrue(any(n.startswith("ptxfront") and n.endswith(".so") for n in installed), installed)
            self.assertIn("ptxfront.pyi", installed)
            env = dict(os.environ, PYTHONPATH=tmp)
            r = subprocess.run([py, "-c", "import ptxfront, sys; m = ptxfront.parse_file(sys.argv[1]);"
                                "print(ptxfront.__file__, len(m.functions[0].instructions))", SAXPY],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr.decode())
            self.assertTrue(r.stdout.decode().startswith(tmp), r.stdout)
            self.assertTrue(r.stdout.decode().endswith(" 20\n"), r.stdout)
        self.assertFalse([n for n in os.listdir(TOP) + os.listdir(os.path.join(TOP, "src"))
                          if n.endswith(".egg-info")], "pip left egg-info in the tree")


class DocExamples(unittest.TestCase):
    def test_doc_python_md_examples_print_what_it_says(self):
        doc = read_text(os.path.join(TOP, "doc", "python.md"))
        examples = re.findall(r"```python\n(.*?)```\n\n(?:prints `(.*?)`|prints\n\n```\n(.*?)```)", doc, re.S)
        self.assertEqual(len(examples), 4)
        for code, one, many in examples:
            r = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=TOP, universal_newlines=True)
            self.assertEqual(r.stderr, "")
            self.assertEqual(r.stdout, one + "\n" if one else many, code)


class Stub(unittest.TestCase):
    def test_stub_names_what_the_module_has(self):
        stub = read_text(os.path.join(TOP, "python", "ptxfront.pyi"))
        for name in ("parse", "parse_file", "explain", "instructions"):
            self.assertIn("def %s(" % name, stub)
            self.assertTrue(callable(getattr(ptxfront, name)))
        for cls in ("Module", "Function", "Instruction", "Operand", "Block", "Diagnostic", "Param", "Variable"):
            self.assertIn("class %s" % cls, stub)
            typ = getattr(ptxfront, cls)
            body = stub.split("class %s" % cls, 1)[1].split("\nclass ", 1)[0]
            for attr in re.findall(r"^    (?:def )?(\w+)[:(]", body, re.M):
                if not attr.startswith("__"):
                    self.assertTrue(hasattr(typ, attr), "%s.%s is in the stub, not the module" % (cls, attr))
            for attr in dir(typ):
                if not attr.startswith("_") and attr not in ("count", "index", "n_fields",
                                                              "n_sequence_fields", "n_unnamed_fields"):
                    self.assertRegex(body, r"\b%s\b" % attr, "%s.%s is missing from the stub" % (cls, attr))


if __name__ == "__main__":
    unittest.main()
