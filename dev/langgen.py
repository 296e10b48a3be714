#!/usr/bin/env python3
"""The language generator: small PTX modules covering the language beyond
instruction modifiers (operands, addresses, declarations and initializers,
parameters, function headers, directives and their version gates, .pragma,
.section, .file, .loc, linking, limits), each a valid form or a near miss,
judged by ptxas 13.0 and written to a table that test/conformance/lang.c
replays through the library in make check (suite lang).

Seeded and reproducible: the same seed gives the same cases in the same
order with the same ids (construct-NNNNN, numbered within the construct).
Every case is first put to ptxas in whole-program mode
(-arch=ARCH file.ptx); a case it rejects is asked again with -c, and the
table keeps both verdicts (-c never rejected what whole-program mode
accepted in the runs this was written with; the accepted ones are not
asked twice to halve the time).

usage: dev/langgen.py [--seed N] [--jobs N] [--ptxas PATH] [-o lang.tsv]
                      [--only CONSTRUCT,...] [--list] [--cache FILE]

--cache FILE keeps ptxas's verdicts (one JSON line per module and -arch),
so that a run after an edit of the generator asks ptxas only about the new
modules (make lang-cases keeps it in build/langgen-cache.jsonl).

Output columns (tab-separated, one case a row, header first):
  construct id arch verdict line message c_verdict ptx
  verdict    accept or reject (whole-program ptxas; warnings are accept)
  line       ptxas's line of its first error, empty when it names none
  message    ptxas's first error (or first warning of an accept)
  c_verdict  the verdict of ptxas -c when it was asked (rejects only)
  ptx        the module, with backslash, tab, newline and CR escaped
Cases on which ptxas itself crashes (an internal error, a signal) are
left out and counted on stderr: they have no verdict to hold anyone to.
Python 3 standard library only; not part of make check (make lang-cases).
"""
import argparse
import concurrent.futures
import hashlib
import json
import threading
import os
import random
import re
import subprocess
import sys
import tempfile

VERSION = "9.0"
TARGET = "sm_90a"

REGS = ("  .reg .pred %p<4>; .reg .b16 %h<4>; .reg .b32 %r<8>; .reg .b64 %rd<8>;\n"
        "  .reg .f32 %f<4>; .reg .f64 %fd<4>; .reg .u32 %u<4>; .reg .s32 %s<4>;\n")


def module(body="", mod="", params=".param .u64 pp", version=VERSION, target=TARGET,
           head="", addr="64", regs=True, kname="k", linkage=".visible "):
    """A module with one kernel: MOD at module scope, BODY in the kernel."""
    out = [".version %s" % version, ".target %s" % target]
    if addr:
        out.append(".address_size %s" % addr)
    if mod:
        out.append(mod)
    out.append("%s.entry %s(%s)%s" % (linkage, kname, params, head))
    out.append("{")
    if regs:
        out.append(REGS.rstrip("\n"))
    if body:
        out.append(body)
    out.append("  ret;")
    out.append("}")
    return "\n".join(out) + "\n"


def arch_for(target):
    """The -arch ptxas needs for a .target line: the target itself where
    ptxas can generate code for it, sm_75 below that, sm_90a for names
    ptxas does not know (the verdict is then about the .target)."""
    t = target.split(",")[0].strip()
    t = t.replace("compute_", "sm_")
    m = re.fullmatch(r"sm_(\d+)([af]?)", t)
    known = {"75", "80", "86", "87", "88", "89", "90", "100", "103", "110", "120", "121"}
    if not m:
        return "sm_90a"
    num, suf = m.group(1), m.group(2)
    if num == "101":
        return "sm_110" + suf
    if int(num) < 75:
        return "sm_75"
    if num in known and (suf != "a" or num in {"90", "100", "103", "110", "120", "121"}):
        return "sm_" + num + suf
    return "sm_90a"


# ---------------------------------------------------------------- operands

INTS = ["0", "1", "-1", "42", "0x7f", "0X7F", "0x80000000", "0xffffffff", "0x100000000",
        "-0x80000000", "4294967296", "9223372036854775807", "18446744073709551615",
        "18446744073709551616", "1U", "0xffU", "1u", "017", "08", "0b101", "0B11", "0b102",
        "1L", "1ULL", "1 + 2", "(1<<4)-1", "3*4/2", "7%3", "~0", "!0", "-(-1)", "1?2:3",
        "1==1", "1<2", "1&&0", "1||0", "5&3", "5|2", "5^1", "8>>1", "(1)", "((1))", "1+",
        "(1", "2+*3", "-", "1 2", "0x", "1/0", "1%0", "(2)*(3)", "-2147483648",
        "+1", "1<<63", "(1<<32)", "0xFFFFFFFFFFFFFFFF", "-0", "0-1", "1>=1", "1!=2"]
FLOATS = ["1.0", "1.5", "-1.0", ".5", "1.", "1e3", "1.0e-3", "1E+2", "0f3F800000",
          "0F3f800000", "0f3F8000", "0d3FF0000000000000", "0D3FF0000000000000",
          "0d3FF00000", "1.0f", "0x1p3", "inf", "nan", "1.0+1.0", "-0f3F800000",
          "0f7F800000", "0fFFFFFFFF", "1e40", "1e-50", "2.0*3", "(1.0)", "-(1.5)",
          "0f3F800000+1", "1.0?2:3", "1e400"]
REGOPS = ["%r2", "%h2", "%rd2", "%f2", "%fd2", "%p2", "%u2", "%s2", "%r9", "%r", "%tid.x",
          "%tid", "%clock", "%laneid", "%r2.x", "-%r2", "!%p2", "~%r2", "{%r2}", "{%r2,%r3}",
          "g", "k", "L1", "sh", "pp", "%envreg3", "%clock64", "%ntid.y", "%tid.w",
          "%tid.r", "%ctaid.z", "%nctaid.x", "%smid", "%warpid", "%globaltimer", "%pm0",
          "%lanemask_eq", "%dynamic_smem_size", "%total_smem_size", "%clusterid.x",
          "%cluster_ctarank", "%gridid", "%nsmid", "%nwarpid", "%pm8", "%envreg32",
          "%tid.x.y", "%r2.b0", "%r2.h1", "_", "%"]

OPERAND_TEMPLATES = [
    "mov.b32 %r1, X;", "mov.s32 %r1, X;", "mov.b16 %h1, X;", "mov.b64 %rd1, X;",
    "mov.f32 %f1, X;", "mov.f64 %fd1, X;", "mov.pred %p1, X;", "add.s32 %r1, %r2, X;",
    "add.f32 %f1, %f2, X;", "setp.lt.s32 %p1, %r1, X;", "add.u64 %rd1, %rd2, X;",
]

