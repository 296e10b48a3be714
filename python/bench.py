"""make python-bench (and make bench): the Python module's speed and memory.

    PYTHONPATH=build/python python3 python/bench.py [-n RUNS] BUILD_DIR FILE...

For each file:
  - parse_file: the median of RUNS parses in this process, against the
    CLI's check-only run (`ptx-front FILE`, whole process, CPU time, the
    median of RUNS); target: at most 1.3x.  The check-only run keeps no
    tree; the CLI's run that keeps one (--emit-ptx -o /dev/null) is shown
    beside, to tell the module's cost from the tree's;
  - walk: every instruction's opcode, modifiers and operands (kind and
    text of each), against the parse; target: at most 5x;
  - memory: the peak RSS of a fresh process that imports ptxfront and
    parses the file once (its growth over the interpreter with the module
    imported, and whole), against the C library's peak for the same parse
    (build/bench's child, which reads and parses keeping the tree);
    target: the growth at most 1.5x.  Each figure is measured in a process
    of its own, per file: a process's peak RSS never goes down, so a
    figure taken after a larger file would be that file's.
Lines "python-bench-row\\t..." carry the figures for scripts.
"""
import os
import resource
import statistics
import subprocess
import sys
import time

import ptxfront

# VmHWM, not ru_maxrss: Linux keeps ru_maxrss across fork and exec, so a
# child would report the larger of its own peak and its parent's RSS
CHILD = r"""
import sys
import ptxfront
def hwm():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmHWM:"))
before = hwm()
m = ptxfront.parse_file(sys.argv[1])
after = hwm()
print(before, after, len(m.functions))
"""


def child_cpu(argv):
    """CPU seconds (user + system) of one run of argv, output discarded."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def cpu_now():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def walk(m):
    n = 0
    for f in m.functions:
        for i in f.instructions:
            i.opcode
            i.modifiers
            for o in i.operands:
                o.kind
                o.text
            n += 1
    return n


def c_peak_kib(build, path):
    """The C library's peak RSS for a parse keeping the tree (build/bench)."""
    r = subprocess.run([os.path.join(build, "bench"), "-n", "1", path], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    for line in r.stdout.decode().splitlines():
        if line.startswith("bench-row\t"):
            return int(line.split("\t")[-1])
    return 0


def main(argv):
    runs = 5
    if len(argv) > 2 and argv[1] == "-n":
        runs = int(argv[2])
        argv = argv[:1] + argv[3:]
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    build, files = argv[1], argv[2:]
    cli = os.path.join(build, "ptx-front")
    failed = 0
    print("Python module (ptxfront %s, Python %s): median of %d runs" %
          (ptxfront.__version__, sys.version.split()[0], runs))
    for path in files:
        name = os.path.basename(path)
        size = os.path.getsize(path)
        # CPU time, as the CLI's figure is, alternating the two
        parse_t, cli_t, tree_t = [], [], []
        for _ in range(runs):
            t0 = cpu_now()
            m = ptxfront.parse_file(path)
            parse_t.append(cpu_now() - t0)
            del m
            cli_t.append(child_cpu([cli, path]))
            tree_t.append(child_cpu([cli, path, "--emit-ptx", "-o", os.devnull]))
        m = ptxfront.parse_file(path)
        walk_t = []
        for _ in range(runs):
            t0 = cpu_now()
            n = walk(m)
            walk_t.append(cpu_now() - t0)
        del m
        p, c, w = statistics.median(parse_t), statistics.median(cli_t), statistics.median(walk_t)
        t = statistics.median(tree_t)
        r = subprocess.run([sys.executable, "-c", CHILD, path], stdout=subprocess.PIPE,
                           env=dict(os.environ))
        before, after, _ = (int(x) for x in r.stdout.split())
        cpeak = c_peak_kib(build, path)
        grow = after - before
        ratio_parse = p / c if c else float("inf")
        ratio_walk = w / p if p else float("inf")
        ratio_mem = grow / cpeak if cpeak else float("inf")
        ok = ratio_parse <= 1.3 and ratio_walk <= 5 and ratio_mem <= 1.5
        failed += not ok
        print("%s: %.1f MB, %d instructions" % (name, size / 1e6, n))
        print("  parse_file       %8.1f ms   CLI check-only %8.1f ms   %.2fx (target <= 1.3x)" %
              (p * 1e3, c * 1e3, ratio_parse))
        print("  (the CLI keeping the tree, --emit-ptx -o /dev/null: %.1f ms; parse_file %.2fx that)" %
              (t * 1e3, p / t if t else float("inf")))
        print("  walk             %8.1f ms   (%.0f ns per instruction)   %.2fx the parse (target <= 5x)" %
              (w * 1e3, w * 1e9 / max(n, 1), ratio_walk))
        print("  memory           %8.1f MB   over the interpreter (%.1f MB whole); C library peak %.1f MB"
              "   %.2fx (target <= 1.5x)" % (grow / 1024, after / 1024, cpeak / 1024, ratio_mem))
        print("  %s" % ("targets met" if ok else "TARGET MISSED"))
        print("python-bench-row\t%s\t%d\t%d\t%.4f\t%.4f\t%.4f\t%d\t%d\t%d\t%.4f" %
              (name, size, n, p, c, w, grow, after, cpeak, t))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
