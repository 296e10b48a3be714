/* Diagnostics for tools (ptx-front --diagnostics-format=json|sarif): one
 * document for all the files of a run.  JSON follows GCC's
 * -fdiagnostics-format=json (an array of {kind, message, locations with
 * caret and finish, fixits, children for the notes}); SARIF is version
 * 2.1.0, what code-scanning services read.  Both are described by the
 * schemas the tests validate them against (test/diag/). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct ptx_diag_doc {
    ptx_diag_format format;
    ptx_out o;                  /* the document, written as it grows */
    bool any;                   /* a result was written: commas */
};

static const char *const code_names[] = {
    [PTX_DIAG_SYNTAX] = "syntax", [PTX_DIAG_CHAR] = "char", [PTX_DIAG_NONASCII] = "nonascii",
    [PTX_DIAG_LITERAL] = "literal", [PTX_DIAG_UNTERMINATED] = "unterminated",
    [PTX_DIAG_PREPROCESSOR] = "preprocessor", [PTX_DIAG_HEADER] = "header", [PTX_DIAG_DECL] = "decl",
    [PTX_DIAG_DIRECTIVE] = "directive", [PTX_DIAG_EXPR] = "expr", [PTX_DIAG_LIMIT] = "limit",
    [PTX_DIAG_UNSUPPORTED] = "unsupported", [PTX_DIAG_INSTRUCTION] = "instruction",
    [PTX_DIAG_SYMBOL] = "symbol", [PTX_DIAG_TYPE] = "type",
};

/* What each code means, for SARIF's rules: a short description and a
 * help text (the reader of a code-scanning report sees them beside each
 * result); doc/diagnostics.md says the same at length. */
static const struct {
    const char *text, *help;
} code_docs[] = {
    [PTX_DIAG_SYNTAX] = { "The grammar does not allow this token here.",
                          "A statement is malformed: a missing ',' or ';', a misplaced brace or directive. "
                          "The message names what was expected." },
    [PTX_DIAG_CHAR] = { "A character that starts no PTX token.",
                        "Remove the character, or put it in a comment." },
    [PTX_DIAG_NONASCII] = { "A byte outside ASCII outside a comment or string.",
                            "PTX is ASCII: ptxas refuses other bytes outside comments." },
    [PTX_DIAG_LITERAL] = { "A malformed or out-of-range literal.",
                           "Write integers as decimal, 0x, 0b or octal, floats as 0f/0d hex or decimal, "
                           "within the range of their type." },
    [PTX_DIAG_UNTERMINATED] = { "An unterminated comment or string.", "Close the /* comment or the \" string." },
    [PTX_DIAG_PREPROCESSOR] = { "A preprocessor line other than a line marker.",
                                "ptxas does not run the C preprocessor: expand the module first." },
    [PTX_DIAG_HEADER] = { "A missing, misplaced or unknown .version, .target or .address_size.",
                          "A module starts with .version, then .target; the target must exist in the "
                          "version the module states." },
    [PTX_DIAG_DECL] = { "A malformed declaration.",
                        "Check the state space, the type, the alignment, the array sizes and the "
                        "initialiser; some need a later PTX version or target." },
    [PTX_DIAG_DIRECTIVE] = { "A malformed or misplaced directive.",
                             "The directive is not allowed here, takes other values, or needs a later "
                             "PTX version or target." },
    [PTX_DIAG_EXPR] = { "A malformed expression or operand.",
                        "The operand has a shape the instruction or the declaration does not take." },
    [PTX_DIAG_LIMIT] = { "A documented limit was reached.",
                         "The input exceeds one of ptx-front's limits (doc/limits.md); it is reported, "
                         "not truncated silently." },
    [PTX_DIAG_UNSUPPORTED] = { "A construct ptxas no longer accepts.",
                               "ptxas 13.0 refuses this old form: the message says what replaces it." },
    [PTX_DIAG_INSTRUCTION] = { "An instruction the PTX ISA tables do not allow.",
                               "The opcode, its modifiers or its operands match no form of the instruction "
                               "for the module's version and target: see ptx-front --explain OPCODE." },
    [PTX_DIAG_SYMBOL] = { "An unknown, misused or duplicate name.",
                          "Declare the name before use, once per scope, and use it as its kind allows "
                          "(a label, a register, a variable, a function)." },
    [PTX_DIAG_TYPE] = { "An operand whose type the instruction does not take.",
                        "The register or literal's declared type does not fit the instruction's type: "
                        "declare it with a matching type or change the instruction's type modifier." },
};

_Static_assert(sizeof code_docs / sizeof *code_docs == sizeof code_names / sizeof *code_names,
               "every code has its rule's description");

