#!/bin/sh
# layering.sh LIBRARY [--ignore OBJECT]...: the library's files must form a
# one-way order.  nm reads every member object of LIBRARY (an ar archive):
# object A depends on object B when A leaves a symbol undefined that B
# defines.  Any cycle in that graph fails the test, printed object by object
# with the symbols that make each edge.  Without a cycle, the objects are
# printed in layers: layer 0 calls no other object of the library, and each
# object calls only objects of lower layers.
#
# --ignore OBJECT (a member's name without .o, e.g. lex.yy) leaves that
# object out of the graph, so that cycles through it are not counted; the
# layers printed then leave it out too.
#
# Exit status: 0 with no cycle, 1 with one, 2 on a usage error.

set -u
lib=${1:-}
if [ -z "$lib" ] || [ ! -f "$lib" ]; then
    echo "usage: layering.sh LIBRARY.a [--ignore OBJECT]..." >&2
    exit 2
fi
shift
ignore=" "
while [ $# -gt 0 ]; do
    case $1 in
    --ignore) [ $# -ge 2 ] || { echo "layering.sh: --ignore needs an object's name" >&2; exit 2; }
              ignore="$ignore$2 "; shift 2 ;;
    *) echo "layering.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
NM=${NM:-nm}

# nm -A prints "LIB:MEMBER.o: VALUE TYPE NAME", or "LIB:MEMBER.o: U NAME"
# for an undefined symbol; the archive's name may hold a colon, the member's
# is taken as the field before the last colon of the prefix.
"$NM" -A "$lib" 2>/dev/null | awk -v ignore="$ignore" '
function member(line,   p, n, i) {
    # the prefix ends at the first ".o:" and the member starts after the colon before it
    p = index(line, ".o:")
    if (p == 0) return ""
    n = substr(line, 1, p - 1)
    i = length(n)
    while (i > 0 && substr(n, i, 1) != ":") i--
    return substr(n, i + 1)
}
{
    m = member($0)
    if (m == "" || index(ignore, " " m " ")) next
    objs[m] = 1
    nf = NF
    if ($(nf - 1) == "U") { undef[m, $nf] = 1; usyms[m] = usyms[m] " " $nf }
    else if ($(nf - 1) ~ /^[TDBRVWCG]$/) def[$nf] = m
}
END {
    # the edges, each with its symbols in the order nm listed them
    for (m in objs) {
        k = split(usyms[m], s, " ")
        for (i = 1; i <= k; i++) {
            d = (s[i] in def) ? def[s[i]] : ""
            if (d == "" || d == m) continue
            if (!((m, d) in edge)) { edge[m, d] = 1; out[m] = out[m] " " d }
            if (!((m, d, s[i]) in seen)) { seen[m, d, s[i]] = 1; why[m, d] = why[m, d] " " s[i] }
        }
    }
    # peel the layers: an object whose callees are all placed goes next
    n = 0
    for (m in objs) { names[++n] = m }
    sortnames(names, n)
    placed = 0; layer = 0
    while (placed < n) {
        got = 0; row = ""
        for (i = 1; i <= n; i++) {
            m = names[i]
            if (m in lay) continue
            ok = 1
            k = split(out[m], c, " ")
            for (j = 1; j <= k; j++) if (!(c[j] in lay)) { ok = 0; break }
            if (ok) { row = row " " m; pend[++got] = m }
        }
        if (got == 0) break
        for (j = 1; j <= got; j++) lay[pend[j]] = layer
        placed += got
        rows[layer] = row
        layer++
    }
    if (placed == n) {
        print "layering: " n " objects, no cycle; the layers, lowest first:"
        for (l = 0; l < layer; l++) printf "  %d:%s\n", l, rows[l]
        exit 0
    }
    # the objects left over are in a cycle or call into one.  Group them in
    # strongly connected components (Tarjan); through each member of a
    # component, print the shortest cycle, each distinct cycle once.
    idx = 0; sp = 0; ncomp = 0
    for (i = 1; i <= n; i++)
        if (!(names[i] in lay) && !(names[i] in num)) tarjan(names[i])
    ncyc = 0
    for (i = 1; i <= n; i++) {
        m = names[i]
        if ((m in lay) || size[comp[m]] < 2) continue
        len = shortest_cycle(m)
        low = 1
        for (j = 1; j <= len; j++) if (cyc[j] < cyc[low]) low = j
        key = ""
        for (j = low; j <= len; j++) key = key " " cyc[j]
        for (j = 1; j < low; j++) key = key " " cyc[j]
        if (key in printed) continue
        printed[key] = 1
        printf "layering: cycle %d:\n", ++ncyc
        for (j = 1; j <= len; j++) {
            a = cyc[j]; b = (j < len) ? cyc[j + 1] : cyc[1]
            printf "  %s.o -> %s.o:%s\n", a, b, why[a, b]
        }
    }
    left = ""
    for (i = 1; i <= n; i++) if (!(names[i] in lay)) left = left " " names[i]
    print "layering: " ncyc " cycle(s); the objects in a cycle or above one:" left
    exit 1
}
function tarjan(v,   k, c, j, w) {
    num[v] = lowl[v] = ++idx
    stack[++sp] = v; onstack[v] = 1
    k = split(out[v], c, " ")
    for (j = 1; j <= k; j++) {
        w = c[j]
        if (w in lay) continue
        if (!(w in num)) { tarjan(w); if (lowl[w] < lowl[v]) lowl[v] = lowl[w] }
        else if ((w in onstack) && num[w] < lowl[v]) lowl[v] = num[w]
    }
    if (lowl[v] == num[v]) {
        ncomp++
        do { w = stack[sp--]; delete onstack[w]; comp[w] = ncomp; size[ncomp]++ } while (w != v)
    }
}
# breadth first from v along edges inside the component of v back to v; the
# cycle goes to cyc[1..len], cyc[1] = v
function shortest_cycle(v,   q, head, tail, from, u, k, c, j, w, rev, r, t) {
    head = 1; tail = 0; delete from
    q[++tail] = v
    while (head <= tail) {
        u = q[head++]
        k = split(out[u], c, " ")
        for (j = 1; j <= k; j++) {
            w = c[j]
            if ((w in lay) || comp[w] != comp[v]) continue
            if (w == v) {
                r = 0; t = u
                while (t != v) { rev[++r] = t; t = from[t] }
                cyc[1] = v
                for (j = 1; j <= r; j++) cyc[j + 1] = rev[r - j + 1]
                return r + 1
            }
            if (!(w in from)) { from[w] = u; q[++tail] = w }
        }
    }
    return 0
}
function sortnames(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) {
        t = a[i]
        for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
        a[j + 1] = t
    }
}'
