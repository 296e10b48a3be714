#!/bin/sh
# A loop test runs over a table: its bound must come from the table
# (sizeof t / sizeof t[0], TEST_ISA_COUNT(t)) or a named constant, never a
# number written in the call, which silently runs fewer cases when the
# table grows (one_token_instruction_as_grammar ran 18 of its 26).
# Prints each tcase_add_loop_test whose end is a literal; exit status 1 if
# there is one.  usage: loop-bounds.sh FILE...
awk '
    FNR == 1 { call = "" }
    /tcase_add_loop_test[ \t]*\(/ && call == "" { call = " "; start = FNR }
    call != "" {
        call = call " " $0
        if (call ~ /\)[ \t]*;/) {
            args = call
            sub(/.*tcase_add_loop_test[ \t]*\(/, "", args)
            sub(/\)[ \t]*;.*/, "", args)
            n = split(args, a, ",")
            end = a[n]
            gsub(/[ \t()]/, "", end)
            if (end ~ /^[0-9]+[uU]?$/) {
                print "FAIL " FILENAME ":" start ": loop test bound is the number " end ", not its table'"'"'s size"
                bad = 1
            }
            call = ""
        }
    }
    END { exit bad }
' "$@"