STRUCT_OPERANDS = [
    # vectors
    "mov.b64 %rd1, {%r1,%r2};", "mov.b64 {%r1,%r2}, %rd1;", "mov.b64 {%r1,%r2,%r3}, %rd1;",
    "mov.b64 %rd1, {%r1};", "mov.b32 %r1, {%h1,%h2};", "mov.b32 {%h1,%h2}, %r1;",
    "mov.b64 {%h1,%h2,%h3,%h0}, %rd1;", "mov.b64 {%r1,_}, %rd1;", "mov.b64 {_,_}, %rd1;",
    "mov.b64 %rd1, {%r1,_};", "mov.b64 %rd1, {%r1,%h1};", "mov.b64 %rd1, {%r1 %r2};",
    "mov.b64 %rd1, {%r1,%r2,};", "mov.b64 %rd1, {};", "mov.b128 %rd1, {%rd1,%rd2};",
    "ld.global.v2.u32 {%r1,%r2}, [%rd1];", "ld.global.v2.u32 {%r1,%r2,%r3}, [%rd1];",
    "ld.global.v4.u32 {%r1,%r2,%r3,%r4}, [%rd1];", "ld.global.v4.u32 {%r1,%r2}, [%rd1];",
    "ld.global.v4.u32 {%r1,_,%r3,_}, [%rd1];", "ld.global.v2.u32 %rd2, [%rd1];",
    "ld.global.v8.u32 {%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7}, [%rd1];",
    "ld.global.v2.f64 {%fd1,%fd2}, [%rd1];", "ld.global.v2.u32 {%r1,%fd2}, [%rd1];",
    "st.global.v2.u32 [%rd1], {%r1,%r2};", "st.global.v2.u32 [%rd1], {%r1,1};",
    "st.global.v2.u32 [%rd1], {1,2};", "st.global.v4.u32 [%rd1], {%r1,%r2,%r3,_};",
    "st.global.v2.f32 [%rd1], {%f1,1.0};", "st.global.v2.f32 [%rd1], {%f1,0f3F800000};",
    "mov.v2.u32 {%r1,%r2}, {%r3,%r4};",
    # a|b
    "setp.eq.s32 %p1|%p2, %r1, %r2;", "setp.eq.s32 %p1|_, %r1, %r2;",
    "setp.eq.s32 _|%p2, %r1, %r2;", "setp.eq.s32 %r1|%p2, %r1, %r2;",
    "setp.eq.s32 %p1 | %p2, %r1, %r2;", "setp.eq.s32 %p1|%p2|%p3, %r1, %r2;",
    "setp.eq.and.s32 %p1|%p2, %r1, %r2, %p3;", "setp.eq.and.s32 %p1|%p2, %r1, %r2, !%p3;",
    "setp.eq.and.s32 %p1, %r1, %r2, !%p3;", "setp.eq.and.s32 %p1, %r1, %r2, !%r3;",
    "setp.eq.s32 %p1, !%r1, %r2;", "add.s32 %r1|%r2, %r1, %r2;",
    "set.eq.u32.s32 %r1, %r2, %r3;", "set.eq.and.u32.s32 %r1, %r2, %r3, !%p1;",
    # selectors
    "vadd.u32.u32.u32 %r1, %r2.b0, %r3.b1, %r4;", "vadd.u32.u32.u32 %r1, %r2.b3, %r3.b2, %r4;",
    "vadd.u32.u32.u32 %r1, %r2.h0, %r3.h1, %r4;", "vadd.u32.u32.u32 %r1, %r2.b4, %r3, %r4;",
    "vadd.u32.u32.u32 %r1, %r2.h2, %r3, %r4;", "vadd.u32.u32.u32 %r1, %r2.x, %r3, %r4;",
    "vadd.u32.u32.u32.add %r1, %r2.b0, %r3, %r4;", "vadd.u32.u32.u32 %r1.h0, %r2, %r3, %r4;",
    "vadd.u32.u32.u32 %r1.b0, %r2, %r3, %r4;", "vadd.u32.u32.u32 %r1, %r2.b0.b1, %r3, %r4;",
    "vadd.u32.u32.u32 %r1, %rd2.b0, %r3, %r4;",
    "vadd2.u32.u32.u32 %r1, %r2.h10, %r3.h01, %r4;",
    "vadd4.u32.u32.u32 %r1, %r2.b3210, %r3.b0123, %r4;",
    "vadd4.u32.u32.u32 %r1, %r2.b321, %r3, %r4;", "vadd4.u32.u32.u32 %r1, %r2.b3218, %r3, %r4;",
    "prmt.b32 %r1, %r2, %r3, 0x3210;", "mov.b32 %r1, %r2.b0;",
    # guards
    "@%p1 add.s32 %r1, %r2, 1;", "@!%p1 add.s32 %r1, %r2, 1;", "@%r1 add.s32 %r1, %r2, 1;",
    "@!%r1 add.s32 %r1, %r2, 1;", "@ %p1 add.s32 %r1, %r2, 1;", "@! %p1 add.s32 %r1, %r2, 1;",
    "@!!%p1 add.s32 %r1, %r2, 1;", "@%p9 add.s32 %r1, %r2, 1;", "@%p1 @%p2 add.s32 %r1, %r2, 1;",
    "@_ add.s32 %r1, %r2, 1;", "@1 add.s32 %r1, %r2, 1;", "@%p1 bra L1;",
    "@%tid.x add.s32 %r1, %r2, 1;",
    # negation and friends
    "neg.s32 %r1, -%r2;", "add.s32 %r1, -%r2, 1;", "not.pred %p1, !%p2;",
    "and.pred %p1, !%p2, %p3;", "or.pred %p1, %p2, !%p3;", "xor.pred %p1, !%p2, !%p3;",
    "selp.b32 %r1, %r2, %r3, !%p1;", "mov.pred %p1, !%p2;", "mov.b32 %r1, !%r2;",
    # sink and labels
    "mov.b32 _, %r1;", "add.s32 _, %r1, %r2;", "bra L1;", "bra.uni L1;", "bra L9;", "bra %r1;",
    "bra L1+4;", "mov.u64 %rd1, L1;", "mov.u64 %rd1, k;", "mov.u64 %rd1, g;", "mov.u32 %r1, g;",
    "mov.u64 %rd1, g+4;", "mov.u64 %rd1, g-4;", "mov.u64 %rd1, g+4+4;", "mov.u64 %rd1, g+%rd2;",
    "mov.u64 %rd1, 4+g;", "mov.u64 %rd1, sh;", "mov.u64 %rd1, pp;", "mov.u64 %rd1, g[1];",
    "mov.u64 %rd1, (g+4);", "mov.u64 %rd1, g+(2*4);", "mov.u64 %rd1, g+0x10;",
    "mov.u64 %rd1, -g;", "mov.u64 %rd1, g*2;",
]


def gen_operands(rng):
    mod = ".global .align 8 .b32 g[16];"
    for tmpl in OPERAND_TEMPLATES:
        for x in INTS + FLOATS + REGOPS:
            body = "  .shared .align 8 .b8 sh[64];\n  " + tmpl.replace("X", x) + "\nL1:"
            yield module(body, mod=mod)
    for stmt in STRUCT_OPERANDS:
        body = "  .shared .align 8 .b8 sh[64];\n  " + stmt + "\nL1:"
        yield module(body, mod=mod)


# ---------------------------------------------------------------- addresses

ADDR_FORMS = [
    "[%rd1]", "[%rd1+4]", "[%rd1-4]", "[%rd1+288+4]", "[%rd1+(4+4)]", "[%rd1+2*4]",
    "[%rd1+288*2+4]", "[%rd1+0x10]", "[%rd1+-4]", "[%rd1 + 4]", "[ %rd1 ]", "[4+%rd1]",
    "[%rd1+%rd2]", "[%rd1+%r2]", "[%rd1*2]", "[%rd1+4+]", "[%rd1++4]", "[%rd1+1?2:3]",
    "[%rd1+(1<<4)]", "[%rd1+~0]", "[%rd1+4-2]", "[%rd1-(2)]", "[%rd1+1.0]", "[%rd1+0f3F800000]",
    "[%rd1+0x7fffffff]", "[%rd1+0x80000000]", "[%rd1+-0x80000000]", "[%rd1+0xffffffffff]",
    "[%rd1+4U]", "[%rd1]+4", "[%rd1][4]", "[]", "[%rd1", "%rd1", "[[%rd1]]", "[(%rd1)]",
    "[%rd1+sym]",
    "[X]", "[X+4]", "[X-4]", "[X+4+4]", "[X+0+2560*0]", "[X+%r1]", "[X+%rd1]", "[X+(4*2)]",
    "[X+1]", "[X+1000000]", "[X+-8]", "[X-0x10]", "[4+X]", "[X+X]", "[X*2]", "[X[1]]",
    "[X+4][1]", "[X+Y]", "[X-Y]", "[X+0x1p2]",
    "[100]", "[0x100]", "[-4]", "[0]", "[1+2]", "[4*4]", "[0x100000000]", "[1.0]",
    "[%r1]", "[%r1+4]", "[%h1]", "[%f1]", "[%fd1]", "[%p1]", "[%rd9]", "[%tid.x]",
    "[k]", "[L1]", "[pp]", "[pp+8]", "[%clock64]",
]

SPACES = {
    # space: (instruction suffix, symbol, second symbol)
    "global": ("global", "g", "g2"),
    "shared": ("shared", "sh", "sh2"),
    "local": ("local", "lo", "lo2"),
    "const": ("const", "c", "c2"),
    "param": ("param", "pp", "pq"),
    "generic": ("", "g", "sh"),
}


