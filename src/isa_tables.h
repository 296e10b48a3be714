/* The shapes of the tables tools/isagen generates from grammar/isa/. */
#ifndef PTX_ISA_TABLES_H
#define PTX_ISA_TABLES_H

#include <stdint.h>

#include "ptx/isa.h"

/* operand acceptance bits (tools/isagen.c writes them) */
enum {
    PTX_ACC_NAME = 1, PTX_ACC_IMM = 2, PTX_ACC_PRED = 4, PTX_ACC_NOTPRED = 8,
    PTX_ACC_ADDR = 16, PTX_ACC_VEC = 32, PTX_ACC_LABEL = 64, PTX_ACC_LIST = 128,
    PTX_ACC_SINK = 256, PTX_ACC_PAIR = 512
};

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

/* the selectors a name operand may carry (tools/isagen.c: sel_names) */
enum {
    PTX_SEL_ANY = 0,            /* %tid.x, r.b0: whatever the grammar read */
    PTX_SEL_NONE,               /* no selector */
    PTX_SEL_VIDEO,              /* .b0 .b1 .b2 .b3 .h0 .h1 (scalar video) */
    PTX_SEL_VSEL2,              /* .hXY, X and Y in 0..3 (vop2 sources) */
    PTX_SEL_VSEL4,              /* .bXYZW, each in 0..7 (vop4 sources) */
    PTX_SEL_VMASK2,             /* .h0 .h1 .h10 (vop2 destination mask) */
    PTX_SEL_VMASK4              /* .b + 1 to 4 of 3..0, descending (vop4 mask) */
};

typedef struct ptx_isa_operand {
    uint16_t accept;            /* PTX_ACC_* */
    int16_t vec;                /* vector size: 0 from .vN, -1 any */
    uint8_t optional;
    uint8_t sel;                /* PTX_SEL_* */
} ptx_isa_operand;

typedef struct ptx_isa_form {
    uint16_t family;            /* ptx_family */
    const char *text;           /* the template, for messages */
    uint8_t nname;
    uint16_t name[12];          /* fixed words after the opcode */
    uint8_t nslots;
    ptx_isa_slot slots[32];
    uint8_t nops;
    ptx_isa_operand ops[16];
    uint8_t since_major, since_minor;   /* 0.0: the family's */
    const char *target;                 /* "": the family's */
    uint8_t gone_major, gone_minor;     /* withdrawn from this version (0.0: never)... */
    const char *gone_target;            /* ...on this target and later ("": any) */
    const char *file;
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
} ptx_isa_root;

extern const char *const ptx_isa_mod_names[PTX_MOD_COUNT];
extern const char *const ptx_isa_category_names[PTX_CAT_COUNT];
/* 1 for the words ptxas takes after any instruction name and ignores */
extern const unsigned char ptx_isa_mod_ignored[PTX_MOD_COUNT];
extern const ptx_isa_set ptx_isa_sets[];
extern const ptx_isa_form ptx_isa_forms[];
extern const ptx_isa_family ptx_isa_families[PTX_FAMILY_COUNT];
extern const unsigned ptx_isa_nforms;
extern const ptx_isa_root ptx_isa_roots[];
extern const unsigned ptx_isa_nroots;

#endif
