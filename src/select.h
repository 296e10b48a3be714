/* --function's selection (select.c): what the functions a filter accepts
 * need printed with them. */
#ifndef PTX_SELECT_H
#define PTX_SELECT_H

#include "internal.h"

/* A set of interned names (pointers), open addressing: those the
 * accepted functions, and the functions they call, name. */
typedef struct ptx_needed {
    const ptx_name **slots;
    size_t mask, count;
    bool nomem;
} ptx_needed;

/* Fills s (zeroed) from the items of m that filter accepts and, until no
 * new one is named, the functions defined in m that they name.  PTX_OK or
 * PTX_ERR_NOMEM; ptx_needed_free frees s either way. */
ptx_status ptx_needed_collect(ptx_needed *s, const ptx_module *m, ptx_print_filter filter,
                              void *filter_user);
/* An item the filter refuses that is printed all the same: a variable or
 * a function that a printed function names. */
bool ptx_needed_item(const ptx_needed *s, const ptx_node *n);
/* A function defined in m that a printed function calls or names:
 * printed whole, so that the output assembles alone. */
bool ptx_needed_whole(const ptx_needed *s, const ptx_node *n);
void ptx_needed_free(ptx_needed *s);

#endif
