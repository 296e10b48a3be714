/* Version gates of directives and attributes: the PTX ISA version, and for
 * some the target, from which ptxas accepts each (the instructions have
 * theirs in the ISA tables).  Every row was asked of ptxas 13.0 at its
 * boundary: the version before is refused with "Feature '...' requires
 * PTX ISA .version M.N or later", the target below with "requires .target
 * sm_NN or higher".  test/sema/gates.tsv holds, for every row, a case
 * ptxas accepts at its version (and target) and one it refuses at the
 * version before (and on the target below); test/unit/check_pinned.c
 * fails for a row without them. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const struct gate {
    const char *what;           /* as the source spells it */
    uint8_t major, minor;       /* the first PTX ISA version with it */
    uint8_t sm;                 /* the first target with it (0: any) */
} gates[] = {
    { ".maxnreg", 1, 3, 0 },
    { ".maxntid", 1, 3, 0 },
    { ".maxnctapersm", 1, 3, 0 },
    { ".texref", 1, 5, 0 },
    { ".samplerref", 1, 5, 0 },
    { ".surfref", 1, 5, 0 },
    { ".minnctapersm", 2, 0, 0 },
    { ".pragma", 2, 0, 0 },
    { ".section", 2, 0, 0 },
    { ".reqntid", 2, 1, 0 },
    { ".callprototype", 2, 1, 0 },
    { ".calltargets", 2, 1, 0 },
    { ".ptr", 2, 2, 0 },
    { ".address_size", 2, 3, 0 },
    { ".weak", 3, 1, 0 },
    { ".file with timestamp and size", 3, 2, 0 },
    { ".attribute", 4, 0, 0 },
    { ".common", 5, 0, 0 },
    { ".branchtargets", 6, 0, 0 },
    { ".alias", 6, 3, 0 },
    { ".noreturn", 6, 4, 0 },
    { ".explicitcluster", 7, 8, 90 },
    { ".reqnctapercluster", 7, 8, 90 },
    { ".maxclusterrank", 7, 8, 90 },
    { ".unified", 8, 0, 90 },
    { ".pragma \"used_bytes_mask\"", 8, 3, 0 },
    { ".pragma \"enable_smem_spilling\"", 8, 7, 0 },
    { ".local_maxnreg", 8, 8, 0 },
    { ".hidden", 8, 8, 0 },
    { ".pragma \"frequency\"", 9, 0, 0 },
    { ".abi_preserve", 9, 0, 80 },
    { ".abi_preserve_control", 9, 0, 80 },
    { ".blocksareclusters", 9, 0, 90 },
};

const char *ptx_gate_row(size_t i, unsigned *major, unsigned *minor, unsigned *sm)
{
    if (i >= sizeof gates / sizeof *gates)
        return NULL;
    *major = gates[i].major;
    *minor = gates[i].minor;
    *sm = gates[i].sm;
    return gates[i].what;
}

unsigned ptx_target_sm(const char *t)
{
    const char *d = !strncmp(t, "sm_", 3) ? t + 3 : !strncmp(t, "compute_", 8) ? t + 8 : NULL;
    return d && *d >= '0' && *d <= '9' ? (unsigned)strtoul(d, NULL, 10) : 0;
}

unsigned ptx_module_sm(const ptx_module *m)
{
    for (uint32_t i = 0; i < m->ntargets; i++) {
        unsigned sm = ptx_target_sm(m->targets[i]->text);
        if (sm)
            return sm;
    }
    return 0;
}

bool ptx_gate(ptx_context *ctx, const char *what, ptx_span at)
{
    const ptx_module *m = ctx->module;
    size_t k = 0, n = sizeof gates / sizeof *gates;
    while (k < n && strcmp(gates[k].what, what) != 0)
        k++;
    if (!m || k == n)
        return true;
    const struct gate *g = &gates[k];
    if (m->version_major < g->major ||
        (m->version_major == g->major && m->version_minor < g->minor)) {
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_DIRECTIVE, at,
                     "'%s' requires PTX ISA .version %u.%u or later; this module is %u.%u",
                     what, g->major, g->minor, m->version_major, m->version_minor);
        return false;
    }
    unsigned sm = ptx_module_sm(m);
    if (g->sm && sm && sm < g->sm) {
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_DIRECTIVE, at,
                     "'%s' requires .target sm_%u or higher; this module targets sm_%u",
                     what, g->sm, sm);
        return false;
    }
    return true;
}