const char *ptx_diag_code_name(ptx_diag_code c)
{
    return (unsigned)c < sizeof code_names / sizeof *code_names && code_names[c] ? code_names[c] : "other";
}

static void str(ptx_out *o, const char *s)
{
    ptx_out_json_str(o, s, strlen(s));
}

ptx_diag_doc *ptx_diag_doc_new(ptx_diag_format format, ptx_write_fn write, void *user)
{
    if (!write || format < PTX_DIAG_FORMAT_JSON || format > PTX_DIAG_FORMAT_SARIF)
        return NULL;
    ptx_diag_doc *doc = malloc(sizeof *doc);
    if (!doc)
        return NULL;
    doc->format = format;
    doc->any = false;
    ptx_out_init(&doc->o, write, user);
    if (format == PTX_DIAG_FORMAT_JSON) {
        ptx_out_char(&doc->o, '[');
        return doc;
    }
    ptx_out_str(&doc->o, "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
                         "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"ptx-front\",\"version\":\"" PTX_FRONT_VERSION "\","
                         "\"informationUri\":\"https://docs.nvidia.com/cuda/parallel-thread-execution/\","
                         "\"rules\":[");
    for (unsigned c = PTX_DIAG_SYNTAX; c < sizeof code_names / sizeof *code_names; c++) {
        ptx_out_fmt(&doc->o, "%s{\"id\":\"%s\",\"shortDescription\":{\"text\":",
                    c == PTX_DIAG_SYNTAX ? "" : ",", code_names[c]);
        str(&doc->o, code_docs[c].text);
        ptx_out_str(&doc->o, "},\"help\":{\"text\":");
        str(&doc->o, code_docs[c].help);
        ptx_out_str(&doc->o, "}}");
    }
    ptx_out_str(&doc->o, "]}},\"columnKind\":\"unicodeCodePoints\",\"results\":[");
    return doc;
}

/* GCC's location: {"file":..., "line":..., "column":...} (1-based) */
static void gcc_point(ptx_out *o, const ptx_context *ctx, uint32_t off, size_t *hint)
{
    ptx_position p = ptx_position_near(ctx, off, hint);
    ptx_out_str(o, "{\"file\":");
    str(o, ptx_context_filename(ctx));
    ptx_out_fmt(o, ",\"line\":%u,\"column\":%u}", p.line ? p.line : 1, p.col ? p.col : 1);
}

static void gcc_one(ptx_out *o, const ptx_context *ctx, const ptx_diag *d, size_t *hint)
{
    static const char *const kinds[] = { "note", "warning", "error" };
    ptx_out_str(o, "{\"kind\":\"");
    ptx_out_str(o, kinds[d->severity <= PTX_SEV_ERROR ? d->severity : 2]);
    ptx_out_str(o, "\",\"code\":\"");
    ptx_out_str(o, ptx_diag_code_name(d->code));
    ptx_out_str(o, "\",\"message\":");
    str(o, d->message);
    ptx_out_str(o, ",\"locations\":[{\"caret\":");
    gcc_point(o, ctx, d->span.off, hint);
    if (d->span.len > 1) {
        /* GCC's finish is the range's last character, not one past it */
        ptx_out_str(o, ",\"finish\":");
        gcc_point(o, ctx, d->span.off + d->span.len - 1, hint);
    }
    ptx_out_str(o, "}],\"fixits\":[");
    if (d->fixit) {
        ptx_out_str(o, "{\"start\":");
        gcc_point(o, ctx, d->span.off, hint);
        ptx_out_str(o, ",\"next\":");
        gcc_point(o, ctx, d->span.off + d->span.len, hint);
        ptx_out_str(o, ",\"string\":");
        str(o, d->fixit);
        ptx_out_char(o, '}');
    }
    ptx_out_char(o, ']');
}

/* The position of `off` for SARIF: its column counts code points, as the
 * run's columnKind says, where the context's counts bytes (a UTF-8
 * character before it on its line, in a comment or a string, is one
 * column). */
static ptx_position sarif_point(const ptx_context *ctx, uint32_t off, size_t *hint)
{
    ptx_position p = ptx_position_near(ctx, off, hint);
    if (!p.line)
        return (ptx_position){ 1, 1 };
    if (off > ctx->srclen)
        off = (uint32_t)ctx->srclen;
    uint32_t col = 1;
    for (uint32_t i = off - (p.col - 1); i < off; i++)
        col += ((unsigned char)ctx->src[i] & 0xC0) != 0x80;
    p.col = col;
    return p;
}

