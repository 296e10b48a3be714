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

#endif