def gen_addresses(rng):
    mod = (".global .align 8 .b32 g[16];\n.global .align 8 .b32 g2[16];\n"
           ".const .align 8 .b32 c[16];\n.const .align 8 .b32 c2[16];")
    decls = ("  .shared .align 8 .b8 sh[64];\n  .shared .align 8 .b8 sh2[64];\n"
             "  .local .align 8 .b8 lo[64];\n  .local .align 8 .b8 lo2[64];\n")
    params = ".param .u64 pp, .param .u64 pq"
    for space, (sfx, sym, sym2) in SPACES.items():
        for form in ADDR_FORMS:
            a = form.replace("X", sym).replace("Y", sym2)
            dot = "." + sfx if sfx else ""
            yield module(decls + "  ld%s.u32 %%r1, %s;\nL1:" % (dot, a), mod=mod, params=params)
            if space not in ("const", "param"):
                yield module(decls + "  st%s.u32 %s, %%r1;\nL1:" % (dot, a), mod=mod, params=params)
    # other instructions that take an address
    for form in ["[%rd1]", "[%rd1+8]", "[g]", "[g+8]", "[sh+4]", "[%rd1+4+4]", "[g+4*2]", "[%r1]"]:
        for stmt in ["atom.global.add.u32 %%r1, %s, 1;", "atom.shared.add.u32 %%r1, %s, 1;",
                     "red.global.add.u32 %s, 1;", "prefetch.global.L2 %s;",
                     "ld.volatile.global.u32 %%r1, %s;", "cvta.to.global.u64 %%rd1, %s;",
                     "ld.global.nc.u32 %%r1, %s;", "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 %s, %%r1, [%%r2];",
                     "cp.async.ca.shared.global %s, [%%rd2], 4;", "mbarrier.init.shared.b64 %s, 1;",
                     "isspacep.global %%p1, %s;", "ldu.global.u32 %%r1, %s;"]:
            yield module(decls + "  " + stmt % form + "\nL1:", mod=mod, params=params)
    # 32-bit addressing
    for form in ["[%r1]", "[%rd1]", "[g]", "[%r1+4]", "[sh]", "[100]"]:
        for stmt in ["ld.global.u32 %%r2, %s;", "ld.shared.u32 %%r2, %s;", "ld.u32 %%r2, %s;"]:
            yield module(decls + "  " + stmt % form, mod=mod, params=".param .u32 pp, .param .u32 pq",
                         addr="32")
    # cvta and mov of addresses of every space
    for space in ["global", "shared", "local", "const", "param"]:
        for sym in ["g", "sh", "lo", "c", "pp"]:
            for w in ["u64", "u32"]:
                reg = "%rd1" if w == "u64" else "%r1"
                yield module(decls + "  cvta.%s.%s %s, %s;" % (space, w, reg, sym), mod=mod,
                             params=params)
                yield module(decls + "  cvta.to.%s.%s %s, %s;" % (space, w, reg, sym), mod=mod,
                             params=params)


# ------------------------------------------------------------ declarations

DECL_SPACES = [".global", ".shared", ".const", ".local", ".param", ".reg", ".tex", ".sreg"]
DECL_TYPES = [".b8", ".b16", ".b32", ".b64", ".u8", ".s8", ".u16", ".u32", ".s64", ".f16",
              ".f32", ".f64", ".pred", ".bf16", ".f16x2", ".e4m3", ".b128", ".u128", ".texref",
              ".samplerref", ".surfref", ".s128"]
ALIGNS = ["", ".align 1 ", ".align 2 ", ".align 4 ", ".align 8 ", ".align 16 ", ".align 3 ",
          ".align 0 ", ".align 256 ", ".align 128 ", ".align 0x10 ", ".align 4 .align 8 "]
VECS = ["", ".v2 ", ".v4 ", ".v8 ", ".v3 ", ".v2 .v2 "]
ARRAYS = ["", "[4]", "[]", "[2][3]", "[0]", "[1]", "[2][]", "[0x10]", "[-1]", "[4", "[1+3]",
          "[4][2][2]"]
INITS = ["", " = 1", " = {1,2}", " = {1,2,3,4}", " = {1,2,3,4,5}", " = {{1,2},{3,4}}",
         " = {{1,2,3},{4,5,6}}", " = 1.0", " = 0f3F800000", " = {1.0, 2.0}", " = -1",
         " = 0xffffffffff", " = generic(g0)", " = mask(0xff, g0)", " = g0", " = g0+4",
         " = {g0, g0+4}", " = {generic(g0), 0}", " = k", " = {1,}", " = {}", " = 300",
         " = {1, {2}}", " = 1+2*3", " = mask(0xff00, g0)", " = generic(g0)+4",
         " = {mask(0xff, g0), mask(0xff00, g0)}", " = (g0)", " = g0-4", " = 2*g0", " = ~0",
         " = -0.5", " = 0d3FF0000000000000", " = \"str\""]
ATTRS = ["", ".attribute(.managed) ", ".attribute(.unified(1,2)) ", ".attribute(.foo) "]
LINKS = ["", ".visible ", ".extern ", ".weak ", ".common ", ".static "]


def gen_declarations(rng):
    base = ".global .align 8 .b64 g0[4];"
    seen = 0
    # a fixed core: every space x type at module scope and in the body
    for sp in DECL_SPACES:
        for ty in DECL_TYPES:
            d = "%s %s v[4];" % (sp, ty)
            yield module("  " + d + "\n", mod=base)
            yield module(body="", mod=base + "\n" + d)
    # every initializer on the common types
    for ty in [".b32", ".u8", ".f32", ".b64"]:
        for arr in ["", "[4]", "[]"]:
            for ini in INITS:
                sp = rng.choice([".global", ".const"])
                yield module(mod=base + "\n%s .align 8 %s v%s%s;" % (sp, ty, arr, ini))
                yield module("  .shared %s v%s%s;\n" % (ty, arr, ini), mod=base)
    # samples of the whole product
    while seen < 500:
        seen += 1
        sp = rng.choice([".global", ".shared", ".const", ".local", ".global", ".shared"])
        scope = rng.choice(["module", "body"])
        link = rng.choice(LINKS) if scope == "module" and rng.random() < 0.4 else ""
        attr = rng.choice(ATTRS) if rng.random() < 0.15 else ""
        al = rng.choice(ALIGNS)
        vec = rng.choice(VECS) if rng.random() < 0.4 else ""
        ty = rng.choice(DECL_TYPES[:16])
        arr = rng.choice(ARRAYS)
        ini = rng.choice(INITS) if rng.random() < 0.5 else ""
        parts = [link + attr + sp, al + vec + ty]
        if rng.random() < 0.1:
            rng.shuffle(parts)
        d = " ".join(p.strip() for p in parts if p.strip()) + " v" + arr + ini + ";"
        if scope == "module":
            yield module(mod=base + "\n" + d)
        else:
            yield module("  " + d + "\n", mod=base)
    # registers: ranges and lists
    for d in [".reg .b32 a<4>;", ".reg .b32 a<0>;", ".reg .b32 a<100000>;", ".reg .b32 a, b, c;",
              ".reg .b32 a<4>, b<2>;", ".reg .v2 .b32 a;", ".reg .v4 .f32 a<2>;", ".reg .b32 a[4];",
              ".reg .b32 a = 1;", ".reg .align 8 .b32 a;", ".reg .b32 %r<4>;", ".reg .b32 %x<3>;",
              ".reg .b32 a<-1>;", ".reg .b32 a<1+1>;", ".reg .pred a<2>;", ".reg .b8 a;",
              ".reg .f16x2 a;", ".reg .b128 a;", ".reg .b32 a<0x10>;", ".reg .b32 a<4>, a<4>;",
              ".reg .b32 %r1;", ".reg .b32 a<4>; .reg .b32 a2;", ".reg .v8 .b32 a;",
              ".reg .v2 .pred a;", ".reg .v2 .b64 a;", ".reg .v4 .b64 a;", ".reg .v4 .f64 a;",
              ".reg .b32 $a;", ".reg .b32 _a;", ".reg .b32 a$;", ".reg .b32 1a;", ".reg .b32 a.b;",
              ".reg .b32 %;", ".reg .b32 a<>;", ".reg .b32 a <4>;"]:
        yield module("  " + d + "\n", regs=True)
    # .local at module scope, legacy
    for v in ["1.4", "2.0", "3.0", "3.1", "4.0", "7.0", "9.0"]:
        for d in [".local .b32 l;", ".local .b32 l[4];", ".shared .b32 s;", ".global .b32 g = 1;"]:
            yield module(mod=d, version=v, target="sm_20" if v < "3" else "sm_75")


