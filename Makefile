# ptx-front build.  ./configure writes build/config.mk (compiler, tools,
# Check flags); without it the defaults below are used.  Everything built,
# generated code included, goes under build/.

-include build/config.mk

# under make -j each target's output is printed whole when it is done,
# not interleaved with the others' (make -j2 check runs suites side by side)
MAKEFLAGS += --output-sync=target

CC          ?= cc
FLEX        ?= flex
# full tables: measured faster than the compressed default (make bench)
FLEXFLAGS   ?= -Cf
BISON       ?= bison
PKG_CONFIG  ?= pkg-config
AR          ?= ar
PREFIX      ?= /usr/local
CHECK_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS   ?= $(shell $(PKG_CONFIG) --libs check 2>/dev/null)
# ./configure records whether Check is there; without configure, ask
HAVE_CHECK   ?= $(if $(shell $(PKG_CONFIG) --exists check 2>/dev/null && echo y),yes,no)
# jansson: the language server's JSON (ptx-front --lsp); the library
# does not use it
JANSSON_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)
JANSSON_LIBS   ?= $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null)
HAVE_JANSSON   ?= $(if $(shell $(PKG_CONFIG) --exists jansson 2>/dev/null && echo y),yes,no)
ifeq ($(HAVE_JANSSON),yes)
LSP_SRCS  := tools/lsp.c
LSP_FLAGS := -DPTX_HAVE_LSP $(JANSSON_CFLAGS)
LSP_LIBS  := $(JANSSON_LIBS)
endif
OPT         ?= -O2 -g
# warnings are errors in CI (which sets CI=true), or with WERROR=-Werror
ifeq ($(CI),true)
WERROR      ?= -Werror
else
WERROR      ?=
endif

# make SANITIZE=1 builds with ASan and UBSan into its own directory, so
# that sanitized and plain objects never mix: `make check SANITIZE=1`
# after `make check` rebuilds nothing of build/.
ifeq ($(SANITIZE),1)
B ?= build-san
else
B ?= build
endif
WARN := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
DEFS := -D_POSIX_C_SOURCE=200809L
INC := -Iinclude -I$(B)/include -Isrc -I$(B)/gen
ifeq ($(SANITIZE),1)
  OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
  LDSAN := -fsanitize=address,undefined
endif
ALL_CFLAGS := $(WARN) $(WERROR) $(OPT) $(DEFS) $(INC) $(CFLAGS)
# generated scanner/parser: C11 but without the pedantic set
GEN_CFLAGS := -std=c11 -Wall -Wno-unused-function -Wno-unused-but-set-variable $(OPT) $(DEFS) $(INC) $(CFLAGS)
ALL_LDFLAGS := $(LDSAN) $(LDFLAGS)

