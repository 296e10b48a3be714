/* The instruction tables as the PTX manual writes them (isa_text.c): for
 * the instruction reference of the CLI and for the "form:" text of
 * diagnostics, so that both speak the same notation. */
#ifndef PTX_ISA_TEXT_H
#define PTX_ISA_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "isa_tables.h"

/* Writes form `f` in the manual's notation into buf (NUL-terminated,
 * truncated to n bytes): the instruction name, its modifiers, a modifier
 * set of several values as a placeholder (`.type`, `.rnd`, `{.ss}`), an
 * optional modifier in braces, a modifier that may be repeated once, and,
 * with `operands`, the operands (`d, [a], {!}c`).  No internal set names.
 * Returns the length the whole text needs. */
size_t ptx_isa_form_syntax(const ptx_isa_form *f, bool operands, char *buf, size_t n);

/* Writes the placeholders of form `f` with their values, one per line,
 * each line starting with `indent` (".type = { .u16, .u32 }\n").  Returns
 * the length the whole text needs; 0 when the form has no placeholder. */
size_t ptx_isa_form_placeholders(const ptx_isa_form *f, const char *indent, char *buf, size_t n);

/* Writes form `f` on one line for messages: the syntax without operands,
 * then each placeholder's values ("st{.global}.type; .type = { .b32,
 * .u32 }"); at most n bytes with the NUL; returns the length written. */
size_t ptx_isa_form_text(const ptx_isa_form *f, char *buf, size_t n);

/* The instruction names of --list-instructions, sorted, for naming the
 * instructions of a module (--stats): ptx_isa_names_new (NULL when out of
 * memory), ptx_isa_names_free. */
typedef struct ptx_isa_names ptx_isa_names;
ptx_isa_names *ptx_isa_names_new(void);
void ptx_isa_names_free(ptx_isa_names *names);

struct ptx_instr;
/* The name of instruction `in` as the list writes it: its opcode and the
 * longest run of its first modifiers that makes a listed name (bar.sync,
 * mbarrier.test_wait, ld.global.nc), else the opcode alone.  The text is
 * the list's (freed with it) or the opcode's interned name. */
const char *ptx_isa_name_of(const ptx_isa_names *names, const struct ptx_instr *in);

#endif