# ------------------------------------------------------------- parameters

PARAM_FORMS = [
    ".param .u64 p", ".param .u32 p", ".param .b8 p", ".param .f16 p", ".param .f32 p",
    ".param .pred p", ".param .b128 p", ".param .f16x2 p", ".param .bf16 p", ".param .v2 .u32 p",
    ".param .u64 .ptr .global p", ".param .u64 .ptr .global .align 16 p",
    ".param .u64 .ptr .align 8 p", ".param .u64 .ptr .shared p", ".param .u64 .ptr .local p",
    ".param .u64 .ptr .const p", ".param .u64 .ptr .const .align 4 p",
    ".param .u32 .ptr .global p", ".param .u64 .ptr .param p", ".param .u64 .ptr .generic p",
    ".param .u64 .ptr p", ".param .u64 .ptr .align 3 p", ".param .u64 .ptr .align 0 p",
    ".param .u64 .ptr .global .global p", ".param .u64 .ptr .ptr p",
    ".param .align 8 .b8 p[16]", ".param .align 64 .b8 p[128]", ".param .b8 p[16]",
    ".param .align 3 .b8 p[16]", ".param .align 8 .b8 p[]", ".param .u32 p[4]",
    ".param .u32 p[2][2]", ".param .align 16 .u32 p[4]",
    ".hidden .param .align 64 .b8 p[128]", ".hidden .param .u64 p", ".param .hidden .u64 p",
    ".param .u64 .hidden p", ".reg .u32 p", ".reg .u64 p", ".param .texref p",
    ".param .samplerref p", ".param .surfref p", ".param .u64 .ptr .global .align 16 .hidden p",
    ".visible .param .u64 p", ".extern .param .u64 p", ".param .u64 p = 1", ".local .u64 p",
    ".shared .u64 p", ".param .u64", ".param p", ".param .u64 p, ", ".param .align 8 .u64 p",
    ".param .align 8 .align 8 .u64 p", ".param .v4 .f32 p", ".param .v2 .f64 p",
    ".param .v8 .u32 p", ".param .u64 .ptr.global p", ".param .attribute(.managed) .u64 p",
    ".param .u8 p", ".param .s8 p", ".param .s16 p", ".param .b16 p", ".param .e4m3 p",
    ".param .u64 %p", ".param .u64 p<4>", ".param .b32 p[0]",
]


def gen_parameters(rng):
    for pf in PARAM_FORMS:
        # kernel parameters
        yield module(params=pf)
        yield module(params=".param .u64 a, " + pf)
        yield module(params=pf + ", .param .u32 b")
        # function parameters, in and out
        for fn in [".func f(%s)\n{\n  ret;\n}", ".func (%s) f()\n{\n  ret;\n}",
                   ".func f(.param .u32 a, %s)\n{\n  ret;\n}"]:
            yield module(mod=fn % pf)
    # the kernel parameter space: sizes and counts
    for n in [4096, 4095, 4097, 32764, 32765, 32768, 32760, 65536, 8192]:
        yield module(params=".param .align 4 .b8 p[%d]" % n)
        yield module(params=".param .align 4 .b8 p[%d], .param .u32 q" % n)
    for count in [1, 255, 256, 512, 1024, 1025]:
        ps = ", ".join(".param .u32 p%d" % i for i in range(count))
        yield module(params=ps)
    for n in [4096, 32764, 65536]:
        yield module(mod=".func f(.param .align 4 .b8 p[%d])\n{\n  ret;\n}" % n)
    # reading parameters
    for pf, use in [(".param .u64 p", "ld.param.u64 %rd1, [p];"),
                    (".param .u64 p", "ld.param.u32 %r1, [p];"),
                    (".param .u64 p", "ld.param.u64 %rd1, [p+8];"),
                    (".param .u64 p", "st.param.u64 [p], %rd1;"),
                    (".param .u64 p", "mov.u64 %rd1, p;"),
                    (".param .u64 p", "ld.param.u64 %rd1, [%rd2];"),
                    (".param .u64 p", "ld.u64 %rd1, [p];"),
                    (".param .u64 p", "ld.global.u64 %rd1, [p];"),
                    (".param .align 8 .b8 p[16]", "ld.param.u64 %rd1, [p+8];"),
                    (".param .align 8 .b8 p[16]", "ld.param.v2.u64 {%rd1,%rd2}, [p];"),
                    (".param .align 8 .b8 p[16]", "ld.param.u64 %rd1, [p+16];"),
                    (".param .u32 p[4]", "ld.param.u32 %r1, [p+12];"),
                    (".param .u64 .ptr .global .align 16 p", "ld.param.u64 %rd1, [p];"),
                    (".param .u64 p", "cvta.param.u64 %rd1, p;"),
                    (".param .u64 p", "ld.param::entry.u64 %rd1, [p];"),
                    (".param .u64 p", "ld.param::func.u64 %rd1, [p];")]:
        yield module(use, params=pf)


# -------------------------------------------------------- function headers

