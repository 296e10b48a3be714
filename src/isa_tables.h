/* The shapes of the tables tools/isagen generates from grammar/isa/. */
#ifndef PTX_ISA_TABLES_H
#define PTX_ISA_TABLES_H

#include <stdint.h>

#include "ptx/isa.h"

/* operand acceptance bits (tools/isagen.c writes them) */
enum {
    PTX_ACC_NAME = 1, PTX_ACC_IMM = 2, PTX_ACC_PRED = 4, PTX_ACC_NOTPRED = 8,
    PTX_ACC_ADDR = 16, PTX_ACC_VEC = 32, PTX_ACC_LABEL = 64, PTX_ACC_LIST = 128,
    PTX_ACC_SINK = 256, PTX_ACC_PAIR = 512, PTX_ACC_IMAGE = 1024,
    PTX_ACC_F32BITS = 2048      /* a 0f constant (mma.sp's metadata) */
};

/* ptx_isa_operand.vec */
enum { PTX_VEC_FROM_MOD = 0, PTX_VEC_ANY = -1, PTX_VEC_SIZES = -2 };

/* slot kinds */
enum { PTX_SLOT_LIT = 0, PTX_SLOT_OPT_LIT = 1, PTX_SLOT_SET = 2, PTX_SLOT_OPT_SET = 3 };

typedef struct ptx_isa_set {
    const char *name;
    uint8_t category;           /* ptx_mod_category */
    uint16_t n;
    const uint16_t *mods;       /* ptx_modifier values */
} ptx_isa_set;

typedef struct ptx_isa_slot {
    uint8_t kind;               /* PTX_SLOT_* */
    uint16_t ref;               /* a ptx_modifier for literals, a set index */
    uint8_t category;           /* ptx_mod_category of what fills it */
} ptx_isa_slot;

/* A selector set: the dot-words a register operand may carry (r.b0,
 * r.b3210); a pattern's [0-7] matches one character of the range. */
typedef struct ptx_isa_selector {
    const char *name;
    uint16_t n;
    const char *const *patterns;
} ptx_isa_selector;

typedef struct ptx_isa_operand {
    uint16_t accept;            /* PTX_ACC_* */
    int16_t vec;                /* vector size: N, or PTX_VEC_* */
    uint32_t sizes;             /* PTX_VEC_SIZES: bit N for each size N accepted */
    uint16_t items;             /* PTX_ACC_* of list or vector elements; 0: the default */
    uint16_t selector;          /* ptx_isa_selectors index + 1; 0: selectors unchecked */
    uint8_t coords;             /* PTX_ACC_IMAGE: the fewest coordinates */
    uint8_t optional;
    uint16_t values;            /* ptx_isa_values index + 1: the values a
                                   constant may have; 0: any */
    uint8_t tkind;              /* the operand's type (":TYPE" in the tables):
                                   0 unchecked; 'T' the instruction's type
                                   modifier number tbits (1..4); or 'u', 's',
                                   'b', 'f', 'p' with tbits the width */
    uint8_t tbits;
    uint8_t tflags;             /* PTX_OT_* */
} ptx_isa_operand;

/* ptx_isa_operand.tflags */
enum {
    PTX_OT_RELAXED = 1,         /* a wider integer register is fine (ld, st, cvt) */
    PTX_OT_SREG = 2,            /* a special register is fine (mov, cvt) */
    PTX_OT_SYMADDR = 4,         /* a variable's or function's address is fine (mov, cvta) */
    PTX_OT_WIDE = 8             /* twice the width of the type slot (mul.wide) */
};

/* The values a constant operand may have (written i=4|8|16, i=0..15,
 * i=%32, i=24..256%8): any of n, each lo..hi and, unless mod is 0, a
 * multiple of mod (mod -1: a power of two, written N..M^2). */
typedef struct ptx_isa_vlist {
    uint8_t n;
    struct {
        int64_t lo, hi, mod;
    } v[8];
} ptx_isa_vlist;

extern const ptx_isa_vlist ptx_isa_values[];

/* The forms hold no pointers, so that their table needs no relocation
 * and stays in read-only pages that are read in only where used (with
 * pointers, a position-independent program writes all 1.7 MB of it at
 * start).  Their strings are offsets into ptx_isa_strings: read them with
 * PTX_ISA_STR. */
extern const char ptx_isa_strings[];
#define PTX_ISA_STR(off) (ptx_isa_strings + (off))

typedef struct ptx_isa_form {
    uint16_t family;            /* ptx_family */
    uint32_t text;              /* the template, for messages */
    uint8_t nname;
    uint16_t name[12];          /* fixed words after the opcode */
    uint8_t nslots;
    ptx_isa_slot slots[32];
    uint8_t nops;
    ptx_isa_operand ops[16];
    uint8_t since_major, since_minor;   /* 0.0: the family's */
    uint32_t target;                    /* "": the family's */
    uint8_t gone_major, gone_minor;     /* withdrawn from this version (0.0: never)... */
    uint32_t gone_target;               /* ...on this target and later ("": any) */
    uint32_t file;
    int line;
} ptx_isa_form;

typedef struct ptx_isa_family {
    const char *name;           /* the family id of INDEX.tsv: "cp.async.bulk" */
    uint8_t major, minor;
    const char *target;
    uint16_t nforms;
    uint8_t construct;          /* a language construct the grammar handles */
} ptx_isa_family;

/* the forms of one opcode, consecutive in ptx_isa_forms */
typedef struct ptx_isa_root {
    const char *name;
    uint16_t first_form, nforms;
    uint8_t values;             /* a form has an operand with values: the memo
                                   of accepted shapes keys constants by value */
} ptx_isa_root;

extern const char *const ptx_isa_mod_names[PTX_MOD_COUNT];
extern const uint8_t ptx_isa_mod_categories[PTX_MOD_COUNT];    /* ptx_mod_category */
extern const char *const ptx_isa_category_names[PTX_CAT_COUNT];
/* 1 for the words ptxas takes after any instruction name and ignores */
extern const unsigned char ptx_isa_mod_ignored[PTX_MOD_COUNT];
extern const ptx_isa_set ptx_isa_sets[];
extern const ptx_isa_selector ptx_isa_selectors[];
extern const ptx_isa_form ptx_isa_forms[];
extern const ptx_isa_family ptx_isa_families[PTX_FAMILY_COUNT];
extern const unsigned ptx_isa_nforms;
extern const ptx_isa_root ptx_isa_roots[];
extern const unsigned ptx_isa_nroots;

#endif
