/* The semantic pass: special registers (%tid, %clock64, ...), each with
 * its type and the PTX version and target that introduced it. */
#include "sema_impl.h"

/* ---- special registers --------------------------------------------------- */


/* PTX ISA 9.0 section 10 (../shared/ptx-isa/spec-data/special_registers.md) */
static const sreg sregs[] = {
    { "%tid", 'u', 32, 1, 0, 16, 1, 0, 0 },
    { "%ntid", 'u', 32, 1, 0, 16, 1, 0, 0 },
    { "%laneid", 'u', 32, 0, 0, 0, 1, 3, 0 },
    { "%warpid", 'u', 32, 0, 0, 0, 1, 3, 0 },
    { "%nwarpid", 'u', 32, 0, 0, 0, 2, 0, 20 },
    { "%ctaid", 'u', 32, 1, 0, 16, 1, 0, 0 },
    { "%nctaid", 'u', 32, 1, 0, 16, 1, 0, 0 },
    { "%smid", 'u', 32, 0, 0, 0, 1, 3, 0 },
    { "%nsmid", 'u', 32, 0, 0, 0, 2, 0, 20 },
    { "%gridid", 'u', 64, 0, 0, 32, 1, 0, 0 },
    { "%is_explicit_cluster", 'p', 1, 0, 0, 0, 7, 8, 90 },
    { "%clusterid", 'u', 32, 1, 0, 0, 7, 8, 90 },
    { "%nclusterid", 'u', 32, 1, 0, 0, 7, 8, 90 },
    { "%cluster_ctaid", 'u', 32, 1, 0, 0, 7, 8, 90 },
    { "%cluster_nctaid", 'u', 32, 1, 0, 0, 7, 8, 90 },
    { "%cluster_ctarank", 'u', 32, 0, 0, 0, 7, 8, 90 },
    { "%cluster_nctarank", 'u', 32, 0, 0, 0, 7, 8, 90 },
    { "%lanemask_eq", 'u', 32, 0, 0, 0, 2, 0, 20 },
    { "%lanemask_le", 'u', 32, 0, 0, 0, 2, 0, 20 },
    { "%lanemask_lt", 'u', 32, 0, 0, 0, 2, 0, 20 },
    { "%lanemask_ge", 'u', 32, 0, 0, 0, 2, 0, 20 },
    { "%lanemask_gt", 'u', 32, 0, 0, 0, 2, 0, 20 },
    { "%clock", 'u', 32, 0, 0, 0, 1, 0, 0 },
    { "%clock_hi", 'u', 32, 0, 0, 0, 5, 0, 20 },
    { "%clock64", 'u', 64, 0, 0, 0, 2, 0, 20 },
    { "%pm", 'u', 32, 0, 8, 0, 1, 3, 0 },
    /* the spec says 2.1; ptxas 13.0 takes %envreg from 1.0 */
    { "%envreg", 'b', 32, 0, 32, 0, 1, 0, 0 },
    { "%globaltimer", 'u', 64, 0, 0, 0, 3, 1, 30 },
    { "%globaltimer_lo", 'u', 32, 0, 0, 0, 3, 1, 30 },
    { "%globaltimer_hi", 'u', 32, 0, 0, 0, 3, 1, 30 },
    { "%reserved_smem_offset_begin", 'b', 32, 0, 0, 0, 7, 6, 80 },
    { "%reserved_smem_offset_end", 'b', 32, 0, 0, 0, 7, 6, 80 },
    { "%reserved_smem_offset_cap", 'b', 32, 0, 0, 0, 7, 6, 80 },
    { "%reserved_smem_offset_", 'b', 32, 0, 2, 0, 7, 6, 80 },
    { "%total_smem_size", 'u', 32, 0, 0, 0, 4, 1, 20 },
    { "%aggr_smem_size", 'u', 32, 0, 0, 0, 8, 1, 90 },
    { "%dynamic_smem_size", 'u', 32, 0, 0, 0, 4, 1, 20 },
    { "%current_graph_exec", 'u', 64, 0, 0, 0, 8, 0, 50 },
};

/* %pm0_64 .. %pm7_64 (PTX 4.0, sm_50) */
static const sreg pm64 = { "%pm_64", 'u', 64, 0, 8, 0, 4, 0, 50 };
/* %pm4 .. %pm7 came later than %pm0 .. %pm3: ptxas 13.0 wants PTX 3.0
 * and sm_20 for them */
static const sreg pm4 = { "%pm", 'u', 32, 0, 8, 0, 3, 0, 20 };

const sreg *sema_sreg_find(const ptx_name *name)
{
    const char *t = name->text;
    for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++) {
        const sreg *r = &sregs[i];
        size_t n = strlen(r->name);
        if (strncmp(t, r->name, n) != 0)
            continue;
        if (!r->count) {
            if (!t[n])
                return r;
            continue;
        }
        /* numbered: %pm3, %envreg31, %reserved_smem_offset_1, %pm3_64 */
        const char *d = t + n;
        unsigned v = 0, nd = 0;
        while (d[nd] >= '0' && d[nd] <= '9' && nd < 3)
            v = v * 10 + (unsigned)(d[nd++] - '0');
        if (!nd || (nd > 1 && d[0] == '0'))
            continue;
        if (!d[nd] && v < r->count)
            return r->count == 8 && v >= 4 ? &pm4 : r;
        if (r->count == 8 && !strcmp(d + nd, "_64") && v < 8)
            return &pm64;
    }
    return NULL;
}

