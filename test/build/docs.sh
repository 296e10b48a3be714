#!/bin/sh
# The documentation against what it documents:
#  - doc/cli.md's option list is what tools/optdoc.c writes from
#    tools/options.def (the table --help is printed from);
#  - every relative link of README.md, NEWS.md and the .md files under
#    doc/ and test/ names a file that exists, and a #fragment a heading of
#    the page it points to (GitHub's anchors);
#  - man renders the built manual page without a warning, and it names
#    every option --help names;
#  - the README's embedding example is examples/embed.c, which the
#    install test builds and runs.
# usage: docs.sh BUILD_DIR
B=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top" || exit 2
B=$(cd "$B" && pwd) || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptx-docs.XXXXXX") || exit 2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
finish() {
    rm -rf "$tmp"
    echo "docs: $pass passed, $fail failed"
    [ $fail -eq 0 ]
    exit $?
}

# -- the options, written once ----------------------------------------------------
if "$B/optdoc" markdown doc/cli.md >"$tmp/cli.md"; then
    cmp -s "$tmp/cli.md" doc/cli.md && ok ||
        bad "doc/cli.md's options are not what tools/options.def says (make update-docs writes them):
$(diff doc/cli.md "$tmp/cli.md" | head -6)"
else
    bad "optdoc markdown doc/cli.md"
fi

# -- links ------------------------------------------------------------------------
# every [text](target) outside code: the file, relative to the page, must
# exist; a fragment must be the anchor of one of its headings
pages="README.md NEWS.md $(find doc test -name '*.md' | LC_ALL=C sort)"
# anchors PAGE: GitHub's anchors of PAGE's headings, one a line (lower
# case, punctuation but '-' and '_' dropped, spaces to '-')
anchors() {
    awk '/^```/ { code = !code; next } !code && /^#+ / {
            h = $0; sub(/^#+ +/, "", h); h = tolower(h)
            gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h); print h }' "$1"
}
links=0
for page in $pages; do
    [ -f "$page" ] || { bad "$page does not exist"; continue; }
    dir=$(dirname "$page")
    # the targets, one a line: code blocks and `code` left out
    awk '/^```/ { code = !code; next } code { next } {
            line = $0; gsub(/`[^`]*`/, "", line)
            while (match(line, /\]\([^) ]+\)/)) {
                print substr(line, RSTART + 2, RLENGTH - 3)
                line = substr(line, RSTART + RLENGTH) } }' "$page" >"$tmp/targets"
    while read -r target; do
        links=$((links + 1))
        case $target in
            http://* | https://* | mailto:*) ok; continue ;;
        esac
        file=${target%%#*}
        frag=
        case $target in *'#'*) frag=${target#*#} ;; esac
        if [ -z "$file" ]; then
            path=$page
        else
            path=$dir/$file
        fi
        if [ ! -e "$path" ]; then
            bad "$page: dead link '$target' ($path does not exist)"
            continue
        fi
        if [ -n "$frag" ]; then
            if [ -f "$path" ] && anchors "$path" | grep -qx -- "$frag"; then
                ok
            else
                bad "$page: link '$target': $path has no heading with the anchor '#$frag'"
            fi
        else
            ok
        fi
    done <"$tmp/targets"
done
[ $links -gt 0 ] && ok || bad "no link found in $pages: the link check reads nothing"

# -- the manual page --------------------------------------------------------------
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man --warnings -l "$B/ptx-front.1" >"$tmp/man.txt" 2>"$tmp/man.err"
    rc=$?
    if [ $rc -ne 0 ] || [ -s "$tmp/man.err" ]; then
        bad "man -l $B/ptx-front.1: status $rc: $(head -3 "$tmp/man.err")"
    else
        ok
    fi
    "$B/ptx-front" --help | sed -n 's/^  \(--[a-z-]*\).*/\1/p' >"$tmp/help-options"
    [ -s "$tmp/help-options" ] && ok || bad "--help names no option"
    while read -r o; do
        grep -q -- "^       $o" "$tmp/man.txt" && ok || bad "the manual page has no entry for $o"
    done <"$tmp/help-options"
else
    sh "$here/../skip.sh" "docs: the manual page" "man is not installed (apt-get install man-db)" ||
        fail=$((fail + 1))
fi

# -- the README's embedding example ----------------------------------------------
# the first ```c block after the line naming examples/embed.c
awk '/examples\/embed\.c/ { seen = 1 } seen && /^```c$/ { on = 1; next } on && /^```$/ { exit } on' \
    README.md >"$tmp/embed.c"
[ -s "$tmp/embed.c" ] && cmp -s "$tmp/embed.c" examples/embed.c && ok ||
    bad "README.md's embedding example is not examples/embed.c: $(diff "$tmp/embed.c" examples/embed.c | head -4)"
finish