/* SARIF's region: startLine, startColumn, endLine, endColumn (one past) */
static void sarif_location(ptx_out *o, const ptx_context *ctx, ptx_span s, size_t *hint, const char *message)
{
    ptx_position a = sarif_point(ctx, s.off, hint);
    ptx_position b = sarif_point(ctx, s.off + s.len, hint);
    ptx_out_str(o, "{\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
    str(o, ptx_context_filename(ctx));
    ptx_out_fmt(o, "},\"region\":{\"startLine\":%u,\"startColumn\":%u,\"endLine\":%u,\"endColumn\":%u}}",
                a.line, a.col, b.line, b.col);
    if (message) {
        ptx_out_str(o, ",\"message\":{\"text\":");
        str(o, message);
        ptx_out_char(o, '}');
    }
    ptx_out_char(o, '}');
}

static void sarif_one(ptx_out *o, const ptx_context *ctx, const ptx_diag *d, size_t *hint)
{
    static const char *const levels[] = { "note", "warning", "error" };
    ptx_out_str(o, "{\"ruleId\":\"");
    ptx_out_str(o, ptx_diag_code_name(d->code));
    ptx_out_str(o, "\",\"level\":\"");
    ptx_out_str(o, levels[d->severity <= PTX_SEV_ERROR ? d->severity : 2]);
    ptx_out_str(o, "\",\"message\":{\"text\":");
    str(o, d->message);
    ptx_out_str(o, "},\"locations\":[");
    sarif_location(o, ctx, d->span, hint, NULL);
    ptx_out_char(o, ']');
    if (d->fixit) {
        ptx_position a = sarif_point(ctx, d->span.off, hint);
        ptx_position b = sarif_point(ctx, d->span.off + d->span.len, hint);
        ptx_out_str(o, ",\"fixes\":[{\"description\":{\"text\":\"replace with '");
        ptx_out_json_chars(o, d->fixit, strlen(d->fixit));
        ptx_out_str(o, "'\"},\"artifactChanges\":[{\"artifactLocation\":{\"uri\":");
        str(o, ptx_context_filename(ctx));
        ptx_out_fmt(o, "},\"replacements\":[{\"deletedRegion\":{\"startLine\":%u,\"startColumn\":%u,"
                       "\"endLine\":%u,\"endColumn\":%u},\"insertedContent\":{\"text\":",
                    a.line, a.col, b.line, b.col);
        str(o, d->fixit);
        ptx_out_str(o, "}}]}]}]");
    }
}

ptx_status ptx_diag_doc_add(ptx_diag_doc *doc, const ptx_context *ctx)
{
    if (!doc || !ctx)
        return PTX_ERR_USAGE;
    ptx_out *o = &doc->o;
    size_t hint = 0;
    size_t n = ptx_diag_count(ctx);
    for (size_t i = 0; i < n; i++) {
        const ptx_diag *d = ptx_diag_get(ctx, i);
        /* a note belongs to the diagnostic before it: GCC's children,
         * SARIF's related locations */
        size_t notes = 0;
        while (i + 1 + notes < n && ptx_diag_get(ctx, i + 1 + notes)->severity == PTX_SEV_NOTE &&
               d->severity != PTX_SEV_NOTE)
            notes++;
        if (doc->any)
            ptx_out_char(o, ',');
        doc->any = true;
        if (doc->format == PTX_DIAG_FORMAT_JSON) {
            gcc_one(o, ctx, d, &hint);
            ptx_out_str(o, ",\"children\":[");
            for (size_t k = 1; k <= notes; k++) {
                gcc_one(o, ctx, ptx_diag_get(ctx, i + k), &hint);
                ptx_out_str(o, k < notes ? "},": "}");
            }
            ptx_out_str(o, "]}");
        } else {
            sarif_one(o, ctx, d, &hint);
            if (notes) {
                ptx_out_str(o, ",\"relatedLocations\":[");
                for (size_t k = 1; k <= notes; k++) {
                    const ptx_diag *nd = ptx_diag_get(ctx, i + k);
                    sarif_location(o, ctx, nd->span, &hint, nd->message);
                    if (k < notes)
                        ptx_out_char(o, ',');
                }
                ptx_out_char(o, ']');
            }
            ptx_out_char(o, '}');
        }
        i += notes;
    }
    ptx_out_flush(o);
    return o->failed ? PTX_ERR_IO : PTX_OK;
}

ptx_status ptx_diag_doc_finish(ptx_diag_doc *doc)
{
    if (!doc)
        return PTX_ERR_USAGE;
    ptx_out_str(&doc->o, doc->format == PTX_DIAG_FORMAT_JSON ? "]\n" : "]}]}\n");
    ptx_status st = ptx_out_finish(&doc->o);
    free(doc);
    return st;
}