LIB_SRCS := $(wildcard src/*.c)
LIB_OBJS := $(patsubst src/%.c,$(B)/obj/%.o,$(LIB_SRCS)) $(B)/obj/ptx.tab.o $(B)/obj/lex.yy.o \
            $(B)/obj/isa_tables.o
# libptxfront.so.MAJOR.MINOR, soname libptxfront.so.MAJOR (the rules below)
SOMAJOR := $(shell sed -n 's/^\#define PTX_FRONT_VERSION_MAJOR \([0-9]*\)/\1/p' include/ptx/ptx.h)
SOMINOR := $(shell sed -n 's/^\#define PTX_FRONT_VERSION_MINOR \([0-9]*\)/\1/p' include/ptx/ptx.h)
SONAME  := libptxfront.so.$(SOMAJOR)
SHLIB   := libptxfront.so.$(SOMAJOR).$(SOMINOR)
ISA_TABLES := $(sort $(wildcard grammar/isa/*.isa))
# every object's headers are tracked by the compiler (-MMD: $(B)/obj/*.d);
# the generated ones must exist before anything that may include them
# is compiled (order-only: their changes reach the objects through the
# .d files).  HEADERS is for the programs compiled whole from their
# sources, which keep no .d files.
GEN_HEADERS := $(B)/include/ptx/isa.h $(B)/gen/ptx.tab.h
HEADERS := $(wildcard include/ptx/*.h) $(wildcard src/*.h) $(B)/include/ptx/isa.h
DEPFLAGS := -MMD -MP
UNIT_SRCS := $(wildcard test/unit/*.c)

.PHONY: all docs update-docs layering check emit-assembles cuda cuda-headers lsp graphs json-schema diagnostics unit errors cli build-without-check mistakes experiments wild hostile valgrind examples installcheck mutations lang lang-cases twoways conformance fuzz bench bench-smoke clean distclean install uninstall update-golden mutate-corpus
all: $(B)/ptx-front $(B)/libptxfront.a $(B)/$(SHLIB) $(B)/ptx-front.1

$(B)/gen/ptx.tab.c $(B)/gen/ptx.tab.h &: grammar/ptx.y
	@mkdir -p $(B)/gen
	$(BISON) -Wall -Werror -d -o $(B)/gen/ptx.tab.c $<

# the scanner includes the parser's header for the token numbers and
# YYSTYPE/YYLTYPE; flex writes no header of its own
$(B)/gen/lex.yy.c: grammar/ptx.l $(B)/gen/ptx.tab.h
	@mkdir -p $(B)/gen
	$(FLEX) $(FLEXFLAGS) -o $@ $<

# the instruction tables: data and generator both
$(B)/isagen: tools/isagen.c
	@mkdir -p $(B)
	$(CC) $(WARN) $(WERROR) $(OPT) $(DEFS) -o $@ $<

$(B)/include/ptx/isa.h $(B)/gen/isa_tables.c $(B)/gen/isa.dict &: $(B)/isagen $(ISA_TABLES)
	@mkdir -p $(B)/include/ptx $(B)/gen
	$(B)/isagen --dict $(B)/gen/isa.dict $(B)/include/ptx/isa.h $(B)/gen/isa_tables.c $(ISA_TABLES)

$(B)/obj/%.o: src/%.c | $(GEN_HEADERS)
	@mkdir -p $(B)/obj
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# generated code: isa_tables.c, ptx.tab.c, lex.yy.c
$(B)/obj/%.o: $(B)/gen/%.c | $(GEN_HEADERS)
	@mkdir -p $(B)/obj
	$(CC) $(GEN_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# the test programs' own support code (test/tree_equal.c: the oracle of
# the both-ways tests), kept out of the library
$(B)/obj/test/%.o: test/%.c | $(GEN_HEADERS)
	@mkdir -p $(B)/obj/test
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Itest -c -o $@ $<

-include $(wildcard $(B)/obj/*.d $(B)/obj/test/*.d $(B)/fuzz/obj/*.d)

$(B)/libptxfront.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

# The shared library: the same sources compiled a second time as
# position-independent code into $(B)/pic/obj (the static library and
# the CLI keep the faster non-PIC objects).  The file is
# libptxfront.so.MAJOR.MINOR, its soname libptxfront.so.MAJOR: a minor
# release may add to the API, only a major one may break it.  It exports
# only what the public headers name (the version script is made from
# them): the library's internals (sema_*, the builders, the generated
# scanner) stay out of the dynamic symbol table, where an embedder's own
# symbols could clash with them.
PIC_OBJS := $(patsubst $(B)/obj/%,$(B)/pic/obj/%,$(LIB_OBJS))

$(B)/pic/obj/%.o: src/%.c | $(GEN_HEADERS)
	@mkdir -p $(B)/pic/obj
	$(CC) $(ALL_CFLAGS) -fPIC $(DEPFLAGS) -c -o $@ $<

$(B)/pic/obj/%.o: $(B)/gen/%.c | $(GEN_HEADERS)
	@mkdir -p $(B)/pic/obj
	$(CC) $(GEN_CFLAGS) -fPIC $(DEPFLAGS) -c -o $@ $<

-include $(wildcard $(B)/pic/obj/*.d)

# every symbol the objects define that a public header names
$(B)/libptxfront.map: $(PIC_OBJS) $(wildcard include/ptx/*.h) $(B)/include/ptx/isa.h
	nm -g --defined-only $(PIC_OBJS) | awk 'NF == 3 { print $$3 }' | LC_ALL=C sort -u >$@.defined
	grep -ohE '\bptx_[A-Za-z0-9_]+\b' include/ptx/*.h $(B)/include/ptx/isa.h | LC_ALL=C sort -u | \
	    LC_ALL=C comm -12 - $@.defined | sed 's/.*/  &;/' >$@.public
	{ echo '{ global:'; cat $@.public; echo 'local: *; };'; } >$@.tmp && mv $@.tmp $@
	rm -f $@.defined $@.public

$(B)/$(SHLIB): $(PIC_OBJS) $(B)/libptxfront.map
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script,$(B)/libptxfront.map \
	    -o $@ $(PIC_OBJS) $(ALL_LDFLAGS)
	ln -sf $(SHLIB) $(B)/$(SONAME)
	ln -sf $(SHLIB) $(B)/libptxfront.so

# the CLI, with the language server (tools/lsp.c) when jansson is there
$(B)/ptx-front: tools/ptx-front.c tools/lsp.c tools/lsp.h tools/options.def $(B)/libptxfront.a
	$(CC) $(ALL_CFLAGS) $(LSP_FLAGS) -o $@ $< $(LSP_SRCS) $(B)/libptxfront.a $(LSP_LIBS) $(ALL_LDFLAGS)

# The options are written once, in tools/options.def: ptx-front prints
# --help from it, and tools/optdoc.c writes from it the manual page's
# OPTIONS (into the page built here from tools/ptx-front.1.in) and
# doc/cli.md's option list (make update-docs; make docs fails when
# doc/cli.md is not what optdoc writes)
$(B)/optdoc: tools/optdoc.c tools/options.def
	@mkdir -p $(B)
	$(CC) $(WARN) $(WERROR) $(OPT) $(DEFS) -o $@ $<

$(B)/ptx-front.1: tools/ptx-front.1.in $(B)/optdoc include/ptx/ptx.h
	$(B)/optdoc man tools/ptx-front.1.in $(VERSION) >$@.tmp && mv $@.tmp $@

update-docs: $(B)/optdoc
	$(B)/optdoc markdown doc/cli.md >$(B)/cli.md.tmp && mv $(B)/cli.md.tmp doc/cli.md

# the documentation: doc/cli.md's options as optdoc writes them, no dead
# relative link in README.md, NEWS.md and the .md files of doc/ and
# test/, the manual page rendered by man, the README's embedding example
# the same as examples/embed.c (test/build/docs.sh)
docs: $(B)/optdoc $(B)/ptx-front.1 $(B)/ptx-front
	sh test/build/docs.sh $(B)

# the unit tests need Check: without it, say so before building anything
.PHONY: need-check
need-check:
	@if [ "$(HAVE_CHECK)" != yes ]; then \
	    echo "make check: the unit tests need Check (>= 0.9.10, found through pkg-config), which ./configure did not find;" >&2; \
	    echo "  on Debian: sudo apt-get install check pkg-config, then ./configure again" >&2; \
	    echo "  (the tool and the library need only a C compiler, flex and bison: make)" >&2; \
	    exit 1; \
	fi

$(B)/check_ptx: $(UNIT_SRCS) test/unit/check_suites.h test/unit/json_check.h test/tree_equal.h $(B)/obj/test/tree_equal.o \
                $(B)/libptxfront.a | need-check
	$(CC) $(ALL_CFLAGS) -Itest $(CHECK_CFLAGS) -o $@ $(UNIT_SRCS) $(B)/obj/test/tree_equal.o $(B)/libptxfront.a \
	    $(CHECK_LIBS) $(ALL_LDFLAGS)

# loop-bounds.sh: every loop test takes its bound from its table.
# Sanitized, the tests run in one process (CK_FORK=no): forked, each of
# the ~1,950 tests ends a sanitized process, and LeakSanitizer's check at
# every exit took ~0.1 s of CPU each and most of that pass's time.  In one
# process every test still runs and leaks are still looked for, once at
# the end, over all of them; timeout(1) bounds the whole run in place of
# Check's per-test timeouts, which need fork.
unit: need-check $(B)/check_ptx
	sh test/unit/loop-bounds.sh $(UNIT_SRCS)
ifeq ($(SANITIZE),1)
	@echo "unit: sanitized: every test in one process (CK_FORK=no), leaks looked for at its end"
	CK_FORK=no timeout 1800 $(B)/check_ptx
else
	CK_DEFAULT_TIMEOUT=120 $(B)/check_ptx
endif

# every examples/NAME.c, built into $(B)/examples/NAME
EXAMPLES := $(patsubst examples/%.c,$(B)/examples/%,$(wildcard examples/*.c))
$(B)/examples/%: examples/%.c $(B)/libptxfront.a
	@mkdir -p $(B)/examples
	$(CC) $(ALL_CFLAGS) -o $@ $< $(B)/libptxfront.a $(ALL_LDFLAGS)

# the example programs, the README's embedding example among them (C, and C++:
# examples/opcount.cpp), built against
# an installed copy through pkg-config (test/install/run.sh); bbcount
# instruments the corpus (test/examples/bbcount.sh)
examples: all $(EXAMPLES)
	CC="$(CC) $(LDSAN)" CXX="$(CXX) $(LDSAN)" sh test/install/run.sh $(B)
	$(if $(filter 1,$(SANITIZE)),NO_PTXAS="sanitizer build") sh test/examples/bbcount.sh $(B)/examples/bbcount

# bad input: each test/errors/*.ptx against its .expected diagnostics
errors: $(B)/ptx-front
	sh test/errors/run.sh $(B)/ptx-front

# the command line: options, their combinations and usage errors, the
# instruction reference (test/cli/run.sh; --update rewrites the --explain
# goldens of test/cli/explain/)
cli: $(B)/ptx-front
	sh test/cli/run.sh $(B)/ptx-front

# ./configure && make on a copy of the sources with no Check to be found:
# the tool builds, make unit says what is missing (test/build/no-check.sh;
# the objects of $(B), compiled with the same settings, are copied in)
build-without-check: $(B)/ptx-front
	sh test/build/no-check.sh $(B)

# JSON schema 2: every corpus file's --json and --stats --json against
# tools/ptx-front.schema.json (python3-jsonschema), and --json's size
json-schema: $(B)/ptx-front
	sh test/json/run.sh $(B) $(SHARED)

# --diagnostics-format=json|sarif against their schemas, --color
diagnostics: $(B)/ptx-front
	sh test/diag/run.sh $(B)/ptx-front

# hostile input too large to commit, unreadable files, full disks
# (test/hostile/README.md lists every hostile case and its test)
hostile: $(B)/ptx-front
	SANITIZE=$(SANITIZE) sh test/hostile/run.sh $(B)/ptx-front

# valgrind memcheck on a corpus sample, every errors case and the unit
# tests (not part of make check: it takes several minutes)
valgrind: $(B)/ptx-front $(B)/check_ptx
	sh test/valgrind/run.sh $(B)

# the library's objects in a one-way order: any cycle between them, read
# from their symbol tables, fails and is printed with its symbols; the
# layers are printed otherwise (test/build/layering.sh)
layering: $(B)/libptxfront.a
	sh test/build/layering.sh $(B)/libptxfront.a

# the language server: a scripted client (Python, standard library only)
# speaks LSP to ptx-front --lsp and compares it with the CLI (test/lsp)
lsp: $(B)/ptx-front
	sh test/lsp/run.sh $(B)/ptx-front $(SHARED)

# hand-written modules with the mistakes people make, each judged by ptxas
# (test/mistakes/verdicts.tsv): every one ptxas rejects is rejected on its
# line, every one it accepts is accepted
mistakes: $(B)/ptx-front
	sh test/mistakes/run.sh $(B)/ptx-front

# the inline asm of CUDA C++: test/cuda/*.cu against nvcc's verdicts
# (test/cuda/verdicts.tsv, written by dev/cuda-verdicts.sh), nvcc asked
# again where it is installed
cuda: $(B)/ptx-front
	sh test/cuda/run.sh $(B)/ptx-front
# the asm statements of CUDA 13's headers (__ptx's generated ones, cub,
# cooperative groups) for the targets and versions their guards allow
# (test/cuda/headers.sh; test/cuda/known.tsv lists what ptxas rejects too)
cuda-headers: $(B)/ptx-front
	sh test/cuda/headers.sh $(B)/ptx-front
# ../shared/ptx-isa/experiments: each small module against ptxas's verdict
# (test/conformance/experiments-pending.tsv lists what is not rejected yet)
experiments: $(B)/ptx-front
	sh test/conformance/experiments.sh $(B)/ptx-front

# the graphs of every corpus file: DOT that dot renders cleanly, JSON
# valid against tools/graph.schema.json, every bra an edge (test/graphs)
$(B)/bra_edges: test/graphs/bra_edges.c $(B)/libptxfront.a
	$(CC) $(ALL_CFLAGS) -o $@ $< $(B)/libptxfront.a $(ALL_LDFLAGS)

graphs: $(B)/ptx-front $(B)/bra_edges
	sh test/graphs/run.sh $(B)

# rewrites the goldens that differ, printing each diff; one whose first
# diagnostic changed (or a new one) only when named: NAMES="a b"
update-golden: $(B)/ptx-front
	sh test/errors/run.sh $(B)/ptx-front --update $(NAMES)

# sanitized, every corpus file is still parsed, printed and reparsed;
# comparing cubins with ptxas tests the printer, not memory safety, and is
# left to the plain run (the report says so)
conformance: $(B)/ptx-front
	$(if $(filter 1,$(SANITIZE)),NO_PTXAS="sanitizer build") sh test/conformance/run.sh $(B)/ptx-front

SHARED ?= ../shared
# the PTX ptx-front writes assembles: --emit-ptx --function (and with
# --canonical, and several patterns) of the corpora's functions, each put
# to ptxas (test/emit/run.sh: a sample; EMIT_ALL=1 all, EMIT_JOBS=N)
emit-assembles: $(B)/ptx-front
	sh test/emit/run.sh $(B)/ptx-front

# the wild modules, unpacked once here for make wild and make twoways,
# which may run side by side (make -j); the scripts unpack them as this
# does when run on their own, and without the tarball skip, saying so
WILD_TAR := $(wildcard $(SHARED)/wild/ptx.tar.xz)
WILD_UNPACKED := $(if $(WILD_TAR),$(B)/wild/unpacked)
$(B)/wild/unpacked: $(WILD_TAR)
	rm -rf $(B)/wild/orig && mkdir -p $(B)/wild/orig
	xz -dc $< | tar -xf - -C $(B)/wild/orig
	touch $@

# ../shared/wild: modules from other producers, against ptxas's verdicts
# (unpacked into $(B)/wild)
wild: $(B)/ptx-front $(WILD_UNPACKED)
	sh test/conformance/wild.sh $(B)/ptx-front $(B)/wild

# single-edit mutations of corpus lines with ptxas's verdict: every case
# must agree with ptxas but those test/conformance/mutations-pending.tsv
# lists, with the reason (the list only shrinks: a listed case that agrees
# fails until it is taken off)
$(B)/mutations: test/conformance/mutations.c test/read_all.c test/read_all.h test/tree_equal.h \
               $(B)/obj/test/tree_equal.o $(B)/libptxfront.a
	$(CC) $(ALL_CFLAGS) -Itest -o $@ $< test/read_all.c $(B)/obj/test/tree_equal.o $(B)/libptxfront.a $(ALL_LDFLAGS)

# both ways: every input of the corpora, the error goldens, the hostile
# shapes, the LLVM modules, the mutations and test/twoways/cases parsed
# with the scanner's fast lane on and off, to the same tree and
# diagnostics, field by field (test/twoways/run.sh)
$(B)/twoways: test/twoways/twoways.c test/read_all.c test/read_all.h test/tree_equal.h \
              $(B)/obj/test/tree_equal.o $(B)/libptxfront.a
	$(CC) $(ALL_CFLAGS) -Itest -o $@ $< test/read_all.c $(B)/obj/test/tree_equal.o $(B)/libptxfront.a $(ALL_LDFLAGS)

twoways: $(B)/twoways $(B)/mutations $(WILD_UNPACKED)
	sh test/twoways/run.sh $(B) $(SHARED)

# the language beyond instruction modifiers (issue 31): the cases of
# test/conformance/lang.tsv, written by dev/langgen.py and judged by ptxas,
# replayed through the library; test/conformance/lang-pending.tsv lists the
# known disagreements with their reasons and only shrinks.  The table is
# committed: make check needs no ptxas for it
$(B)/lang: test/conformance/lang.c $(B)/libptxfront.a
	$(CC) $(ALL_CFLAGS) -o $@ $< $(B)/libptxfront.a $(ALL_LDFLAGS)

lang: $(B)/lang
	$(B)/lang -p test/conformance/lang-pending.tsv test/conformance/lang.tsv

# writes the table again: every case asked of ptxas (tens of minutes; not
# part of make check).  LANGGEN_FLAGS=--seed N --jobs N
LANGGEN_FLAGS ?= --seed 1 --jobs 2
lang-cases:
	@mkdir -p $(B)
	nice -n 10 python3 dev/langgen.py $(LANGGEN_FLAGS) --cache $(B)/langgen-cache.jsonl -o test/conformance/lang.tsv

# test/conformance/found.tsv: the cases dev/mutate found, hosts under $(SHARED)
mutations: $(B)/mutations
	@if [ -f $(SHARED)/mutations/public.tsv ]; then \
	    $(B)/mutations $(if $(CHECK_SAMPLE),-s $(CHECK_SAMPLE)) -p test/conformance/mutations-pending.tsv \
	        $(SHARED)/mutations/public.tsv $(SHARED)/corpus test/conformance/found.tsv $(SHARED); \
	else sh test/skip.sh mutations "$(SHARED)/mutations not found (the corpora live beside the checkout)"; fi

# Every skip of this run is listed at the end, under its suite
# (test/skip.sh writes them to SKIP_LOG, one file per suite); under
# REQUIRE_CORPORA=1 any skip fails its suite.
# make check SANITIZE=1 looks for memory and undefined-behaviour errors:
# every suite, but those that run over the corpora take 1 file in 8
# (test/sample.sh) and the mutation cases, each a corpus file, 1 in 8
# (mutations -s); the build without Check is left to the plain pass (it
# builds an unsanitized copy, the same in both)
# make -j2 check (as .ci/run and the README run it) runs the suites side
# by side, the longest first, so that the short ones fill in around them;
# each suite's output is printed whole when it ends (--output-sync below).
CHECK_SUITES := conformance emit-assembles examples graphs twoways python cuda-headers cuda json-schema hostile mutations build-without-check wild unit lsp lang experiments mistakes errors bench-smoke cli diagnostics layering docs ci-tools
# sanitized, the Python module is not tested either: an ASan-built
# extension cannot be loaded into the python3 that runs the tests (the
# plain pass tests it, and make fuzz drives it)
ifeq ($(SANITIZE),1)
CHECK_SUITES := $(filter-out build-without-check python,$(CHECK_SUITES))
export CHECK_SAMPLE := 8
endif
# make check builds every test program first, then starts the suites in
# that order: under make -j, a suite whose program is still being built
# is passed over for the next, and the long ones would start last
CHECK_PROGRAMS := $(B)/ptx-front $(B)/libptxfront.a $(B)/ptx-front.1 $(B)/check_ptx $(EXAMPLES) $(B)/twoways \
                  $(B)/mutations $(B)/lang $(B)/bra_edges $(B)/bench $(B)/tokenizer $(WILD_UNPACKED)
.PHONY: check-programs ci-tools
check-programs: $(CHECK_PROGRAMS)

# every tool the tests look for is installed by .ci/run (test/build/ci-tools.sh)
ci-tools:
	sh test/build/ci-tools.sh

# make check runs every suite, each in a make of its own that records
# whether it passed and what it skipped, even when an earlier one failed,
# so that one red suite hides no other; then test/summary.sh prints one
# line per suite and exits non-zero if any failed.
CHECK_RUNS := $(addprefix suite-,$(CHECK_SUITES))
.PHONY: $(CHECK_RUNS)
# (a suite whose name is a build target runs the target SUITE_TARGET_name)
SUITE_TARGET_python := python-check
$(CHECK_RUNS): suite-%: | check-programs
	@if SKIP_LOG="$$SUITE_LOG.skip.$*" $(MAKE) --no-print-directory $(or $(SUITE_TARGET_$*),$*); then \
	    echo "$*" >>"$$SUITE_LOG.passed"; else echo "$*" >>"$$SUITE_LOG.failed"; fi

check: export SUITE_LOG := $(abspath $(B))/suites.$(shell echo $$PPID)
check: check-programs
	@rm -f "$$SUITE_LOG".*
	@$(MAKE) --no-print-directory $(CHECK_RUNS)
	@sh test/summary.sh "$$SUITE_LOG" $(CHECK_SUITES)

# the mutation finder: new single-line mutations of the corpora, judged by
# ptxas and the library; prints the disagreements (see test/README.md)
$(B)/mutate: dev/mutate.c $(B)/libptxfront.a
	$(CC) $(ALL_CFLAGS) -o $@ $< $(B)/libptxfront.a $(ALL_LDFLAGS)

MUTATE_FLAGS ?= --per-opcode 8 --seed 1
mutate-corpus: $(B)/mutate
	nice -n 10 $(B)/mutate -v $(MUTATE_FLAGS) --root $(SHARED) --id found \
	    $(SHARED)/corpus/public/*.ptx $(SHARED)/ptx-isa/examples/*.ptx -o $(B)/mutate-found.tsv

# the speed and memory benchmark (not a test: numbers to read)
BENCH_RUNS ?= 5
$(B)/bench: dev/bench.c $(B)/libptxfront.a
	$(CC) $(ALL_CFLAGS) -o $@ $< $(B)/libptxfront.a $(ALL_LDFLAGS)

bench: $(B)/bench $(B)/ptx-front $(B)/tokenizer
	sh dev/bench.sh $(B) $(BENCH_RUNS)
	sh dev/python-bench.sh $(B) $(BENCH_RUNS) $(MAKE)
	$(MAKE) --no-print-directory lsp-bench

# the language server's speed on 1 MB and 10 MB modules, in server CPU
# time, held to issue 34's targets (test/bench/lsp_bench.py)
LSP_BENCH_RUNS ?= 15
.PHONY: lsp-bench
lsp-bench: $(B)/bench $(B)/ptx-front
	@if [ "$(HAVE_JANSSON)" != yes ]; then sh test/skip.sh lsp-bench "built without jansson: no --lsp"; \
	else python3 test/bench/lsp_bench.py $(B) $(LSP_BENCH_RUNS); fi

# make bench's yardstick: a bare Flex tokenizer made of the scanner's own
# patterns without their actions (dev/tokenizer.awk), with its FLEXFLAGS
$(B)/gen/tokenizer.l: grammar/ptx.l dev/tokenizer.awk
	@mkdir -p $(B)/gen
	awk -f dev/tokenizer.awk grammar/ptx.l >$@

$(B)/gen/tokenizer.yy.c: $(B)/gen/tokenizer.l
	$(FLEX) $(FLEXFLAGS) -o $@ $<

$(B)/obj/tokenizer.yy.o: $(B)/gen/tokenizer.yy.c
	@mkdir -p $(B)/obj
	$(CC) $(GEN_CFLAGS) -c -o $@ $<

$(B)/tokenizer: dev/tokenizer.c $(B)/obj/tokenizer.yy.o $(B)/libptxfront.a
	$(CC) $(ALL_CFLAGS) -o $@ dev/tokenizer.c $(B)/obj/tokenizer.yy.o $(B)/libptxfront.a $(ALL_LDFLAGS)

# make check only sees that the benchmark runs (test/bench/smoke.sh)
bench-smoke: $(B)/bench $(B)/ptx-front $(B)/tokenizer
	sh test/bench/smoke.sh $(B)
	@if [ "$(HAVE_JANSSON)" != yes ]; then sh test/skip.sh "bench-smoke: lsp-bench" "built without jansson: no --lsp"; \
	else python3 test/bench/lsp_bench.py $(B) --smoke; fi

# The CPython module ptxfront (python/ptxfront.c, doc/python.md):
# make python builds $(B)/python/ptxfront$(EXT_SUFFIX) against the python3
# on PATH (its sysconfig: headers, suffix), linked with the library's
# sources compiled again as position-independent code, symbols hidden but
# the module's init.  Python is asked once, by this rule, which then makes
# the module in a sub-make (other targets never start Python).
PYTHON ?= python3
PY_FLAGS := $(filter-out -Wpedantic,$(WARN)) $(WERROR) $(OPT) $(DEFS) $(INC) -fPIC -fvisibility=hidden $(CFLAGS)
PY_OBJS := $(patsubst src/%.c,$(B)/python/obj/%.o,$(LIB_SRCS)) \
           $(B)/python/obj/ptx.tab.o $(B)/python/obj/lex.yy.o $(B)/python/obj/isa_tables.o
.PHONY: python python-check python-bench
python:
	@inc=$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])') && \
	ext=$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))') && \
	if [ ! -f "$$inc/Python.h" ]; then \
	    echo "make python: $$inc/Python.h not found: install Python's headers (Debian: python3-dev)" >&2; exit 1; fi && \
	$(MAKE) --no-print-directory $(B)/python/ptxfront$$ext PY_INCLUDE="$$inc" && \
	echo "python: built $(B)/python/ptxfront$$ext (PYTHONPATH=$(B)/python python3 -c 'import ptxfront')"

$(B)/python/obj/%.o: src/%.c | $(GEN_HEADERS)
	@mkdir -p $(B)/python/obj
	$(CC) $(PY_FLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/python/obj/%.o: $(B)/gen/%.c | $(GEN_HEADERS)
	@mkdir -p $(B)/python/obj
	$(CC) $(filter-out -W%,$(PY_FLAGS)) -Wall -Wno-unused-function -Wno-unused-but-set-variable $(DEPFLAGS) -c -o $@ $<

.SECONDARY: $(PY_OBJS)
-include $(wildcard $(B)/python/obj/*.d)

ifneq ($(PY_INCLUDE),)
$(B)/python/ptxfront%: python/ptxfront.c $(PY_OBJS) $(HEADERS)
	$(CC) $(PY_FLAGS) -isystem $(PY_INCLUDE) -shared -o $@ python/ptxfront.c $(PY_OBJS) $(ALL_LDFLAGS)
endif

# the Python suite (test/python/run.sh: python/tests, unittest), skipped
# with a message where Python's headers are missing
python-check: $(B)/ptx-front
	sh test/python/run.sh $(B) "$(MAKE)"

# make bench's Python figures (dev/python-bench.sh, python/bench.py)
python-bench: $(B)/ptx-front $(B)/bench
	sh dev/python-bench.sh $(B) $(BENCH_RUNS) $(MAKE)

# libFuzzer targets (clang): make fuzz FUZZ_SECONDS=N runs each for N seconds;
# each parses every input both ways first (test/fuzz/both_ways.h)
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := parse roundtrip json cuda $(if $(filter yes,$(HAVE_JANSSON)),lsp)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_FLAGS := -std=c11 -g -O1 $(FUZZ_SAN) $(DEFS) $(INC)
# the library is compiled once, with coverage for libFuzzer, and linked
# into each target
FUZZ_OBJS := $(patsubst src/%.c,$(B)/fuzz/obj/%.o,$(LIB_SRCS)) \
             $(B)/fuzz/obj/ptx.tab.o $(B)/fuzz/obj/lex.yy.o $(B)/fuzz/obj/isa_tables.o

$(B)/fuzz/obj/%.o: src/%.c | $(GEN_HEADERS)
	@mkdir -p $(B)/fuzz/obj
	$(FUZZ_CC) $(FUZZ_FLAGS) $(DEPFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(B)/fuzz/obj/%.o: $(B)/gen/%.c | $(GEN_HEADERS)
	@mkdir -p $(B)/fuzz/obj
	$(FUZZ_CC) $(FUZZ_FLAGS) $(DEPFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(B)/fuzz/obj/test/%.o: test/%.c | $(GEN_HEADERS)
	@mkdir -p $(B)/fuzz/obj/test
	$(FUZZ_CC) $(FUZZ_FLAGS) $(DEPFLAGS) -Itest -fsanitize=fuzzer-no-link -c -o $@ $<

.SECONDARY: $(FUZZ_OBJS) $(B)/fuzz/obj/test/tree_equal.o $(B)/obj/test/tree_equal.o
# every target may use the strict JSON checker of the unit tests
$(B)/fuzz/fuzz_%: test/fuzz/fuzz_%.c test/fuzz/both_ways.h test/unit/json_check.c test/unit/json_check.h \
                  $(B)/fuzz/obj/test/tree_equal.o $(FUZZ_OBJS) $(HEADERS)
	@mkdir -p $(B)/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -Itest $(WARN) $(WERROR) -fsanitize=fuzzer -o $@ $< test/unit/json_check.c \
	    $(B)/fuzz/obj/test/tree_equal.o $(FUZZ_OBJS)

# the language server's message loop: tools/lsp.c and jansson as well
$(B)/fuzz/fuzz_lsp: test/fuzz/fuzz_lsp.c tools/lsp.c tools/lsp.h $(FUZZ_OBJS) $(HEADERS)
	@mkdir -p $(B)/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -Itools $(WARN) $(WERROR) $(JANSSON_CFLAGS) -fsanitize=fuzzer -o $@ $< tools/lsp.c \
	    $(FUZZ_OBJS) $(JANSSON_LIBS)

$(B)/fuzz/ptx.dict: $(B)/gen/isa.dict test/fuzz/syntax.dict
	cat test/fuzz/syntax.dict $(B)/gen/isa.dict > $@

# then the Python module's calls for as long (test/python/fuzz.sh)
fuzz: $(addprefix $(B)/fuzz/fuzz_,$(FUZZ_TARGETS)) $(B)/fuzz/ptx.dict
	sh test/fuzz/run.sh $(B)/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)
	sh test/python/fuzz.sh $(B) $(FUZZ_SECONDS) $(MAKE)

# everything the build made, which is all of $(B) but what ./configure
# wrote there (config.mk, configure.gen, config.log, config.status);
# distclean removes those too
clean:
	if [ -d $(B) ]; then find $(B) -mindepth 1 -maxdepth 1 ! -name config.mk ! -name configure.gen \
	    ! -name config.log ! -name config.status -exec rm -rf {} +; fi

distclean: clean
	rm -rf $(B)

VERSION := $(shell sed -n 's/^\#define PTX_FRONT_VERSION "\(.*\)"/\1/p' include/ptx/ptx.h)

# every JSON schema: the --json tree, the diagnostics, the graphs
SCHEMAS := $(sort $(wildcard tools/*.schema.json))

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	    $(DESTDIR)$(PREFIX)/include/ptx $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(PREFIX)/share/ptx-front
	install -m 755 $(B)/ptx-front $(DESTDIR)$(PREFIX)/bin/ptx-front
	install -m 644 $(B)/libptxfront.a $(DESTDIR)$(PREFIX)/lib/libptxfront.a
	install -m 755 $(B)/$(SHLIB) $(DESTDIR)$(PREFIX)/lib/$(SHLIB)
	ln -sf $(SHLIB) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SHLIB) $(DESTDIR)$(PREFIX)/lib/libptxfront.so
	install -m 644 include/ptx/*.h $(B)/include/ptx/isa.h $(DESTDIR)$(PREFIX)/include/ptx/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' tools/ptxfront.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/ptxfront.pc
	install -m 644 $(B)/ptx-front.1 $(DESTDIR)$(PREFIX)/share/man/man1/ptx-front.1
	install -m 644 $(SCHEMAS) $(DESTDIR)$(PREFIX)/share/ptx-front/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ptx-front $(DESTDIR)$(PREFIX)/lib/libptxfront.a \
	    $(addprefix $(DESTDIR)$(PREFIX)/lib/,$(SHLIB) $(SONAME) libptxfront.so) \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig/ptxfront.pc $(DESTDIR)$(PREFIX)/share/man/man1/ptx-front.1 \
	    $(addprefix $(DESTDIR)$(PREFIX)/share/ptx-front/,$(notdir $(SCHEMAS)))
	-rmdir $(DESTDIR)$(PREFIX)/share/ptx-front 2>/dev/null
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/include/ptx/,$(notdir $(wildcard include/ptx/*.h)) isa.h)
	-rmdir $(DESTDIR)$(PREFIX)/include/ptx 2>/dev/null

# the examples, built as a user would: against an installed copy, found
# through pkg-config
installcheck: all
	sh test/install/run.sh $(B)
