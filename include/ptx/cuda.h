/* ptx-front: the inline PTX of CUDA C++ (asm statements in .cu files).
 *
 * Included by ptx/ptx.h.  A context that reads CUDA C++ holds the C++ text
 * as its source (ptx_context_source) and no module: each asm statement's
 * template is read as nvcc hands it to ptxas (adjacent string literals
 * joined, escapes read, %% and %N replaced by what the constraints make of
 * the operands) and checked as the body of a kernel, alone; every
 * diagnostic is given at the .cu line and column inside the string
 * literal where the PTX text came from, followed by a note that shows the
 * PTX line.  doc/inline-asm.md describes the rules.
 */
#ifndef PTX_CUDA_H
#define PTX_CUDA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ptx_cuda_options {
    /* the architecture nvcc is given (-arch=sm_90a); NULL: sm_75, nvcc
     * 13's default */
    const char *target;
    /* the PTX ISA version to assume ("8.7"); NULL: the newest the tables
     * know (PTX_CUDA_NEWEST_PTX) */
    const char *ptx_version;
    /* optional: the text of the source after the C preprocessor (with its
     * "# LINE "FILE"" markers, as cpp writes them).  The asm statements
     * are then read from it (macros expanded, #if settled), those of the
     * main file only, and their positions are found in the source
     * itself.  NULL: the source is read as it is (see doc/inline-asm.md). */
    const char *preprocessed;
    size_t preprocessed_len;
} ptx_cuda_options;

#define PTX_CUDA_NEWEST_PTX "9.0"
#define PTX_CUDA_DEFAULT_TARGET "sm_75"

/* What a CUDA parse found: asm statements in all, those checked, those
 * left unchecked (a template that is not a string literal, an operand
 * of a constraint not read, an asm in a macro definition: each has a
 * note saying why), and those checked with an error. */
typedef struct ptx_cuda_counts {
    size_t statements;
    size_t checked;
    size_t skipped;
    size_t rejected;
} ptx_cuda_counts;

/* Reads `len` bytes at `data` as CUDA C++ and checks every asm statement
 * in it (see above); `opt` may be NULL (the defaults).  The bytes are
 * copied, like ptx_parse_buffer's; a context parses once.  PTX_OK,
 * PTX_ERR_INPUT when a diagnostic is an error, PTX_ERR_NOMEM, or
 * PTX_ERR_USAGE for a target or version the tables do not know (or a
 * target that needs a later version): the context then holds one error
 * diagnostic, without a position, that says why. */
ptx_status ptx_parse_cuda(ptx_context *ctx, const char *name, const char *data, size_t len,
                          const ptx_cuda_options *opt);

/* The same for the file at `path` ("-": standard input); PTX_ERR_IO when
 * it cannot be read (ptx_context_io_error says why). */
ptx_status ptx_parse_cuda_file(ptx_context *ctx, const char *path, const ptx_cuda_options *opt);

/* The counts of the context's CUDA parse (all zero for a PTX parse). */
ptx_cuda_counts ptx_context_cuda_counts(const ptx_context *ctx);

/* Whether a file name is one of CUDA C++ (".cu", ".cuh"): what the CLI
 * reads as such without --lang=cuda. */
bool ptx_is_cuda_filename(const char *path);

#ifdef __cplusplus
}
#endif

#endif