def gen_functions(rng):
    links = ["", ".visible ", ".extern ", ".weak ", ".common ", ".static ", ".hidden ",
             ".visible .visible ", ".extern .visible "]
    for link in links:
        for kind in ["func", "entry"]:
            for defined in [True, False]:
                body = "\n{\n  ret;\n}" if defined else ";"
                params = "(.param .u32 a)"
                yield module(mod="%s.%s f%s%s" % (link, kind, params, body))
    heads = ["", " .noreturn", " .abi_preserve 8", " .abi_preserve_control 4",
             " .noreturn .abi_preserve 8", " .abi_preserve 8 .noreturn",
             " .abi_preserve 8 .abi_preserve_control 4", " .abi_preserve_control 4 .abi_preserve 8",
             " .abi_preserve 0", " .abi_preserve 255", " .abi_preserve 256", " .abi_preserve -1",
             " .abi_preserve_control 0", " .abi_preserve_control 14", " .abi_preserve_control 15",
             " .abi_preserve_control 16", " .abi_preserve", " .noreturn .noreturn",
             " .abi_preserve 8 .abi_preserve 8", " .abi_preserve 1.0",
             " .attribute(.unified(1,2))", " .attribute(.managed)", " .maxnreg 32",
             " .pragma \"nounroll\";", " .abi_preserve 24", " .abi_preserve 32",
             " .abi_preserve_control 8", " .abi_preserve 0x10"]
    for head in heads:
        for ret in ["", "(.param .u32 r) "]:
            for v, t in [("9.0", "sm_90a"), ("8.8", "sm_90a"), ("9.0", "sm_75"), ("9.0", "sm_80"),
                         ("9.0", "sm_100a"), ("8.0", "sm_90")]:
                f = ".func %sf(.param .u32 a)%s\n{\n  ret;\n}" % (ret, head)
                body = "  call %sf, (1);" % ("(%r1), " if ret else "")
                if ret:
                    body = "  {\n  .param .u32 rr;\n  call (rr), f, (1);\n  }"
                yield module(body, mod=f, version=v, target=t)
            # on a declaration, then a definition
            yield module(mod=".func %sf(.param .u32 a)%s;\n.func %sf(.param .u32 a)%s\n{\n  ret;\n}"
                         % (ret, head, ret, head))
            # on a prototype
            yield module("  proto: .callprototype %s_ (.param .u32 a)%s;" % (ret, head))
    # entries with function headers they may not have
    for head in [" .noreturn", " .abi_preserve 8", " .attribute(.managed)"]:
        yield module(head=head)
    # prototypes and indirect calls
    protos = ["proto: .callprototype _ (.param .u32 a);",
              "proto: .callprototype (.param .u32 r) _ (.param .u32 a);",
              "proto: .callprototype _ ();", "proto: .callprototype _ ;",
              "proto: .callprototype _ (.param .u32 a, .param .b8 b[8]);",
              "proto: .callprototype _ (.param .u32 a) .noreturn;",
              "proto: .callprototype (.param .u32 r) _ (.param .u32 a) .noreturn;",
              "proto: .callprototype f (.param .u32 a);", "proto: .callprototype (.param .u32 a);",
              ".callprototype _ (.param .u32 a);", "proto: .callprototype _ (.reg .u32 a);",
              "proto: .callprototype _ (.param .u32 a[]);", "proto: .callprototype _ (.param .u32);",
              "proto: .callprototype _ (.param .u32 a, .param .u32 a);"]
    for p in protos:
        yield module("  " + p)
        yield module("  mov.u64 %%rd1, f;\n  %s\n  call %%rd1, (1), proto;" % p,
                     mod=".func f(.param .u32 a)\n{\n  ret;\n}")
    # calls
    calls = ["call f, (1);", "call f, (%r1);", "call f;", "call f, ();", "call f, (1, 2);",
             "call.uni f, (1);", "call (%r1), f, (1);", "call f, (%rd1);", "call f (1);",
             "call f, (1),;", "call g, (1);", "call k, (1);", "call f, (pp);", "call f, (1.0);",
             "call %rd1, (1);", "call %rd1, (1), proto;", "call %rd1, (1), ft;",
             "call f, (1), ft;", "call (), f, (1);", "call f, ((1));"]
    for c in calls:
        for ret in ["", "(.param .u32 r) "]:
            mod = ".func %sf(.param .u32 a)\n{\n  ret;\n}\n.global .u32 g;" % ret
            yield module("  ft: .calltargets f;\n  " + c, mod=mod)
    # directive order in a function header
    for order in [".noreturn .abi_preserve 8 .abi_preserve_control 4",
                  ".abi_preserve_control 4 .noreturn", ".abi_preserve_control 4 .abi_preserve 8 .noreturn"]:
        yield module(mod=".func f()%s\n{\n  ret;\n}" % (" " + order))
    # recursion, redefinition, forward use
    yield module("  call f, (1);", mod=".func f(.param .u32 a);")
    yield module("  call f, (1);", mod=".func f(.param .u32 a)\n{\n  ret;\n}\n.func f(.param .u32 a)\n{\n  ret;\n}")
    yield module("  call f, (1);", mod=".func f(.param .u32 a);\n.func f(.param .u32 b)\n{\n  ret;\n}")
    yield module("  call f, (1);", mod=".func f(.param .u32 a);\n.func f(.param .u64 a)\n{\n  ret;\n}")
    yield module("  call f, (1);", mod=".func f(.param .u32 a);\n.func (.param .u32 r) f(.param .u32 a)\n{\n  ret;\n}")
    yield module(mod=".func f()\n{\n  call f;\n  ret;\n}")
    yield module(mod=".func f()\n{\n  call g;\n  ret;\n}\n.func g()\n{\n  ret;\n}")
    yield module(mod=".func f()\n{\n  call k;\n  ret;\n}")
    yield module(mod=".func k()\n{\n  ret;\n}")
    yield module(mod=".entry k2()\n{\n  ret;\n}\n.entry k2()\n{\n  ret;\n}")


# ------------------------------------------------------------- directives

VERSIONS = ["1.0", "1.4", "2.0", "2.1", "2.2", "2.3", "3.0", "3.1", "3.2", "4.0", "4.1", "4.2",
            "4.3", "5.0", "6.0", "6.3", "6.4", "7.0", "7.4", "7.8", "8.0", "8.3", "8.6", "8.7",
            "8.8", "9.0", "9.1", "10.0", "9.00", "09.0", "9", "9.0.0", "1.5", "6.5", "7.2", "7.3",
            "7.5", "7.6", "7.7", "8.1", "8.2", "8.4", "8.5", "0.9", "2.4", "3.3"]
TARGETS = ["sm_10", "sm_11", "sm_12", "sm_13", "sm_20", "sm_21", "sm_30", "sm_32", "sm_35",
           "sm_37", "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72",
           "sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_90a", "sm_100",
           "sm_100a", "sm_100f", "sm_101", "sm_101a", "sm_101f", "sm_103", "sm_103a",
           "sm_103f", "sm_110", "sm_110a", "sm_110f", "sm_120", "sm_120a", "sm_120f", "sm_121",
           "sm_121a", "sm_121f", "sm_91", "sm_99", "sm_75a", "sm_80a", "sm_89a", "sm_90f",
           "compute_90", "compute_75", "sm_130", "sm_900", "SM_90", "sm90", "sm_"]
TARGET_OPTS = ["", ", texmode_unified", ", texmode_independent", ", debug", ", map_f64_to_f32",
               ", texmode_unified, texmode_independent", ", texmode_unified, debug", ", foo",
               " texmode_unified", ", sm_80", ","]

ENTRY_DIRS = [
    ".maxnreg 32", ".maxnreg 0", ".maxnreg 1", ".maxnreg 255", ".maxnreg 256", ".maxnreg 16",
    ".maxnreg 24", ".maxnreg 65536", ".maxnreg -1", ".maxnreg 32, 32", ".maxnreg",
    ".maxntid 256", ".maxntid 256, 1", ".maxntid 256, 1, 1", ".maxntid 0", ".maxntid 1024",
    ".maxntid 1025", ".maxntid 32, 32", ".maxntid 32, 33", ".maxntid 1, 1, 64",
    ".maxntid 1, 1, 65", ".maxntid 1, 1, 1, 1", ".maxntid 0x100", ".maxntid 256,", ".maxntid",
    ".reqntid 256", ".reqntid 256, 1", ".reqntid 256, 1, 1", ".reqntid 0", ".reqntid 1024",
    ".reqntid 1025", ".reqntid 32, 33", ".reqntid 1, 1, 65", ".reqntid 2048, 1, 1",
    ".minnctapersm 1", ".minnctapersm 0", ".minnctapersm 32", ".minnctapersm 33",
    ".minnctapersm 64", ".minnctapersm 1000", ".maxnctapersm 1",
    ".maxntid 256 .reqntid 256", ".maxntid 256 .minnctapersm 2", ".maxnreg 32 .maxntid 256",
    ".maxntid 256 .maxntid 256", ".reqntid 256 .reqntid 256", ".minnctapersm 2 .maxntid 256",
    ".minnctapersm 2", ".maxnreg 32 .minnctapersm 4",
    ".reqnctapercluster 2", ".reqnctapercluster 2, 1, 1", ".reqnctapercluster 0",
    ".reqnctapercluster 8", ".reqnctapercluster 16", ".reqnctapercluster 17",
    ".reqnctapercluster 2, 2, 2", ".reqnctapercluster 4, 4", ".explicitcluster",
    ".explicitcluster 1", ".maxclusterrank 8", ".maxclusterrank 0", ".maxclusterrank 16",
    ".maxclusterrank 17", ".maxclusterrank 8 .reqnctapercluster 2",
    ".explicitcluster .reqnctapercluster 2", ".explicitcluster .maxclusterrank 8",
    ".reqntid 128 .reqnctapercluster 2 .blocksareclusters", ".blocksareclusters",
    ".reqntid 128 .blocksareclusters", ".reqnctapercluster 2 .blocksareclusters",
    ".blocksareclusters .reqntid 128 .reqnctapercluster 2", ".noreturn",
    ".pragma \"nounroll\";", ".pragma \"enable_smem_spilling\";",
    ".maxntid 32 .reqntid 32", ".reqntid 32 .maxntid 64",
    ".reqntid 1024 .minnctapersm 2", ".maxntid 1024 .minnctapersm 2",
    ".maxntid 1024 .minnctapersm 3", ".maxnreg 255 .maxntid 1024",
]
GATE_VERSIONS = ["1.2", "1.3", "1.4", "2.0", "2.1", "3.0", "3.1", "6.3", "6.4", "7.7", "7.8",
                 "8.0", "8.6", "8.8", "9.0"]
