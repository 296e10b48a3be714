#!/bin/sh
# What a test leaves out, it says here.  usage: skip.sh WHAT REASON
# prints "WHAT: SKIPPED: REASON", adds the line to $SKIP_LOG when set
# (make check lists every skip of its run at the end), and exits 0; with
# REQUIRE_CORPORA=1 in the environment it says so and exits 1 instead:
# there (CI, .ci/run) everything is installed and nothing may be left out.
# The corpora and ptxas are optional on a user's machine, so a skip is
# not a failure by default.
[ $# -eq 2 ] || { echo "usage: skip.sh WHAT REASON" >&2; exit 2; }
echo "$1: SKIPPED: $2"
if [ -n "$SKIP_LOG" ]; then
    echo "$1: $2" >>"$SKIP_LOG" || exit 2
fi
if [ "$REQUIRE_CORPORA" = 1 ]; then
    echo "$1: FAIL: REQUIRE_CORPORA=1: nothing may be skipped"
    exit 1
fi
exit 0
