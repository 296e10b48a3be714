#!/usr/bin/env python3
"""statements.py DIR [COUNT [SEED]]: writes COUNT small modules into DIR,
each a body or a debug section of statements drawn at random (seeded: the
same modules each time) from the shapes the scanner's fast lane takes whole
and their near misses: instructions, .loc lines, labels, declarations of
every state space with and without .align, vectors, ranges, arrays,
initialisers and bad counts, braces, data lines, comments.  make twoways
parses each both ways; such modules found that the fast lane took an
instruction in a section whole (the rules report it at its ';')."""
import os
import random
import sys

STATEMENTS = [
    'ret;', 'add.s32 %r1, %r2, %r3;', 'mov.u32 %r1, 1', '@%p1 bra $L1;', 'call f;',
    '.loc 1 2 3', '.loc 1 2 3, function_name $L1, inlined_at 1 2 3', '$L1:', '$L2: ret;', '{', '}',
    '.b8 1, 2, 3', '.b32 $L1', '.b64 $L1+4', '.b16 1,2\n.b16 3', '// c', '/* c */',
    '.pragma "nounroll";', 'ret: ret;',
]
SPACES = ['.reg', '.param', '.local', '.shared', '.global', '.const', '.sreg', '.tex',
          '.regx', '.align 8 .reg', '']
ALIGNS = ['', '.align 8 ', '.align 3 ', '.align 0 ', '.align 16 ', '.align 4294967296 ',
          '.align  4\t', '.align 010 ']
TYPES = ['.b32', '.u64', '.pred', '.f16x2', '.b128', '.bf16', '.texref', '.v2 .b32',
         '.v4 .f32', '.b8', '.s16', '.f64', '.b32::x', '.u32.b32', '']
NAMES = ['%r', '%rd', 'p', 'x', '_', 'a.b', '$x', '%r1', 'param0', '_Z3foo', 'ret', '%',
         '1a', '__local_depot0']
AFTER = ['', '<5>', '<0>', '<4294967296>', '<010>', '< 3 >', '[4]', '[2][3]', '[]',
         '[0x10]', '[5U]', '<5>>', '[1]]', '<5', '=1', '= {1,2}']
BLANKS = [' ', '\t', '  ', '\n', '/*c*/ ']


def declaration(rng):
    s = rng.choice(SPACES) + rng.choice(BLANKS) + rng.choice(ALIGNS) + rng.choice(TYPES)
    s += rng.choice(BLANKS)
    s += rng.choice([', ', ',', '  ,  ']).join(
        rng.choice(NAMES) + rng.choice(AFTER) for _ in range(rng.randint(1, 3)))
    return s + rng.choice([';', ';', ';', ' ;', '', ';;'])


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 19)
    os.makedirs(out, exist_ok=True)
    for k in range(count):
        body = '\n'.join('\t' + (declaration(rng) if rng.random() < 0.4 else rng.choice(STATEMENTS))
                         for _ in range(rng.randint(1, 10)))
        mod = '.version 8.0\n.target sm_90\n.address_size 64\n'
        if rng.random() < 0.4:
            mod += '.section .debug_info\n{\n' + body + '\n}\n'
        else:
            mod += '.visible .entry k()\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n' + body + '\n}\n'
        with open(os.path.join(out, 'stmt%04d.ptx' % k), 'w') as f:
            f.write(mod)


main()