GATE_TARGETS = ["sm_20", "sm_30", "sm_75", "sm_80", "sm_89", "sm_90", "sm_90a", "sm_100a"]


def gen_directives(rng):
    # .version x .target, a sample of the product with every value present
    for v in VERSIONS:
        for t in ["sm_90a", "sm_75", "sm_20", "sm_10"]:
            yield module(version=v, target=t)
    for t in TARGETS:
        for v in ["9.0", "8.8", "8.6", "7.8", "7.4", "7.3", "7.2", "6.3", "2.0"]:
            yield module(version=v, target=t)
    for t in ["sm_90a", "sm_20", "sm_13"]:
        for o in TARGET_OPTS:
            for v in ["9.0", "1.4", "3.0", "2.0"]:
                yield module(version=v, target=t + o)
    # .address_size
    for a in ["64", "32", "16", "48", "", "0x40", "64 64"]:
        for v in ["9.0", "2.3", "2.2", "7.0"]:
            yield module(version=v, target="sm_75" if v > "3" else "sm_20", addr=a)
    # header order
    yield ".target sm_90a\n.version 9.0\n.address_size 64\n.visible .entry k()\n{\n  ret;\n}\n"
    yield ".version 9.0\n.address_size 64\n.target sm_90a\n.visible .entry k()\n{\n  ret;\n}\n"
    yield ".version 9.0\n.version 9.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n  ret;\n}\n"
    yield ".version 9.0\n.target sm_90a\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n  ret;\n}\n"
    yield ".version 9.0\n.target sm_90a\n.address_size 64\n.address_size 64\n.visible .entry k()\n{\n  ret;\n}\n"
    yield ".version 9.0\n.target sm_90a\n.visible .entry k()\n{\n  ret;\n}\n.address_size 64\n"
    yield ".version 9.0\n.target sm_90a\n.address_size 64\n"
    yield ".version 9.0\n.target sm_90a\n.address_size 64\n.version 9.0\n"
    yield ".version 9.0\n.target sm_80\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n  ret;\n}\n"
    # entry directives at several versions and targets
    for d in ENTRY_DIRS:
        yield module(head="\n" + d)
        for v in GATE_VERSIONS:
            for t in GATE_TARGETS:
                if rng.random() < 0.05:
                    yield module(head="\n" + d, version=v, target=t,
                                 regs=v >= "1.4")
        # on a function, on a declaration
        yield module(mod=".func f()\n%s\n{\n  ret;\n}" % d)
        yield module(mod=".visible .entry e2()\n%s;" % d)
    # .alias
    for a in [".alias f2, f;", ".alias f, f2;", ".alias f2, g;", ".alias f2, f3;", ".alias f2, k;",
              ".alias f2 f;", ".alias f2, f, f;"]:
        for v, t in [("9.0", "sm_90a"), ("6.3", "sm_30"), ("6.2", "sm_30"), ("6.3", "sm_20")]:
            mod = ".global .u32 g;\n.visible .func f()\n{\n  ret;\n}\n.visible .func f2();\n" + a
            yield module(mod=mod, version=v, target=t)
    # .branchtargets, .calltargets
    for stmt in ["bt: .branchtargets L1, L2;\n  brx.idx %r1, bt;",
                 "bt: .branchtargets L1, L9;\n  brx.idx %r1, bt;",
                 "bt: .branchtargets L1;\n  brx.idx %r1, bt;",
                 "bt: .branchtargets;\n  brx.idx %r1, bt;",
                 "bt: .branchtargets L1, L2\n  brx.idx %r1, bt;",
                 ".branchtargets L1, L2;", "bt: .branchtargets L1, %r1;\n  brx.idx %r1, bt;",
                 "brx.idx %r1, L1;", "bt: .calltargets f;", "bt: .calltargets f, k;",
                 "bt: .calltargets L1;", "bt: .calltargets;", ".calltargets f;"]:
        for v, t in [("9.0", "sm_90a"), ("2.1", "sm_20"), ("2.0", "sm_20"), ("6.0", "sm_60")]:
            body = "  " + stmt + "\nL1:\n  add.s32 %r1, %r1, 1;\nL2:"
            yield module(body, mod=".func f()\n{\n  ret;\n}", version=v, target=t)


# --------------------------------------------------- pragma, section, file, loc

def gen_debug(rng):
    pragmas = ['"nounroll"', '"nounroll", "nounroll"', '"used_bytes_mask 0xfff"',
               '"enable_smem_spilling"', '"frequency 32"', '"next knob FenceCode"', '"foo"',
               '""', 'nounroll', '"nounroll";', '"nounroll" "x"', '"NOUNROLL"', '"nounroll "',
               '"frequency"', '"frequency -1"', '"used_bytes_mask"', '"used_bytes_mask 0x1ffff"',
               '"nounroll", 1', '"a\\"b"']
    for p in pragmas:
        yield module(mod=".pragma %s;" % p)
        yield module(head="\n.pragma %s;" % p)
        yield module("  .pragma %s;\n  ld.global.u32 %%r1, [%%rd1];" % p)
        yield module("L0:\n  .pragma %s;\n  add.s32 %%r1, %%r1, 1;\n  @%%p1 bra L0;" % p)
        for v, t in [("2.0", "sm_20"), ("1.4", "sm_13"), ("8.2", "sm_75"), ("8.3", "sm_75"),
                     ("8.8", "sm_90"), ("9.0", "sm_75")]:
            yield module("  .pragma %s;\n  ld.global.u32 %%r1, [%%rd1];" % p, version=v, target=t,
                         regs=True)
        yield module(mod=".pragma %s" % p)
    files = ['.file 1 "a.cu"', '.file 1 "a.cu", 1600000000, 100', '.file 1 "a.cu", 0, 0',
             '.file 0 "a.cu"', '.file -1 "a.cu"', '.file 1 a.cu', '.file 1', '.file "a.cu"',
             '.file 1 "a.cu"\n.file 1 "b.cu"', '.file 1 "a.cu"\n.file 2 "a.cu"',
             '.file 1 "a.cu", 1600000000', '.file 1 "a.cu",', '.file 4294967296 "a.cu"',
             '.file 2 "a.cu"', '.file 1 ""', '.file 1 "a.cu" 1, 2']
    locs = [".loc 1 1 1", ".loc 1 1 0", ".loc 1 0 0", ".loc 1 1", ".loc 1", ".loc",
            ".loc 2 1 1", ".loc 0 1 1", ".loc 1 -1 1", ".loc 1 1 1, function_name fn",
            ".loc 1 1 1, function_name fn+1, inlined_at 1 2 3",
            ".loc 1 1 1, inlined_at 1 2 3", ".loc 1 1 1, function_name L1",
            ".loc 1 1 1 function_name fn", ".loc 1 1 1,", ".loc 1 4294967296 1",
            ".loc 1 1 1, foo 1", ".loc 1 1 1, function_name fn, inlined_at 1 2",
            ".loc 1 0x10 1", ".loc 1 1 1.0", ".loc a 1 1"]
    for f in files:
        yield module(mod=f)
        yield module("  " + f.split("\n")[0])
        for v in ["3.1", "3.2", "1.4", "7.1", "7.2", "9.0"]:
            if rng.random() < 0.4:
                yield module(mod=f, version=v, target="sm_75" if v > "3" else "sm_20")
    for loc in locs:
        for f in ['.file 1 "a.cu"', ""]:
            yield module("  " + loc + "\n  add.s32 %r1, %r1, 1;\nL1:", mod=f)
        yield module(mod='.file 1 "a.cu"\n.func f()\n{\n  %s\n  ret;\n}' % loc)
        yield module(mod='.file 1 "a.cu"\n' + loc)
        for v in ["7.1", "7.2", "9.0"]:
            yield module("  " + loc + "\n  add.s32 %r1, %r1, 1;", mod='.file 1 "a.cu"', version=v,
                         target="sm_75")
    sections = [
        ".section .debug_abbrev\n{\n.b8 1\n.b8 0\n}",
        ".section .debug_abbrev\n{\n.b8 1, 2, 3\n.b16 4\n.b32 5\n.b64 6\n}",
        ".section .debug_info\n{\n.b32 1\n.b8 -1\n.b16 -2\n}",
        ".section .debug_info\n{\nL0:\n.b32 L0\n}",
        ".section .debug_info\n{\n.b32 .debug_abbrev\n}",
        ".section .debug_info\n{\n.b64 g\n}",
        ".section .debug_info\n{\n.b64 g+4\n}",
        ".section .debug_info\n{\n.byte 1\n.4byte 2\n.quad 3\n}",
        ".section .debug_info\n{\n.2byte 1\n}", ".section .debug_info\n{\n.half 1\n}",
        ".section .debug_info\n{\n.word 1\n}", ".section .debug_info\n{\n.8byte 1\n}",
        ".section .debug_info\n{\n}", ".section .debug_info {}",
        ".section .debug_info\n{\n.b8 1,\n}", ".section .debug_info\n{\n.b8 1 2\n}",
        ".section .debug_info\n{\n.b32 1.0\n}", ".section .debug_info\n{\n.b8 256\n}",
        ".section .debug_info\n{\n.b8 \"str\"\n}", ".section .debug_info\n{\n.b32 unknownsym\n}",
        ".section .debug_str\n{\nfn:\n.b8 102,110,0\n}",
        ".section foo\n{\n.b8 1\n}", ".section .text\n{\n.b8 1\n}", ".section\n{\n.b8 1\n}",
        ".section .debug_info\n{\n.b8 1\n", ".section .debug_info\n{\n.b8 1;\n}",
        ".section .debug_loc\n{\n.b64 0\n}", ".section .debug_line\n{\n.b32 0\n}",
        ".section .debug_info\n{\n.u8 1\n}", ".section .debug_info\n{\n.b128 1\n}",
    ]
    for s in sections:
        yield module(mod='.global .u32 g;\n' + s)
        yield module(mod='.global .u32 g;\n' + s, version="2.0", target="sm_20")
        yield module(mod='.global .u32 g;\n' + s, target="sm_90a, debug")
    # the debug_str function_name case
    yield module('  .loc 1 1 1, function_name fn, inlined_at 1 2 3\n  add.s32 %r1, %r1, 1;',
                 mod='.file 1 "a.cu"\n.section .debug_str\n{\nfn:\n.b8 102,110,0\n}')


