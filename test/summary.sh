#!/bin/sh
# summary.sh LOG SUITE...: make check's closing summary.  Each suite's make
# appended its name to LOG.passed or LOG.failed, and test/skip.sh wrote
# what it left out to LOG.skip.SUITE.  Prints one line per suite, in the
# order given, then the totals; a suite that passed but left something
# out counts as skipped, and its skips are listed under it.  A suite in
# neither file did not finish (make was stopped): it counts as failed.
# Exit status: 1 if any suite failed, 0 otherwise.  Removes LOG.*.
[ $# -ge 1 ] || { echo "usage: summary.sh LOG SUITE..." >&2; exit 2; }
log=$1
shift
passed=0 failed=0 skipped=0
echo "make check: summary"
for suite in "$@"; do
    if grep -Fxq "$suite" "$log.failed" 2>/dev/null; then
        status=FAILED failed=$((failed + 1))
    elif ! grep -Fxq "$suite" "$log.passed" 2>/dev/null; then
        status="FAILED (did not finish)" failed=$((failed + 1))
    elif [ -s "$log.skip.$suite" ]; then
        status="passed, but skipped" skipped=$((skipped + 1))
    else
        status=passed passed=$((passed + 1))
    fi
    printf '    %-20s %s\n' "$suite" "$status"
    if [ -s "$log.skip.$suite" ]; then
        sed 's/^/        NOT TESTED: /' "$log.skip.$suite"
    fi
done
rm -f "$log".*
[ "$skipped" -eq 0 ] ||
    echo "make check: what was skipped needs ../shared, ptxas or a tool (REQUIRE_CORPORA=1 makes a skip fail its suite)"
echo "check: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
