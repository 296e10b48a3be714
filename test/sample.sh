# Sourced by the test scripts that run over the corpora.  `sampled` reads
# paths, one a line, and writes them all, or with CHECK_SAMPLE=N in the
# environment (make check SANITIZE=1 sets 8) the 1st, (N+1)th, (2N+1)th...
# of them: the sanitized pass looks for memory and undefined-behaviour
# errors on a sample, the plain pass checks every file's verdict.
# `sample_note WHAT` says which of the two a run did.
sampled() {
    awk -v n="${CHECK_SAMPLE:-1}" 'n <= 1 || (NR - 1) % n == 0'
}
sample_note() {
    if [ "${CHECK_SAMPLE:-1}" -gt 1 ]; then
        echo "$1: 1 file in ${CHECK_SAMPLE} of the corpora (CHECK_SAMPLE=${CHECK_SAMPLE}: the sanitized pass)"
    fi
}