# ------------------------------------------------------------------ linking

def gen_linking(rng):
    var_forms = ["", ".visible ", ".extern ", ".weak ", ".common "]
    for a in var_forms:
        for b in var_forms + [None]:
            for init_a in ["", " = 1"]:
                for arr in ["", "[4]"]:
                    d1 = "%s.global .u32 v%s%s;" % (a, arr, init_a if not arr else (" = {1,2,3,4}" if init_a else ""))
                    mods = [d1] if b is None else [d1, "%s.global .u32 v%s;" % (b, arr)]
                    use = "  ld.global.u32 %r1, [v];"
                    yield module(use, mod="\n".join(mods))
                    yield module("", mod="\n".join(mods))
    # sizes and types differing between declarations
    for d in [".extern .global .u32 v[4];\n.global .u32 v[8];",
              ".extern .global .u32 v[];\n.global .u32 v[8];",
              ".extern .global .u32 v;\n.global .u64 v;",
              ".common .global .u32 v[4];\n.common .global .u32 v[8];",
              ".weak .global .u32 v[4];\n.weak .global .u32 v[8];",
              ".extern .global .u32 v;\n.shared .u32 v;",
              ".extern .shared .u32 v[];", ".extern .shared .align 16 .b8 v[];",
              ".extern .shared .u32 v[4];", ".extern .const .u32 v;", ".extern .local .u32 v;",
              ".weak .shared .u32 v;", ".common .shared .u32 v;", ".common .const .u32 v;",
              ".visible .shared .u32 v;", ".visible .const .u32 v = 1;", ".weak .const .u32 v = 1;",
              ".common .global .u32 v = 1;", ".extern .global .u32 v = 1;",
              ".visible .local .u32 v;", ".extern .global .u32 v;\n.extern .global .u32 v;"]:
        yield module("  ld.global.u32 %r1, [v];", mod=d)
        yield module("", mod=d)
    for v, t in [("3.0", "sm_20"), ("3.1", "sm_20"), ("4.3", "sm_20"), ("5.0", "sm_20"),
                 ("5.0", "sm_13"), ("9.0", "sm_75")]:
        for d in [".weak .global .u32 v;", ".common .global .u32 v;", ".weak .func f()\n{\n  ret;\n}",
                  ".extern .global .u32 v;", ".visible .global .u32 v;"]:
            yield module(mod=d, version=v, target=t)
    # functions
    ffs = [".func f()\n{\n  ret;\n}", ".func f();", ".extern .func f();", ".weak .func f();",
           ".weak .func f()\n{\n  ret;\n}", ".visible .func f()\n{\n  ret;\n}", ".visible .func f();",
           ".extern .func f()\n{\n  ret;\n}"]
    for a in ffs:
        for b in ffs + [None]:
            mods = a if b is None else a + "\n" + b
            yield module("  call f;", mod=mods)
            yield module("", mod=mods)
    # kernels: extern, weak, declared
    for d in [".extern .entry e();", ".weak .entry e()\n{\n  ret;\n}", ".entry e();",
              ".visible .entry e();", ".extern .entry e()\n{\n  ret;\n}",
              ".entry e();\n.entry e()\n{\n  ret;\n}", ".common .entry e()\n{\n  ret;\n}"]:
        yield module(mod=d)
    # names shared between variables and functions
    for d in [".global .u32 f;\n.func f()\n{\n  ret;\n}", ".func f()\n{\n  ret;\n}\n.global .u32 f;",
              ".global .u32 k;", ".global .u32 v;\n.shared .u32 v;", ".global .u32 v;\n.const .u32 v;"]:
        yield module(mod=d)
    for d in [".shared .u32 v;", ".global .u32 v;", ".const .u32 v;", ".local .u32 v;"]:
        yield module("  " + d + "\n  {\n  " + d + "\n  }", mod=d.replace("local", "global"))
        yield module("  " + d + "\n  " + d)


# ------------------------------------------------------------------- limits

def gen_limits(rng):
    for n in [49152, 49153, 49148, 51200, 65536, 0xc000, 0xc800, 232448, 232449, 233472,
              1 << 20, 1 << 31]:
        yield module("  .shared .align 4 .b8 s[%d];\n  mov.u64 %%rd1, s;" % n)
        yield module("  mov.u64 %rd1, s;", mod=".shared .align 4 .b8 s[%d];" % n)
        yield module("", mod=".shared .align 4 .b8 s[%d];" % n)
        # two variables adding up
        yield module("  .shared .b8 s[%d];\n  .shared .b8 t[%d];\n  mov.u64 %%rd1, s;\n  mov.u64 %%rd2, t;"
                     % (n // 2, n - n // 2))
        yield module("  .shared .b8 s[%d];\n  mov.u64 %%rd1, s;" % n, target="sm_75")
        yield module("  .shared .b8 s[%d];\n  mov.u64 %%rd1, s;" % n, target="sm_80")
        # from a function called by the kernel
        yield module("  call f;", mod=".func f()\n{\n  .reg .b64 %%x;\n  .shared .b8 s[%d];\n"
                     "  mov.u64 %%x, s;\n  ret;\n}" % n)
        # local
        yield module("  .local .b8 l[%d];\n  mov.u64 %%rd1, l;" % n)
        # global and const
        yield module("", mod=".global .b8 gg[%d];" % n)
        yield module("  ld.const.u32 %r1, [cc];", mod=".const .b8 cc[%d];" % n)
    for n in [65536, 65537, 16384]:
        yield module("  ld.const.u32 %r1, [cc];\n  ld.const.u32 %r2, [cd];",
                     mod=".const .b8 cc[%d];\n.const .b8 cd[%d];" % (n // 2, n // 2 + 8))
    for n in [1, 1000, 65535, 65536, 100000]:
        yield module("  .reg .b32 q<%d>;\n  mov.b32 q0, 1;" % n)
    # the number of entries, functions
    for n in [1, 100]:
        mod = "\n".join(".visible .entry e%d()\n{\n  ret;\n}" % i for i in range(n))
        yield module(mod=mod)
    # long names and deep nesting
    for n in [1023, 1024, 1025, 4096]:
        yield module("  .reg .b32 %s;\n  mov.b32 %s, 1;" % ("a" * n, "a" * n))
    for n in [1, 32, 100, 1000]:
        yield module("  " + "{" * n + "\n  add.s32 %r1, %r1, 1;\n  " + "}" * n)
    # dynamic shared and extern shared
    yield module("  mov.u64 %rd1, ds;", mod=".extern .shared .align 16 .b8 ds[];\n.shared .b8 s[49152];")
    yield module("  mov.u64 %rd1, ds;\n  mov.u64 %rd2, s;", mod=".extern .shared .align 16 .b8 ds[];\n.shared .b8 s[49152];")


CONSTRUCTS = [
    ("operand", gen_operands),
    ("address", gen_addresses),
    ("declaration", gen_declarations),
    ("parameter", gen_parameters),
    ("function", gen_functions),
    ("directive", gen_directives),
    ("debug", gen_debug),
    ("linking", gen_linking),
    ("limits", gen_limits),
]


def cases(seed, only=None):
    """The cases in a fixed order: (construct, id, text)."""
    for name, gen in CONSTRUCTS:
        if only and name not in only:
            continue
        rng = random.Random("%s:%d" % (name, seed))
        seen = set()
        n = 0
        for text in gen(rng):
            if text in seen:
                continue
            seen.add(text)
            n += 1
            yield name, "%s-%05d" % (name, n), text


TARGET_RE = re.compile(r"^\s*\.target\s+([^\n]*)$", re.M)
LINE_RE = re.compile(r"^ptxas [^,]*, line (\d+); (error|warning|fatal)\s*: (.*)$")
FATAL_RE = re.compile(r"^ptxas (fatal|error|warning)\s*: (.*)$")
CRASH = ("Attempted to", "Internal error", "internal error", "Segmentation", "core dumped",
         "Assertion", "Signal")


def ask(ptxas, text, arch, compile_only, tmpdir):
    """ptxas's verdict on TEXT: (verdict, line, message) or None on a crash."""
    fd, path = tempfile.mkstemp(suffix=".ptx", dir=tmpdir)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    args = [ptxas, "-arch=" + arch]
    if compile_only:
        args.append("-c")
    args += [path, "-o", path + ".cubin"]
    try:
        p = subprocess.run(args, capture_output=True, text=True, errors="replace", timeout=60)
    except subprocess.TimeoutExpired:
        return None
    finally:
        for q in (path, path + ".cubin"):
            try:
                os.unlink(q)
            except OSError:
                pass
    out = (p.stdout + p.stderr).splitlines()
    if p.returncode < 0 or any(c in o for o in out for c in CRASH):
        return None
    first_err = first_warn = None
    for o in out:
        m = LINE_RE.match(o)
        if m:
            item = (m.group(1), m.group(3).strip())
            if m.group(2) != "warning" and not first_err:
                first_err = item
            elif m.group(2) == "warning" and not first_warn:
                first_warn = item
            continue
        m = FATAL_RE.match(o)
        if m:
            msg = m.group(2).strip()
            if msg.startswith("Ptx assembly aborted"):
                continue
            if m.group(1) == "warning":
                if not first_warn:
                    first_warn = ("", msg)
            elif not first_err:
                first_err = ("", msg)
    if p.returncode == 0:
        return ("accept", "", ("warning: " + first_warn[1]) if first_warn else "")
    if not first_err:
        first_err = ("", out[0] if out else "exit status %d" % p.returncode)
    return ("reject",) + line_no(first_err[0], first_err[1])


def line_no(line, msg):
    """Some fatal messages carry their line in the text ("Line No: 12: ...")."""
    m = re.match(r"Line No: (\d+): (.*)$", msg)
    if not line and m:
        return (m.group(1), m.group(2))
    return (line, msg)


def esc(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


class Cache:
    """ptxas's answers, by a hash of the ptxas binary's path, -arch and text."""

    def __init__(self, path, ptxas):
        self.path, self.ptxas, self.lock, self.known = path, ptxas, threading.Lock(), {}
        if path and os.path.exists(path):
            with open(path) as f:
                for line in f:
                    try:
                        d = json.loads(line)
                        self.known[d["k"]] = d["v"]
                    except (ValueError, KeyError):
                        pass
        self.out = open(path, "a") if path else None

    def key(self, text, arch):
        return hashlib.sha256(("%s\0%s\0%s" % (self.ptxas, arch, text)).encode()).hexdigest()

    def get(self, text, arch):
        return self.known.get(self.key(text, arch))

    def put(self, text, arch, value):
        if not self.out:
            return
        k = self.key(text, arch)
        with self.lock:
            self.known[k] = value
            self.out.write(json.dumps({"k": k, "v": value}) + "\n")
            self.out.flush()


def judge(item, ptxas, tmpdir, cache):
    construct, cid, text = item
    m = TARGET_RE.search(text)
    arch = arch_for(m.group(1)) if m else "sm_90a"
    got = cache.get(text, arch)
    if got is not None:
        r, c = got
        if r and r[0] == "reject":
            r = ["reject"] + list(line_no(r[1], r[2]))
        return item, arch, (tuple(r) if r else None), c
    r = ask(ptxas, text, arch, False, tmpdir)
    c = ""
    if r is not None and r[0] == "reject":
        rc = ask(ptxas, text, arch, True, tmpdir)
        c = rc[0] if rc else "crash"
    cache.put(text, arch, [list(r) if r else None, c])
    return item, arch, r, c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--ptxas", default=os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas"))
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true", help="print the cases, ask nothing")
    ap.add_argument("--cache", default="")
    ap.add_argument("--cached-only", action="store_true",
                    help="write only the cases the cache holds, ask ptxas nothing")
    a = ap.parse_args()
    only = set(a.only.split(",")) - {""}
    items = list(cases(a.seed, only))
    if a.list:
        for construct, cid, text in items:
            print("%s\t%s\t%s" % (construct, cid, esc(text)))
        return 0
    if not os.access(a.ptxas, os.X_OK):
        print("langgen: no ptxas at %s" % a.ptxas, file=sys.stderr)
        return 2
    counts = {}
    crashed = 0
    rows = []
    cache = Cache(a.cache, a.ptxas)
    if a.cached_only:
        def arch_of(text):
            m = TARGET_RE.search(text)
            return arch_for(m.group(1)) if m else "sm_90a"
        items = [i for i in items if cache.get(i[2], arch_of(i[2])) is not None]
        cache.out = None
    with tempfile.TemporaryDirectory() as tmpdir:
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            # asked in a shuffled order (a partial run, --cached-only, then
            # samples every construct), written in the cases' order
            order = list(range(len(items)))
            random.Random(a.seed).shuffle(order)
            answers = {}
            for k, res in zip(order, ex.map(lambda k: judge(items[k], a.ptxas, tmpdir, cache), order)):
                answers[k] = res
            for n in range(len(items)):
                item, arch, r, c = answers[n]
                if (n + 1) % 500 == 0:
                    print("langgen: %d/%d" % (n + 1, len(items)), file=sys.stderr)
                construct, cid, text = item
                if r is None:
                    crashed += 1
                    continue
                k = counts.setdefault(construct, [0, 0, 0])
                k[0] += 1
                k[1 if r[0] == "accept" else 2] += 1
                rows.append("\t".join([construct, cid, arch, r[0], r[1], esc(r[2]), c, esc(text)]))
    out = sys.stdout if a.output == "-" else open(a.output + ".tmp", "w")
    out.write("construct\tid\tarch\tverdict\tline\tmessage\tc_verdict\tptx\n")
    for row in rows:
        out.write(row + "\n")
    if out is not sys.stdout:
        out.close()
        os.replace(a.output + ".tmp", a.output)
    for construct, (n, acc, rej) in counts.items():
        print("langgen: %-12s %5d cases, %5d accepted, %5d rejected" % (construct, n, acc, rej),
              file=sys.stderr)
    print("langgen: %d cases; %d left out (ptxas crashed)" % (len(rows), crashed), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
