/* ptxfront: the CPython module over libptxfront (CPython C API only).
 *
 * Ownership.  A Module owns one ptx_context: the tree, the names, the
 * diagnostics and the source.  Every other object (Function, Instruction,
 * Operand, Block) is a view: a pointer into that context's arena and a
 * strong reference to its Module, so the context outlives every view, in
 * whatever order Python frees them.  Parsing copies nothing into Python
 * objects; views and strings are made when asked for.  Names are interned
 * by the library with dense ids, so the Python string of a name is made
 * once per Module and kept in a table indexed by id.
 *
 * The graphs (ptx_graphs) are built on the first request for blocks or
 * callees and cached in the Module; an edit drops the cache, and graphs
 * the library calls stale (an edit of another Module) are built again (the Blocks
 * still held keep the old graphs alive: their statements are arena nodes,
 * which no edit frees).  Module and the graphs' holder refer to each other,
 * so both take part in the cyclic GC.
 *
 * Threads: parse() and parse_file() release the GIL while the library
 * parses into a context no other thread can see.  Everything else runs
 * under the GIL, so one Module is never used by two threads at once. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <ptx/ptx.h>

/* ------------------------------------------------------------------ */
/* Growable output buffer for the printers                             */

typedef struct outbuf {
    char *data;
    size_t len, cap;
} outbuf;

static int outbuf_write(void *user, const char *data, size_t len)
{
    outbuf *b = user;
    if (len > SIZE_MAX - b->len - 1)
        return -1;
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + len + 1)
            cap = cap > SIZE_MAX / 2 ? b->len + len + 1 : cap * 2;
        char *p = PyMem_RawRealloc(b->data, cap);
        if (!p)
            return -1;
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
    return 0;
}

static PyObject *outbuf_str(outbuf *b)
{
    PyObject *s = PyUnicode_DecodeUTF8(b->data ? b->data : "", (Py_ssize_t)b->len,
                                       "surrogateescape");
    PyMem_RawFree(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    return s;
}

/* ------------------------------------------------------------------ */
/* Types                                                               */

typedef struct ModuleObject {
    PyObject_HEAD
    ptx_context *ctx;
    const ptx_module *mod;
    ptx_status status;
    PyObject *graphs;           /* GraphsObject, or NULL: built on demand */
    PyObject **names;           /* Python strings by ptx_name id */
    size_t nnames;
    PyObject *opcodes;          /* dict: mods pointer -> (opcode, modifiers) */
    PyObject *weakrefs;
} ModuleObject;

typedef struct GraphsObject {
    PyObject_HEAD
    ModuleObject *mod;
    ptx_graphs *g;
} GraphsObject;

typedef struct FunctionObject {
    PyObject_HEAD
    ModuleObject *mod;
    const ptx_func *f;
} FunctionObject;

typedef struct InstrObject {
    PyObject_HEAD
    ModuleObject *mod;
    ptx_instr *in;
    const ptx_func *func;       /* the function it is in */
    ptx_block *parent;          /* the block whose list holds it, or NULL:
                                   looked for in func when an edit needs it */
} InstrObject;

typedef struct OperandObject {
    PyObject_HEAD
    ModuleObject *mod;
    const ptx_expr *e;
    int has_source;             /* its span is the module's source */
} OperandObject;

typedef struct BlockObject {
    PyObject_HEAD
    GraphsObject *graphs;
    const ptx_cfg *cfg;
    uint32_t index;
} BlockObject;

static PyTypeObject Module_Type, Graphs_Type, Function_Type, Instr_Type, Operand_Type,
    Block_Type;
static PyTypeObject Diagnostic_Type, Param_Type, Variable_Type;

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static PyObject *cstr(const char *s)
{
    if (!s)
        Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "surrogateescape");
}

/* The Python string of an interned name, made once per Module. */
static PyObject *name_str(ModuleObject *m, const ptx_name *n)
{
    if (!n)
        Py_RETURN_NONE;
    if (n->id >= m->nnames) {
        size_t cap = m->nnames ? m->nnames : 256;
        while (cap <= n->id)
            cap *= 2;
        PyObject **p = PyMem_Realloc(m->names, cap * sizeof *p);
        if (!p)
            return PyErr_NoMemory();
        memset(p + m->nnames, 0, (cap - m->nnames) * sizeof *p);
        m->names = p;
        m->nnames = cap;
    }
    if (!m->names[n->id]) {
        PyObject *s = PyUnicode_DecodeUTF8(n->text, (Py_ssize_t)n->len, "surrogateescape");
        if (!s)
            return NULL;
        m->names[n->id] = s;
    }
    Py_INCREF(m->names[n->id]);
    return m->names[n->id];
}

static int has_source(const ptx_node *n)
{
    return n->span.off != PTX_NO_OFFSET && !(n->flags & PTX_NODE_EDITED);
}

static PyObject *source_slice(ModuleObject *m, uint32_t off, uint32_t len)
{
    size_t n;
    const char *src = ptx_context_source(m->ctx, &n);
    if (!src || off > n || len > n - off)
        Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(src + off, (Py_ssize_t)len, "surrogateescape");
}

static PyObject *position_tuple(ModuleObject *m, uint32_t off, int which)
{
    if (off == PTX_NO_OFFSET)
        Py_RETURN_NONE;
    ptx_position p = ptx_context_position(m->ctx, off);
    return PyLong_FromUnsignedLong(which ? p.col : p.line);
}

static PyObject *node_text(ModuleObject *m, const ptx_node *n)
{
    if (has_source(n))
        return source_slice(m, n->span.off, n->span.len);
    outbuf b = { 0 };
    if (ptx_print_node(n, outbuf_write, &b) != PTX_OK) {
        PyMem_RawFree(b.data);
        return PyErr_NoMemory();
    }
    /* as a parsed instruction's span: without its ';' */
    if (n->kind == PTX_NODE_INSTR && b.len && b.data[b.len - 1] == ';')
        b.data[--b.len] = '\0';
    return outbuf_str(&b);
}

static void invalidate(ModuleObject *m)
{
    Py_CLEAR(m->graphs);
}

static PyObject *new_function(ModuleObject *m, const ptx_func *f)
{
    FunctionObject *o = PyObject_New(FunctionObject, &Function_Type);
    if (!o)
        return NULL;
    Py_INCREF(m);
    o->mod = m;
    o->f = f;
    return (PyObject *)o;
}

static PyObject *new_instr(ModuleObject *m, ptx_instr *in, const ptx_func *f, ptx_block *parent)
{
    InstrObject *o = PyObject_New(InstrObject, &Instr_Type);
    if (!o)
        return NULL;
    Py_INCREF(m);
    o->mod = m;
    o->in = in;
    o->func = f;
    o->parent = parent;
    return (PyObject *)o;
}

static PyObject *new_operand(ModuleObject *m, const ptx_expr *e, int src)
{
    OperandObject *o = PyObject_New(OperandObject, &Operand_Type);
    if (!o)
        return NULL;
    Py_INCREF(m);
    o->mod = m;
    o->e = e;
    o->has_source = src && e->off != PTX_NO_OFFSET;
    return (PyObject *)o;
}

/* Walks the statements of f's body, nested blocks included, in source
 * order, without recursion: calls fn(node, its block) for each. */
typedef int (*stmt_fn)(void *user, ptx_node *n, ptx_block *parent);

typedef struct walk_frame {
    ptx_block *block;
    ptx_node *next;
} walk_frame;

static int walk_body(const ptx_func *f, stmt_fn fn, void *user)
{
    if (!f->body)
        return 0;
    size_t cap = 16, depth = 0;
    walk_frame *st = PyMem_RawMalloc(cap * sizeof *st);
    if (!st) {
        PyErr_NoMemory();
        return -1;
    }
    st[depth++] = (walk_frame){ f->body, f->body->first };
    int rc = 0;
    while (depth && rc == 0) {
        walk_frame *top = &st[depth - 1];
        ptx_node *n = top->next;
        if (!n) {
            depth--;
            continue;
        }
        top->next = n->next;
        ptx_block *parent = top->block;
        rc = fn(user, n, parent);
        if (rc == 0 && n->kind == PTX_NODE_BLOCK) {
            if (depth == cap) {
                walk_frame *p = PyMem_RawRealloc(st, 2 * cap * sizeof *st);
                if (!p) {
                    PyErr_NoMemory();
                    rc = -1;
                    break;
                }
                st = p;
                cap *= 2;
            }
            st[depth++] = (walk_frame){ (ptx_block *)n, ((ptx_block *)n)->first };
        }
    }
    PyMem_RawFree(st);
    return rc < 0 ? -1 : 0;
}

typedef struct find_parent {
    const ptx_node *target;
    ptx_block *found;
} find_parent;

static int find_parent_fn(void *user, ptx_node *n, ptx_block *parent)
{
    find_parent *fp = user;
    if (n == fp->target) {
        fp->found = parent;
        return 1;
    }
    return 0;
}

/* The block whose list holds n in f, or NULL (with ValueError set). */
static ptx_block *parent_of(const ptx_func *f, const ptx_node *n)
{
    find_parent fp = { n, NULL };
    if (walk_body(f, find_parent_fn, &fp) < 0)
        return NULL;
    if (!fp.found)
        PyErr_SetString(PyExc_ValueError, "the statement is no longer in its function");
    return fp.found;
}

static PyObject *make_vars(ModuleObject *m, ptx_decl *const *decls, uint32_t n, PyTypeObject *type);

/* ------------------------------------------------------------------ */
/* Parsing                                                             */

static void set_io_error(const char *reason, PyObject *path)
{
    int err = 0;
    if (reason)
        for (int e = 1; e < 200; e++)
            if (strcmp(strerror(e), reason) == 0) {
                err = e;
                break;
            }
    PyObject *exc = PyObject_CallFunction(PyExc_OSError, "isO", err ? err : EIO,
                                          reason ? reason : "cannot read", path);
    if (exc) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
}

static ModuleObject *module_new_empty(const char *target)
{
    ModuleObject *m = PyObject_GC_New(ModuleObject, &Module_Type);
    if (!m)
        return NULL;
    m->ctx = NULL;
    m->mod = NULL;
    m->status = PTX_OK;
    m->graphs = NULL;
    m->names = NULL;
    m->nnames = 0;
    m->opcodes = NULL;
    m->weakrefs = NULL;
    PyObject_GC_Track(m);
    m->ctx = ptx_context_new();
    if (!m->ctx) {
        Py_DECREF(m);
        PyErr_NoMemory();
        return NULL;
    }
    if (target && ptx_context_set_target(m->ctx, target) != PTX_OK) {
        PyErr_Format(PyExc_ValueError, "not an architecture: %s", target);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

PyDoc_STRVAR(parse_doc,
"parse(source, name='<string>', target=None) -> Module\n\n"
"Parses PTX text (str, or bytes-like) as one module.  Invalid PTX does not\n"
"raise: the Module's diagnostics say what is wrong.  `name` labels the\n"
"input in diagnostics; `target` ('sm_90a') reads the module as if its\n"
".target named that architecture.  The GIL is released while parsing.");

static PyObject *py_parse(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "source", "name", "target", NULL };
    PyObject *source;
    const char *name = "<string>";
    const char *target = NULL;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|sz:parse", kwlist, &source, &name, &target))
        return NULL;
    Py_buffer view = { 0 };
    PyObject *encoded = NULL;
    const char *data;
    Py_ssize_t len;
    if (PyUnicode_Check(source)) {
        data = PyUnicode_AsUTF8AndSize(source, &len);
        if (!data) {
            /* lone surrogates (from surrogateescape): their bytes */
            PyErr_Clear();
            encoded = PyUnicode_AsEncodedString(source, "utf-8", "surrogateescape");
            if (!encoded)
                return NULL;
            data = PyBytes_AS_STRING(encoded);
            len = PyBytes_GET_SIZE(encoded);
        }
    } else if (PyObject_CheckBuffer(source)) {
        if (PyObject_GetBuffer(source, &view, PyBUF_SIMPLE) < 0)
            return NULL;
        data = view.buf;
        len = view.len;
    } else {
        PyErr_Format(PyExc_TypeError, "parse() takes str or bytes, not %.100s",
                     Py_TYPE(source)->tp_name);
        return NULL;
    }
    ModuleObject *m = module_new_empty(target);
    if (!m) {
        if (view.obj)
            PyBuffer_Release(&view);
        Py_XDECREF(encoded);
        return NULL;
    }
    ptx_status st;
    const ptx_module *mod = NULL;
    ptx_context *ctx = m->ctx;
    Py_BEGIN_ALLOW_THREADS
    st = ptx_parse_buffer(ctx, name, data, (size_t)len, &mod);
    Py_END_ALLOW_THREADS
    if (view.obj)
        PyBuffer_Release(&view);
    Py_XDECREF(encoded);
    if (st == PTX_ERR_NOMEM || st == PTX_ERR_USAGE) {
        Py_DECREF(m);
        return st == PTX_ERR_NOMEM ? PyErr_NoMemory()
                                   : (PyErr_SetString(PyExc_RuntimeError, "parse failed"), NULL);
    }
    m->status = st;
    m->mod = mod;
    return (PyObject *)m;
}

PyDoc_STRVAR(parse_file_doc,
"parse_file(path, target=None) -> Module\n\n"
"Reads and parses the PTX file at `path` (str, bytes or os.PathLike).\n"
"OSError when it cannot be read; invalid PTX gives diagnostics.");

static PyObject *py_parse_file(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "path", "target", NULL };
    PyObject *path;
    const char *target = NULL;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|z:parse_file", kwlist, PyUnicode_FSConverter,
                                     &path, &target))
        return NULL;
    ModuleObject *m = module_new_empty(target);
    if (!m) {
        Py_DECREF(path);
        return NULL;
    }
    ptx_status st;
    const ptx_module *mod = NULL;
    ptx_context *ctx = m->ctx;
    const char *p = PyBytes_AS_STRING(path);
    Py_BEGIN_ALLOW_THREADS
    st = ptx_parse_file(ctx, p, &mod);
    Py_END_ALLOW_THREADS
    if (st == PTX_ERR_IO) {
        PyObject *pathstr = PyUnicode_DecodeFSDefault(p);
        set_io_error(ptx_context_io_error(ctx), pathstr ? pathstr : Py_None);
        Py_XDECREF(pathstr);
        Py_DECREF(path);
        Py_DECREF(m);
        return NULL;
    }
    Py_DECREF(path);
    if (st == PTX_ERR_NOMEM || st == PTX_ERR_USAGE) {
        Py_DECREF(m);
        return st == PTX_ERR_NOMEM ? PyErr_NoMemory()
                                   : (PyErr_SetString(PyExc_RuntimeError, "parse failed"), NULL);
    }
    m->status = st;
    m->mod = mod;
    return (PyObject *)m;
}

/* ------------------------------------------------------------------ */
/* Module                                                              */

static int Module_traverse(ModuleObject *m, visitproc visit, void *arg)
{
    Py_VISIT(m->graphs);
    return 0;
}

static int Module_clear(ModuleObject *m)
{
    Py_CLEAR(m->graphs);
    return 0;
}

static void Module_dealloc(ModuleObject *m)
{
    PyObject_GC_UnTrack(m);
    if (m->weakrefs)
        PyObject_ClearWeakRefs((PyObject *)m);
    Module_clear(m);
    for (size_t i = 0; i < m->nnames; i++)
        Py_XDECREF(m->names[i]);
    PyMem_Free(m->names);
    Py_XDECREF(m->opcodes);
    ptx_context_free(m->ctx);
    PyObject_GC_Del(m);
}

static PyObject *Module_get_ok(ModuleObject *m, void *c)
{
    (void)c;
    return PyBool_FromLong(m->mod && ptx_error_count(m->ctx) == 0);
}

static const char *severity_name(ptx_severity s)
{
    return s == PTX_SEV_ERROR ? "error" : s == PTX_SEV_WARNING ? "warning" : "note";
}

static PyObject *Module_get_diagnostics(ModuleObject *m, void *c)
{
    (void)c;
    size_t n = ptx_diag_count(m->ctx);
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (!list)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        const ptx_diag *d = ptx_diag_get(m->ctx, i);
        PyObject *o = PyStructSequence_New(&Diagnostic_Type);
        if (!o) {
            Py_DECREF(list);
            return NULL;
        }
        PyObject *v[7];
        v[0] = PyUnicode_FromString(severity_name(d->severity));
        v[1] = position_tuple(m, d->span.off, 0);
        v[2] = position_tuple(m, d->span.off, 1);
        v[3] = cstr(d->message);
        v[4] = cstr(d->fixit);
        v[5] = cstr(ptx_diag_code_name(d->code));
        v[6] = cstr(ptx_context_filename(m->ctx));
        int bad = 0;
        for (int k = 0; k < 7; k++)
            bad |= !v[k];
        if (bad) {
            for (int j = 0; j < 7; j++)
                Py_XDECREF(v[j]);
            Py_DECREF(o);
            Py_DECREF(list);
            return NULL;
        }
        for (int k = 0; k < 7; k++)
            PyStructSequence_SET_ITEM(o, k, v[k]);
        PyList_SET_ITEM(list, (Py_ssize_t)i, o);
    }
    return list;
}

static PyObject *Module_get_version(ModuleObject *m, void *c)
{
    (void)c;
    if (!m->mod || (m->mod->version_major == 0 && m->mod->version_minor == 0))
        Py_RETURN_NONE;
    return PyUnicode_FromFormat("%u.%u", m->mod->version_major, m->mod->version_minor);
}

static PyObject *Module_get_targets(ModuleObject *m, void *c)
{
    (void)c;
    uint32_t n = m->mod ? m->mod->ntargets : 0;
    PyObject *list = PyList_New(n);
    for (uint32_t i = 0; list && i < n; i++) {
        PyObject *s = name_str(m, m->mod->targets[i]);
        if (!s) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, s);
    }
    return list;
}

static PyObject *Module_get_target(ModuleObject *m, void *c)
{
    (void)c;
    if (!m->mod || m->mod->ntargets == 0)
        Py_RETURN_NONE;
    return name_str(m, m->mod->targets[0]);
}

static PyObject *Module_get_address_size(ModuleObject *m, void *c)
{
    (void)c;
    if (!m->mod || m->mod->address_size == 0)
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLong(m->mod->address_size);
}

static PyObject *Module_get_name(ModuleObject *m, void *c)
{
    (void)c;
    return cstr(ptx_context_filename(m->ctx));
}

static PyObject *Module_get_functions(ModuleObject *m, void *c)
{
    (void)c;
    PyObject *list = PyList_New(0);
    if (!list || !m->mod)
        return list;
    for (const ptx_node *n = m->mod->first; n; n = n->next) {
        if (n->kind != PTX_NODE_FUNC)
            continue;
        PyObject *f = new_function(m, (const ptx_func *)n);
        if (!f || PyList_Append(list, f) < 0) {
            Py_XDECREF(f);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(f);
    }
    return list;
}

static PyObject *Module_get_variables(ModuleObject *m, void *c)
{
    (void)c;
    uint32_t n = 0;
    for (const ptx_node *x = m->mod ? m->mod->first : NULL; x; x = x->next)
        n += x->kind == PTX_NODE_DECL;
    ptx_decl **d = PyMem_Malloc((n ? n : 1) * sizeof *d);
    if (!d)
        return PyErr_NoMemory();
    n = 0;
    for (ptx_node *x = m->mod ? m->mod->first : NULL; x; x = x->next)
        if (x->kind == PTX_NODE_DECL)
            d[n++] = (ptx_decl *)x;
    PyObject *r = make_vars(m, d, n, &Variable_Type);
    PyMem_Free(d);
    return r;
}

static PyObject *Module_function(ModuleObject *m, PyObject *arg)
{
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name)
        return NULL;
    const ptx_func *f = m->mod ? ptx_find_function(m->mod, name) : NULL;
    if (!f) {
        PyErr_Format(PyExc_KeyError, "no function named %s", name);
        return NULL;
    }
    return new_function(m, f);
}

static PyObject *Module_emit(ModuleObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "canonical", NULL };
    int canonical = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|p:emit", kwlist, &canonical))
        return NULL;
    if (!m->mod) {
        /* no tree (an input refused whole): nothing was edited */
        size_t n;
        const char *src = ptx_context_source(m->ctx, &n);
        return PyUnicode_DecodeUTF8(src ? src : "", src ? (Py_ssize_t)n : 0, "surrogateescape");
    }
    outbuf b = { 0 };
    ptx_status st = canonical
        ? ptx_print_ptx_canonical(m->ctx, m->mod, NULL, NULL, outbuf_write, &b)
        : ptx_print_ptx(m->ctx, m->mod, outbuf_write, &b);
    if (st != PTX_OK) {
        PyMem_RawFree(b.data);
        return PyErr_NoMemory();
    }
    return outbuf_str(&b);
}

static PyObject *Module_to_json(ModuleObject *m, PyObject *unused)
{
    (void)unused;
    if (!m->mod)
        Py_RETURN_NONE;
    outbuf b = { 0 };
    if (ptx_print_json(m->ctx, m->mod, NULL, NULL, outbuf_write, &b) != PTX_OK) {
        PyMem_RawFree(b.data);
        return PyErr_NoMemory();
    }
    PyObject *text = outbuf_str(&b);
    if (!text)
        return NULL;
    PyObject *json = PyImport_ImportModule("json");
    PyObject *r = json ? PyObject_CallMethod(json, "loads", "O", text) : NULL;
    Py_XDECREF(json);
    Py_DECREF(text);
    return r;
}

static PyObject *Module_validate(ModuleObject *m, PyObject *unused)
{
    (void)unused;
    if (!m->mod)
        Py_RETURN_FALSE;
    ptx_status st = ptx_validate(m->ctx);
    if (st == PTX_ERR_NOMEM)
        return PyErr_NoMemory();
    return PyBool_FromLong(st == PTX_OK);
}

static int parse_enum(PyObject *arg, const char *(*name_of)(int), int count, const char *what)
{
    const char *s = PyUnicode_AsUTF8(arg);
    if (!s)
        return -1;
    for (int i = 1; i < count; i++) {
        const char *n = name_of(i);
        if (n && (strcmp(n, s) == 0 || (n[0] == '.' && strcmp(n + 1, s) == 0)))
            return i;
    }
    PyErr_Format(PyExc_ValueError, "not a %s: %s", what, s);
    return -1;
}

static const char *space_name_i(int i) { return ptx_space_name((ptx_space)i); }
static const char *type_name_i(int i) { return ptx_type_name((ptx_type)i); }

static PyObject *Module_declare_variable(ModuleObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "space", "type", "name", "count", NULL };
    PyObject *space, *type;
    const char *name;
    unsigned long long count = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOs|K:declare_variable", kwlist, &space, &type,
                                     &name, &count))
        return NULL;
    int sp = parse_enum(space, space_name_i, PTX_SPACE_COUNT, "state space");
    int ty = sp < 0 ? -1 : parse_enum(type, type_name_i, PTX_TYPE_COUNT, "type");
    if (ty < 0)
        return NULL;
    if (!m->mod) {
        PyErr_SetString(PyExc_ValueError, "the module has no tree");
        return NULL;
    }
    ptx_expr *e = ptx_declare_variable(m->ctx, (ptx_space)sp, (ptx_type)ty, name, count, NULL);
    if (!e) {
        PyErr_SetString(PyExc_ValueError, "cannot declare the variable");
        return NULL;
    }
    invalidate(m);
    return name_str(m, ptx_expr_name(e));
}

static PyObject *Module_repr(ModuleObject *m)
{
    Py_ssize_t nf = 0;
    for (const ptx_node *n = m->mod ? m->mod->first : NULL; n; n = n->next)
        nf += n->kind == PTX_NODE_FUNC;
    const char *target = m->mod && m->mod->ntargets ? m->mod->targets[0]->text : "?";
    size_t ne = ptx_error_count(m->ctx);
    if (ne)
        return PyUnicode_FromFormat("<ptxfront.Module %s: PTX %u.%u %s, %zd functions, %zu errors>",
                                    ptx_context_filename(m->ctx),
                                    m->mod ? m->mod->version_major : 0,
                                    m->mod ? m->mod->version_minor : 0, target, nf, ne);
    return PyUnicode_FromFormat("<ptxfront.Module %s: PTX %u.%u %s, %zd functions, ok>",
                                ptx_context_filename(m->ctx), m->mod ? m->mod->version_major : 0,
                                m->mod ? m->mod->version_minor : 0, target, nf);
}

static PyGetSetDef Module_getset[] = {
    { "ok", (getter)Module_get_ok, NULL, "True when the module has no error diagnostic.", NULL },
    { "diagnostics", (getter)Module_get_diagnostics, NULL,
      "The diagnostics, in source order (list of Diagnostic).", NULL },
    { "version", (getter)Module_get_version, NULL, "The .version ('9.0'), or None.", NULL },
    { "target", (getter)Module_get_target, NULL, "The first .target word ('sm_90a'), or None.",
      NULL },
    { "targets", (getter)Module_get_targets, NULL, "The words of the first .target line.", NULL },
    { "address_size", (getter)Module_get_address_size, NULL,
      "The .address_size (32 or 64), or None when absent.", NULL },
    { "name", (getter)Module_get_name, NULL, "The input's name, as diagnostics give it.", NULL },
    { "functions", (getter)Module_get_functions, NULL,
      "The kernels and functions (definitions and declarations), in source order.", NULL },
    { "variables", (getter)Module_get_variables, NULL,
      "The module-scope variables (.global, .shared, .const...): list of Variable.", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

static PyMethodDef Module_methods[] = {
    { "emit", (PyCFunction)(void (*)(void))Module_emit, METH_VARARGS | METH_KEYWORDS,
      "emit(canonical=False) -> str\n\nThe module as PTX text: byte for byte the input when "
      "unedited (bytes outside UTF-8 come back as surrogate escapes), edits in the canonical "
      "layout; with canonical=True, the whole module in the canonical layout." },
    { "to_json", (PyCFunction)Module_to_json, METH_NOARGS,
      "to_json() -> dict\n\nThe CLI's --json document (schema 2) as Python objects." },
    { "function", (PyCFunction)Module_function, METH_O,
      "function(name) -> Function\n\nThe kernel or function named `name` (its definition when "
      "it has one); KeyError when there is none." },
    { "validate", (PyCFunction)Module_validate, METH_NOARGS,
      "validate() -> bool\n\nChecks the module as it now stands (after edits) with the tables "
      "and semantic rules of a parse; new diagnostics are added to `diagnostics`." },
    { "declare_variable", (PyCFunction)(void (*)(void))Module_declare_variable,
      METH_VARARGS | METH_KEYWORDS,
      "declare_variable(space, type, name, count=0) -> str\n\nDeclares a module variable "
      "`space type NAME[count];` before the first function, under a name that clashes with "
      "nothing (`name`, else name_1_...); returns that name." },
    { NULL, NULL, 0, NULL }
};

/* ------------------------------------------------------------------ */
/* Graphs                                                              */

static int Graphs_traverse(GraphsObject *g, visitproc visit, void *arg)
{
    Py_VISIT(g->mod);
    return 0;
}

static void Graphs_dealloc(GraphsObject *g)
{
    PyObject_GC_UnTrack(g);
    ptx_graphs_free(g->g);
    Py_XDECREF(g->mod);
    PyObject_GC_Del(g);
}

static GraphsObject *module_graphs(ModuleObject *m)
{
    /* an edit of this Module drops the cache; one of another Module of
     * the process makes these graphs stale too (cfg.h), and the library
     * then gives nothing from them: build them again */
    if (m->graphs && ptx_graphs_stale(((GraphsObject *)m->graphs)->g))
        Py_CLEAR(m->graphs);
    if (m->graphs) {
        Py_INCREF(m->graphs);
        return (GraphsObject *)m->graphs;
    }
    ptx_graphs *pg = NULL;
    ptx_status st = ptx_graphs_build(m->mod, &pg);
    if (st != PTX_OK) {
        PyErr_NoMemory();
        return NULL;
    }
    GraphsObject *g = PyObject_GC_New(GraphsObject, &Graphs_Type);
    if (!g) {
        ptx_graphs_free(pg);
        return NULL;
    }
    Py_INCREF(m);
    g->mod = m;
    g->g = pg;
    PyObject_GC_Track(g);
    Py_INCREF(g);
    m->graphs = (PyObject *)g;
    return g;
}

static PyObject *new_block(GraphsObject *g, const ptx_cfg *cfg, uint32_t i)
{
    BlockObject *b = PyObject_New(BlockObject, &Block_Type);
    if (!b)
        return NULL;
    Py_INCREF(g);
    b->graphs = g;
    b->cfg = cfg;
    b->index = i;
    return (PyObject *)b;
}

/* ------------------------------------------------------------------ */
/* Function                                                            */

static void Function_dealloc(FunctionObject *f)
{
    Py_DECREF(f->mod);
    PyObject_Free(f);
}

static PyObject *Function_get_name(FunctionObject *f, void *c)
{
    (void)c;
    return name_str(f->mod, f->f->name);
}

static PyObject *Function_get_kind(FunctionObject *f, void *c)
{
    (void)c;
    return PyUnicode_FromString(f->f->is_entry ? "entry" : "func");
}

static PyObject *Function_get_linkage(FunctionObject *f, void *c)
{
    (void)c;
    if (!f->f->linkage)
        Py_RETURN_NONE;
    return cstr(ptx_linkage_name((ptx_linkage)f->f->linkage));
}

static PyObject *Function_get_is_definition(FunctionObject *f, void *c)
{
    (void)c;
    return PyBool_FromLong(f->f->body != NULL);
}

static PyObject *make_params(ModuleObject *m, ptx_decl **decls, uint32_t n)
{
    return make_vars(m, decls, n, &Param_Type);
}

/* One structseq per variable of the declarations: Param (5 fields) or
 * Variable (those and the linkage). */
static PyObject *make_vars(ModuleObject *m, ptx_decl *const *decls, uint32_t n, PyTypeObject *type)
{
    PyObject *list = PyList_New(0);
    for (uint32_t i = 0; list && i < n; i++) {
        const ptx_decl *d = decls[i];
        for (uint32_t k = 0; k < d->nvars; k++) {
            const ptx_var *v = &d->vars[k];
            PyObject *o = PyStructSequence_New(type);
            if (!o) {
                Py_CLEAR(list);
                break;
            }
            PyObject *dims = PyTuple_New(v->ndims);
            for (uint32_t j = 0; dims && j < v->ndims; j++) {
                PyObject *x = PyLong_FromUnsignedLongLong(v->dims[j]);
                if (!x) {
                    Py_CLEAR(dims);
                    break;
                }
                PyTuple_SET_ITEM(dims, j, x);
            }
            PyObject *vals[5] = {
                name_str(m, v->name), cstr(ptx_space_name((ptx_space)d->space)),
                cstr(ptx_type_name((ptx_type)d->type)), PyLong_FromUnsignedLong(d->align), dims
            };
            int bad = 0;
            for (int j = 0; j < 5; j++) {
                if (!vals[j])
                    bad = 1;
                PyStructSequence_SET_ITEM(o, j, vals[j] ? vals[j] : (Py_INCREF(Py_None), Py_None));
            }
            if (type == &Variable_Type) {
                PyObject *l = d->linkage ? cstr(ptx_linkage_name((ptx_linkage)d->linkage))
                                         : (Py_INCREF(Py_None), Py_None);
                bad |= !l;
                PyStructSequence_SET_ITEM(o, 5, l ? l : (Py_INCREF(Py_None), Py_None));
            }
            if (bad || PyList_Append(list, o) < 0) {
                Py_DECREF(o);
                Py_CLEAR(list);
                break;
            }
            Py_DECREF(o);
        }
    }
    return list;
}

static PyObject *Function_get_params(FunctionObject *f, void *c)
{
    (void)c;
    return make_params(f->mod, f->f->params, f->f->nparams);
}

static PyObject *Function_get_returns(FunctionObject *f, void *c)
{
    (void)c;
    return make_params(f->mod, f->f->ret, f->f->nret);
}

typedef struct collect {
    ModuleObject *mod;
    const ptx_func *f;
    PyObject *list;
} collect;

static int collect_instr(void *user, ptx_node *n, ptx_block *parent)
{
    collect *c = user;
    if (n->kind != PTX_NODE_INSTR)
        return 0;
    PyObject *o = new_instr(c->mod, (ptx_instr *)n, c->f, parent);
    if (!o || PyList_Append(c->list, o) < 0) {
        Py_XDECREF(o);
        return -1;
    }
    Py_DECREF(o);
    return 0;
}

static PyObject *Function_get_instructions(FunctionObject *f, void *c)
{
    (void)c;
    collect col = { f->mod, f->f, PyList_New(0) };
    if (!col.list)
        return NULL;
    if (walk_body(f->f, collect_instr, &col) < 0) {
        Py_DECREF(col.list);
        return NULL;
    }
    return col.list;
}

typedef struct decls {
    ptx_decl **d;
    uint32_t n, cap;
    int regs;               /* 1: the .reg ones; 0: the others */
} decls;

static int collect_decl(void *user, ptx_node *n, ptx_block *parent)
{
    decls *c = user;
    (void)parent;
    if (n->kind != PTX_NODE_DECL || (((ptx_decl *)n)->space == PTX_SPACE_REG) != c->regs)
        return 0;
    if (c->n == c->cap) {
        uint32_t cap = c->cap ? c->cap * 2 : 16;
        ptx_decl **p = PyMem_Realloc(c->d, cap * sizeof *p);
        if (!p) {
            PyErr_NoMemory();
            return -1;
        }
        c->d = p;
        c->cap = cap;
    }
    c->d[c->n++] = (ptx_decl *)n;
    return 0;
}

static PyObject *Function_get_registers(FunctionObject *f, void *c)
{
    (void)c;
    decls ds = { NULL, 0, 0, 1 };
    if (walk_body(f->f, collect_decl, &ds) < 0) {
        PyMem_Free(ds.d);
        return NULL;
    }
    PyObject *dict = PyDict_New();
    for (uint32_t i = 0; dict && i < ds.n; i++) {
        const ptx_decl *d = ds.d[i];
        unsigned long long count = 0;
        for (uint32_t k = 0; k < d->nvars; k++)
            count += d->vars[k].has_range ? d->vars[k].range : 1;
        const char *tn = ptx_type_name((ptx_type)d->type);
        char key[40];
        snprintf(key, sizeof key, "%s%s%u", d->vec ? ".v" : "", "", (unsigned)d->vec);
        if (!d->vec)
            key[0] = '\0';
        char full[64];
        snprintf(full, sizeof full, "%s%s", key, tn ? tn : "?");
        PyObject *old = PyDict_GetItemString(dict, full);
        PyObject *v = PyLong_FromUnsignedLongLong(count + (old ? PyLong_AsUnsignedLongLong(old) : 0));
        if (!v || PyDict_SetItemString(dict, full, v) < 0)
            Py_CLEAR(dict);
        Py_XDECREF(v);
    }
    PyMem_Free(ds.d);
    return dict;
}

static PyObject *Function_get_variables(FunctionObject *f, void *c)
{
    (void)c;
    decls ds = { NULL, 0, 0, 0 };
    if (walk_body(f->f, collect_decl, &ds) < 0) {
        PyMem_Free(ds.d);
        return NULL;
    }
    PyObject *r = make_vars(f->mod, ds.d, ds.n, &Variable_Type);
    PyMem_Free(ds.d);
    return r;
}

static PyObject *Function_get_blocks(FunctionObject *f, void *c)
{
    (void)c;
    if (!f->f->body)
        return PyList_New(0);
    GraphsObject *g = module_graphs(f->mod);
    if (!g)
        return NULL;
    const ptx_cfg *cfg = ptx_graphs_cfg_of(g->g, f->f);
    PyObject *list = PyList_New(cfg ? cfg->nblocks : 0);
    for (uint32_t i = 0; list && cfg && i < cfg->nblocks; i++) {
        PyObject *b = new_block(g, cfg, i);
        if (!b) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, b);
    }
    Py_DECREF(g);
    return list;
}

static PyObject *Function_get_callees(FunctionObject *f, void *c)
{
    (void)c;
    GraphsObject *g = module_graphs(f->mod);
    if (!g)
        return NULL;
    const ptx_callgraph *cg = ptx_graphs_callgraph(g->g);
    PyObject *list = PyList_New(0);
    for (uint32_t i = 0; list && cg && i < cg->nfuncs; i++) {
        if (cg->funcs[i].func != f->f &&
            !(f->f->name == cg->funcs[i].func->name))
            continue;
        const ptx_cg_func *cf = &cg->funcs[i];
        for (uint32_t k = 0; k < cf->nout; k++) {
            const ptx_call_edge *e = &cg->edges[cf->out[k]];
            if (k > 0 && cg->edges[cf->out[k - 1]].callee == e->callee)
                continue;
            PyObject *o = new_function(f->mod, cg->funcs[e->callee].func);
            if (!o || PyList_Append(list, o) < 0) {
                Py_XDECREF(o);
                Py_CLEAR(list);
                break;
            }
            Py_DECREF(o);
        }
        break;
    }
    Py_DECREF(g);
    return list;
}

static PyObject *Function_get_line(FunctionObject *f, void *c)
{
    (void)c;
    return position_tuple(f->mod, f->f->base.span.off, 0);
}

static PyObject *Function_declare_register(FunctionObject *f, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "type", "prefix", NULL };
    PyObject *type;
    const char *prefix = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|z:declare_register", kwlist, &type, &prefix))
        return NULL;
    int ty = parse_enum(type, type_name_i, PTX_TYPE_COUNT, "type");
    if (ty < 0)
        return NULL;
    if (!f->f->body) {
        PyErr_SetString(PyExc_ValueError, "a declaration has no body to declare a register in");
        return NULL;
    }
    ptx_expr *e = ptx_declare_register(f->mod->ctx, f->f, (ptx_type)ty, prefix);
    if (!e) {
        PyErr_SetString(PyExc_ValueError, "cannot declare the register");
        return NULL;
    }
    invalidate(f->mod);
    return name_str(f->mod, ptx_expr_name(e));
}

/* Parses `text` as statements into a linked list; ValueError with the
 * diagnostics the parse added when it does not parse. */
static ptx_node *parse_statements(ModuleObject *m, PyObject *text)
{
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(text, &len);
    if (!s)
        return NULL;
    size_t before = ptx_diag_count(m->ctx);
    ptx_node *first = NULL;
    ptx_status st = ptx_parse_statements(m->ctx, s, (size_t)len, &first);
    if (st != PTX_OK) {
        outbuf b = { 0 };
        for (size_t i = before; i < ptx_diag_count(m->ctx); i++) {
            const ptx_diag *d = ptx_diag_get(m->ctx, i);
            if (b.len)
                outbuf_write(&b, "; ", 2);
            outbuf_write(&b, d->message, strlen(d->message));
        }
        PyObject *msg = outbuf_str(&b);
        if (msg) {
            PyErr_Format(PyExc_ValueError, "the statements do not parse: %U", msg);
            Py_DECREF(msg);
        }
        return NULL;
    }
    if (!first)
        PyErr_SetString(PyExc_ValueError, "no statement in the text");
    return first;
}

/* Views of the instructions among `nodes` (a list linked by next up to
 * `end`), after they were put in `block`. */
static PyObject *instr_views(ModuleObject *m, const ptx_func *f, ptx_block *block, ptx_node **nodes,
                             size_t n)
{
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list && i < n; i++) {
        if (nodes[i]->kind != PTX_NODE_INSTR)
            continue;
        PyObject *o = new_instr(m, (ptx_instr *)nodes[i], f, block);
        if (!o || PyList_Append(list, o) < 0)
            Py_CLEAR(list);
        Py_XDECREF(o);
    }
    return list;
}

/* Detaches a parsed list into an array of its nodes. */
static ptx_node **split_list(ptx_node *first, size_t *n)
{
    size_t k = 0;
    for (ptx_node *p = first; p; p = p->next)
        k++;
    ptx_node **a = PyMem_Malloc((k ? k : 1) * sizeof *a);
    if (!a) {
        PyErr_NoMemory();
        return NULL;
    }
    k = 0;
    for (ptx_node *p = first, *next; p; p = next) {
        next = p->next;
        p->next = NULL;
        a[k++] = p;
    }
    *n = k;
    return a;
}

static int status_error(ptx_status st)
{
    if (st == PTX_OK)
        return 0;
    if (st == PTX_ERR_NOMEM)
        PyErr_NoMemory();
    else
        PyErr_SetString(PyExc_ValueError, "the statement is not in that block");
    return -1;
}

/* Inserts `text` into `block` after `after` (NULL: at its start) or, when
 * before_mode, before `after` (NULL: at its end). */
static PyObject *insert_text(ModuleObject *m, const ptx_func *f, ptx_block *block, ptx_node *at,
                             int before_mode, PyObject *text)
{
    ptx_node *first = parse_statements(m, text);
    if (!first)
        return NULL;
    size_t n;
    ptx_node **nodes = split_list(first, &n);
    if (!nodes)
        return NULL;
    ptx_node *after = at;
    for (size_t i = 0; i < n; i++) {
        ptx_status st = before_mode ? ptx_insert_before(block, at, nodes[i])
                                    : ptx_insert_after(block, after, nodes[i]);
        if (status_error(st)) {
            PyMem_Free(nodes);
            return NULL;
        }
        after = nodes[i];
    }
    invalidate(m);
    PyObject *r = instr_views(m, f, block, nodes, n);
    PyMem_Free(nodes);
    return r;
}

/* The block of f where a new statement goes to open it: after the
 * declarations that open the body. */
static PyObject *Function_insert_at_start(FunctionObject *f, PyObject *text)
{
    if (!f->f->body) {
        PyErr_SetString(PyExc_ValueError, "a declaration has no body");
        return NULL;
    }
    ptx_node *after = NULL;
    for (ptx_node *s = f->f->body->first; s && s->kind == PTX_NODE_DECL; s = s->next)
        after = s;
    return insert_text(f->mod, f->f, f->f->body, after, 0, text);
}

static PyObject *Function_repr(FunctionObject *f)
{
    return PyUnicode_FromFormat("<ptxfront.Function %s %s%s>", f->f->is_entry ? ".entry" : ".func",
                                f->f->name->text, f->f->body ? "" : " (declaration)");
}

static PyObject *view_richcompare(PyObject *a, PyObject *b, int op, const void *pa)
{
    if ((op != Py_EQ && op != Py_NE) || Py_TYPE(a) != Py_TYPE(b))
        Py_RETURN_NOTIMPLEMENTED;
    const void *pb = NULL;
    if (Py_TYPE(a) == &Function_Type)
        pb = ((FunctionObject *)b)->f;
    else if (Py_TYPE(a) == &Instr_Type)
        pb = ((InstrObject *)b)->in;
    else if (Py_TYPE(a) == &Operand_Type)
        pb = ((OperandObject *)b)->e;
    int eq = pa == pb;
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static PyObject *Function_richcompare(PyObject *a, PyObject *b, int op)
{
    return view_richcompare(a, b, op, ((FunctionObject *)a)->f);
}

static Py_hash_t Function_hash(FunctionObject *f)
{
    return _Py_HashPointer((void *)f->f);
}

static PyGetSetDef Function_getset[] = {
    { "name", (getter)Function_get_name, NULL, "The function's name.", NULL },
    { "kind", (getter)Function_get_kind, NULL, "'entry' (a kernel) or 'func'.", NULL },
    { "linkage", (getter)Function_get_linkage, NULL, "'.visible', '.extern'... or None.", NULL },
    { "is_definition", (getter)Function_get_is_definition, NULL, "True when it has a body.",
      NULL },
    { "params", (getter)Function_get_params, NULL, "The parameters (list of Param).", NULL },
    { "returns", (getter)Function_get_returns, NULL, "The return parameters (list of Param).",
      NULL },
    { "instructions", (getter)Function_get_instructions, NULL,
      "The instructions of the body, nested blocks included, in source order.", NULL },
    { "registers", (getter)Function_get_registers, NULL,
      "The registers the body declares, by type: {'.b32': 6, '.pred': 2} (a %r<N> range "
      "counts N), as --stats gives them.", NULL },
    { "variables", (getter)Function_get_variables, NULL,
      "The variables the body declares other than registers (.shared, .local...): list of "
      "Variable.", NULL },
    { "blocks", (getter)Function_get_blocks, NULL,
      "The basic blocks of the control-flow graph (list of Block); block 0 is the entry.", NULL },
    { "callees", (getter)Function_get_callees, NULL,
      "The functions it calls (directly, or through .calltargets / .callprototype), each once.",
      NULL },
    { "line", (getter)Function_get_line, NULL, "The line where it starts, or None.", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

static PyMethodDef Function_methods[] = {
    { "declare_register", (PyCFunction)(void (*)(void))Function_declare_register,
      METH_VARARGS | METH_KEYWORDS,
      "declare_register(type, prefix=None) -> str\n\nDeclares a register of `type` ('.u32') "
      "after the declarations that open the body, under a fresh name from `prefix` "
      "('%ptxf' when None); returns the name." },
    { "insert_at_start", (PyCFunction)Function_insert_at_start, METH_O,
      "insert_at_start(text) -> list of Instruction\n\nParses `text` (PTX statements) and "
      "inserts them after the declarations that open the body." },
    { NULL, NULL, 0, NULL }
};

/* ------------------------------------------------------------------ */
/* Instruction                                                         */

static void Instr_dealloc(InstrObject *o)
{
    Py_DECREF(o->mod);
    PyObject_Free(o);
}

/* The instruction names of the tables (--list-instructions), a frozenset
 * made at import. */
static PyObject *instruction_names;

/* (opcode, modifiers) of an instruction: the opcode as --list-instructions
 * names it, the other dot-words as modifiers.  The name is the first word
 * and the words the tables class as words of the name (category NONE)
 * when that is a listed name; else the longest listed run of the first
 * words as written ("prmt.b32"); else the first word alone.  Instructions
 * written alike share their modifier array: the pair is cached by it. */
static PyObject *opcode_pair(ModuleObject *m, const ptx_instr *in)
{
    if (!m->opcodes && !(m->opcodes = PyDict_New()))
        return NULL;
    PyObject *key = PyLong_FromVoidPtr(in->mods);
    if (!key)
        return NULL;
    PyObject *pair = PyDict_GetItemWithError(m->opcodes, key);
    if (pair) {
        Py_DECREF(key);
        Py_INCREF(pair);
        return pair;
    }
    if (PyErr_Occurred()) {
        Py_DECREF(key);
        return NULL;
    }
    const ptx_name *op = ptx_instr_opcode(in);
    unsigned nmods = in->nmods;
    /* in_name[i]: modifier i is a word of the name */
    unsigned char small[64];
    unsigned char *in_name = nmods <= sizeof small ? small : PyMem_Malloc(nmods);
    PyObject *opcode = NULL, *mods = NULL;
    if (!in_name) {
        Py_DECREF(key);
        return PyErr_NoMemory();
    }
    memset(in_name, 0, nmods);
    outbuf b = { 0 };
    int ok = outbuf_write(&b, op->text, op->len) == 0;
    int found = 0;
    if (ok && in->family != PTX_FAMILY_NONE) {
        for (unsigned i = 0; ok && i < nmods; i++)
            if (in->mods[i].category == PTX_CAT_NONE) {
                in_name[i] = 1;
                ok = outbuf_write(&b, in->mods[i].name->text, in->mods[i].name->len) == 0;
            }
        opcode = ok ? outbuf_str(&b) : NULL;
        found = opcode && PySet_Contains(instruction_names, opcode) == 1;
        if (!found) {
            Py_CLEAR(opcode);
            memset(in_name, 0, nmods);
            b.len = 0;
            ok = ok && outbuf_write(&b, op->text, op->len) == 0;
        }
    }
    if (ok && !found) {
        /* the longest listed run of first words */
        unsigned best = 0;
        size_t best_len = b.len;
        for (unsigned i = 0; ok && i < nmods; i++) {
            ok = outbuf_write(&b, in->mods[i].name->text, in->mods[i].name->len) == 0;
            PyObject *t = ok ? PyUnicode_DecodeUTF8(b.data, (Py_ssize_t)b.len, "surrogateescape")
                             : NULL;
            if (!t) {
                ok = 0;
                break;
            }
            if (PySet_Contains(instruction_names, t) == 1) {
                best = i + 1;
                best_len = b.len;
            }
            Py_DECREF(t);
        }
        for (unsigned i = 0; i < best; i++)
            in_name[i] = 1;
        b.len = best_len;
        if (b.data)
            b.data[b.len] = '\0';
        opcode = ok ? outbuf_str(&b) : NULL;
    }
    PyMem_RawFree(b.data);
    if (!ok || !opcode) {
        if (in_name != small)
            PyMem_Free(in_name);
        Py_XDECREF(opcode);
        Py_DECREF(key);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    Py_ssize_t n = 0;
    for (unsigned i = 0; i < nmods; i++)
        n += !in_name[i];
    mods = PyTuple_New(n);
    for (unsigned i = 0, k = 0; mods && i < nmods; i++) {
        if (in_name[i])
            continue;
        PyObject *x = name_str(m, in->mods[i].name);
        if (!x) {
            Py_CLEAR(mods);
            break;
        }
        PyTuple_SET_ITEM(mods, k++, x);
    }
    if (in_name != small)
        PyMem_Free(in_name);
    if (mods)
        pair = PyTuple_Pack(2, opcode, mods);
    Py_DECREF(opcode);
    Py_XDECREF(mods);
    if (pair && PyDict_SetItem(m->opcodes, key, pair) < 0)
        Py_CLEAR(pair);
    Py_DECREF(key);
    return pair;
}

static PyObject *Instr_get_opcode(InstrObject *o, void *c)
{
    (void)c;
    PyObject *pair = opcode_pair(o->mod, o->in);
    if (!pair)
        return NULL;
    PyObject *r = PyTuple_GET_ITEM(pair, 0);
    Py_INCREF(r);
    Py_DECREF(pair);
    return r;
}

static PyObject *Instr_get_modifiers(InstrObject *o, void *c)
{
    (void)c;
    PyObject *pair = opcode_pair(o->mod, o->in);
    if (!pair)
        return NULL;
    PyObject *r = PyTuple_GET_ITEM(pair, 1);
    Py_INCREF(r);
    Py_DECREF(pair);
    return r;
}

static PyObject *Instr_get_family(InstrObject *o, void *c)
{
    (void)c;
    if (o->in->family == PTX_FAMILY_NONE)
        Py_RETURN_NONE;
    return cstr(ptx_family_name((ptx_family)o->in->family));
}

static PyObject *Instr_get_operands(InstrObject *o, void *c)
{
    (void)c;
    int src = has_source(&o->in->base);
    PyObject *list = PyList_New(o->in->nops);
    for (unsigned i = 0; list && i < o->in->nops; i++) {
        PyObject *e = new_operand(o->mod, &o->in->ops[i], src);
        if (!e) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, e);
    }
    return list;
}

static PyObject *Instr_get_guard(InstrObject *o, void *c)
{
    (void)c;
    const ptx_expr *g = ptx_instr_guard(o->in);
    if (!g)
        Py_RETURN_NONE;
    PyObject *name = name_str(o->mod, ptx_expr_name(g));
    if (!name || !o->in->guard_neg)
        return name;
    PyObject *r = PyUnicode_FromFormat("!%U", name);
    Py_DECREF(name);
    return r;
}

static PyObject *Instr_get_line(InstrObject *o, void *c)
{
    (void)c;
    return has_source(&o->in->base) ? position_tuple(o->mod, o->in->base.span.off, 0)
                                    : (Py_INCREF(Py_None), Py_None);
}

static PyObject *Instr_get_column(InstrObject *o, void *c)
{
    (void)c;
    return has_source(&o->in->base) ? position_tuple(o->mod, o->in->base.span.off, 1)
                                    : (Py_INCREF(Py_None), Py_None);
}

static PyObject *Instr_get_text(InstrObject *o, void *c)
{
    (void)c;
    return node_text(o->mod, &o->in->base);
}

static PyObject *Instr_get_function(InstrObject *o, void *c)
{
    (void)c;
    return new_function(o->mod, o->func);
}

static ptx_block *instr_parent(InstrObject *o)
{
    if (!o->parent)
        o->parent = parent_of(o->func, &o->in->base);
    return o->parent;
}

static PyObject *Instr_insert_before(InstrObject *o, PyObject *text)
{
    ptx_block *b = instr_parent(o);
    return b ? insert_text(o->mod, o->func, b, &o->in->base, 1, text) : NULL;
}

static PyObject *Instr_insert_after(InstrObject *o, PyObject *text)
{
    ptx_block *b = instr_parent(o);
    return b ? insert_text(o->mod, o->func, b, &o->in->base, 0, text) : NULL;
}

static PyObject *Instr_remove(InstrObject *o, PyObject *unused)
{
    (void)unused;
    ptx_block *b = instr_parent(o);
    if (!b || status_error(ptx_remove(o->mod->ctx, b, &o->in->base)))
        return NULL;
    o->parent = NULL;
    invalidate(o->mod);
    Py_RETURN_NONE;
}

static PyObject *Instr_replace(InstrObject *o, PyObject *text)
{
    ptx_block *b = instr_parent(o);
    if (!b)
        return NULL;
    ptx_node *first = parse_statements(o->mod, text);
    if (!first)
        return NULL;
    size_t n;
    ptx_node **nodes = split_list(first, &n);
    if (!nodes)
        return NULL;
    ptx_status st = ptx_replace(o->mod->ctx, b, &o->in->base, nodes[0]);
    for (size_t i = 1; st == PTX_OK && i < n; i++)
        st = ptx_insert_after(b, nodes[i - 1], nodes[i]);
    if (status_error(st)) {
        PyMem_Free(nodes);
        return NULL;
    }
    o->parent = NULL;
    invalidate(o->mod);
    PyObject *r = instr_views(o->mod, o->func, b, nodes, n);
    PyMem_Free(nodes);
    return r;
}

static PyObject *Instr_repr(InstrObject *o)
{
    PyObject *text = node_text(o->mod, &o->in->base);
    if (!text)
        return NULL;
    PyObject *r;
    if (has_source(&o->in->base)) {
        ptx_position p = ptx_context_position(o->mod->ctx, o->in->base.span.off);
        r = PyUnicode_FromFormat("<ptxfront.Instruction %u:%u %R>", p.line, p.col, text);
    } else {
        r = PyUnicode_FromFormat("<ptxfront.Instruction (edited) %R>", text);
    }
    Py_DECREF(text);
    return r;
}

static PyObject *Instr_richcompare(PyObject *a, PyObject *b, int op)
{
    return view_richcompare(a, b, op, ((InstrObject *)a)->in);
}

static Py_hash_t Instr_hash(InstrObject *o)
{
    return _Py_HashPointer(o->in);
}

static PyGetSetDef Instr_getset[] = {
    { "opcode", (getter)Instr_get_opcode, NULL,
      "The instruction's name as --list-instructions gives it ('ld', 'mul.wide', "
      "'wgmma.mma_async'); the first word alone when the tables do not know it.", NULL },
    { "modifiers", (getter)Instr_get_modifiers, NULL,
      "The other dot-words, in source order (tuple of str: '.global', '.f32').", NULL },
    { "family", (getter)Instr_get_family, NULL, "The instruction family ('ld'), or None.", NULL },
    { "operands", (getter)Instr_get_operands, NULL, "The operands (list of Operand).", NULL },
    { "guard", (getter)Instr_get_guard, NULL, "The guard predicate ('%p1' or '!%p1'), or None.",
      NULL },
    { "line", (getter)Instr_get_line, NULL, "1-based line, or None for an edited one.", NULL },
    { "column", (getter)Instr_get_column, NULL, "1-based column (bytes), or None.", NULL },
    { "text", (getter)Instr_get_text, NULL,
      "Its source text (an edited one: in the canonical layout).", NULL },
    { "function", (getter)Instr_get_function, NULL, "The function it is in.", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

static PyMethodDef Instr_methods[] = {
    { "insert_before", (PyCFunction)Instr_insert_before, METH_O,
      "insert_before(text) -> list of Instruction\n\nParses `text` (PTX statements) and inserts "
      "them before this instruction; returns the new instructions.  ValueError when the text "
      "does not parse." },
    { "insert_after", (PyCFunction)Instr_insert_after, METH_O,
      "insert_after(text) -> list of Instruction\n\nThe same, after this instruction." },
    { "replace", (PyCFunction)Instr_replace, METH_O,
      "replace(text) -> list of Instruction\n\nPuts the statements of `text` in its place." },
    { "remove", (PyCFunction)Instr_remove, METH_NOARGS,
      "remove()\n\nTakes the instruction out of its block (its text is left out of emit())." },
    { NULL, NULL, 0, NULL }
};

/* ------------------------------------------------------------------ */
/* Operand                                                             */

static void Operand_dealloc(OperandObject *o)
{
    Py_DECREF(o->mod);
    PyObject_Free(o);
}

static int format_expr(outbuf *b, const ptx_expr *e, unsigned depth);

static int put(outbuf *b, const char *s)
{
    return outbuf_write(b, s, strlen(s));
}

static int format_items(outbuf *b, const ptx_expr *e, const char *open, const char *close,
                        unsigned depth)
{
    int rc = put(b, open);
    for (uint32_t i = 0; rc == 0 && i < ptx_expr_count(e); i++) {
        if (i)
            rc = put(b, ", ");
        if (rc == 0)
            rc = format_expr(b, ptx_expr_item(e, i), depth + 1);
    }
    return rc ? rc : put(b, close);
}

/* An operand in PTX syntax, for operands that have no source text (edited
 * statements).  Recursion is bounded: the parser's operands are shallow,
 * the editing API's are built by programs; past 200 levels "..." */
static int format_expr(outbuf *b, const ptx_expr *e, unsigned depth)
{
    char tmp[64];
    if (depth > 200)
        return put(b, "...");
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT: {
        unsigned radix = e->flags & PTX_INT_RADIX_MASK;
        unsigned long long v = (unsigned long long)ptx_expr_int(e);
        snprintf(tmp, sizeof tmp, radix == PTX_INT_HEX ? "0x%llX" : "%llu", v);
        if (put(b, tmp))
            return -1;
        return (e->flags & PTX_INT_UNSIGNED) ? put(b, "U") : 0;
    }
    case PTX_EXPR_FLOAT:
        snprintf(tmp, sizeof tmp, "%.17g", ptx_expr_float(e));
        return put(b, tmp);
    case PTX_EXPR_F32:
        snprintf(tmp, sizeof tmp, "0f%08llX", (unsigned long long)(ptx_expr_int(e) & 0xffffffffu));
        return put(b, tmp);
    case PTX_EXPR_F64:
        snprintf(tmp, sizeof tmp, "0d%016llX", (unsigned long long)ptx_expr_int(e));
        return put(b, tmp);
    case PTX_EXPR_SYM: {
        const ptx_name *sel = ptx_expr_sel(e);
        if (outbuf_write(b, ptx_expr_name(e)->text, ptx_expr_name(e)->len))
            return -1;
        return sel ? outbuf_write(b, sel->text, sel->len) : 0;
    }
    case PTX_EXPR_SINK:
        return put(b, "_");
    case PTX_EXPR_UNARY:
        return put(b, ptx_op_name((ptx_op)e->op) ? ptx_op_name((ptx_op)e->op) : "?") ||
               format_expr(b, ptx_expr_a(e), depth + 1);
    case PTX_EXPR_CAST:
        return put(b, "(") || put(b, ptx_type_name((ptx_type)e->op) ? ptx_type_name((ptx_type)e->op) : "?") ||
               put(b, ")") || format_expr(b, ptx_expr_a(e), depth + 1);
    case PTX_EXPR_BINARY:
        return format_expr(b, ptx_expr_a(e), depth + 1) ||
               put(b, ptx_op_name((ptx_op)e->op) ? ptx_op_name((ptx_op)e->op) : "?") ||
               format_expr(b, ptx_expr_b(e), depth + 1);
    case PTX_EXPR_COND:
        return format_expr(b, ptx_expr_item(e, 0), depth + 1) || put(b, " ? ") ||
               format_expr(b, ptx_expr_item(e, 1), depth + 1) || put(b, " : ") ||
               format_expr(b, ptx_expr_item(e, 2), depth + 1);
    case PTX_EXPR_PAREN:
        return put(b, "(") || format_expr(b, ptx_expr_a(e), depth + 1) || put(b, ")");
    case PTX_EXPR_INDEX:
        return format_expr(b, ptx_expr_a(e), depth + 1) || put(b, "[") ||
               format_expr(b, ptx_expr_b(e), depth + 1) || put(b, "]");
    case PTX_EXPR_ADDR: {
        const ptx_name *suf = ptx_expr_suffix(e);
        if (format_items(b, e, "[", "]", depth))
            return -1;
        return suf ? outbuf_write(b, suf->text, suf->len) : 0;
    }
    case PTX_EXPR_VEC:
        return format_items(b, e, "{", "}", depth);
    case PTX_EXPR_LIST:
        return format_items(b, e, "(", ")", depth);
    case PTX_EXPR_PAIR:
        return format_expr(b, ptx_expr_a(e), depth + 1) || put(b, "|") ||
               format_expr(b, ptx_expr_b(e), depth + 1);
    case PTX_EXPR_GENERIC:
        return put(b, "generic(") || format_expr(b, ptx_expr_a(e), depth + 1) || put(b, ")");
    case PTX_EXPR_MASK:
        return format_expr(b, ptx_expr_a(e), depth + 1) || put(b, "(") ||
               format_expr(b, ptx_expr_b(e), depth + 1) || put(b, ")");
    case PTX_EXPR_FIELD:
        return format_expr(b, ptx_expr_a(e), depth + 1) || put(b, " = ") ||
               format_expr(b, ptx_expr_b(e), depth + 1);
    case PTX_EXPR_RANGE:
        snprintf(tmp, sizeof tmp, "<%u>", (unsigned)ptx_expr_count(e));
        return outbuf_write(b, ptx_expr_name(e)->text, ptx_expr_name(e)->len) || put(b, tmp);
    default:
        return put(b, "?");
    }
}

static PyObject *operand_text(OperandObject *o)
{
    if (o->has_source)
        return source_slice(o->mod, o->e->off, ptx_expr_span(o->e).len);
    outbuf b = { 0 };
    if (format_expr(&b, o->e, 0)) {
        PyMem_RawFree(b.data);
        return PyErr_NoMemory();
    }
    return outbuf_str(&b);
}

static PyObject *Operand_get_text(OperandObject *o, void *c)
{
    (void)c;
    return operand_text(o);
}

static PyObject *Operand_get_kind(OperandObject *o, void *c)
{
    (void)c;
    return cstr(ptx_expr_kind_name((ptx_expr_kind)o->e->kind));
}

static PyObject *Operand_get_name(OperandObject *o, void *c)
{
    (void)c;
    if (o->e->kind != PTX_EXPR_SYM && o->e->kind != PTX_EXPR_RANGE)
        Py_RETURN_NONE;
    return name_str(o->mod, ptx_expr_name(o->e));
}

static PyObject *Operand_get_selector(OperandObject *o, void *c)
{
    (void)c;
    if (o->e->kind != PTX_EXPR_SYM || !ptx_expr_sel(o->e))
        Py_RETURN_NONE;
    return name_str(o->mod, ptx_expr_sel(o->e));
}

static PyObject *Operand_get_value(OperandObject *o, void *c)
{
    (void)c;
    switch ((ptx_expr_kind)o->e->kind) {
    case PTX_EXPR_INT:
        return PyLong_FromUnsignedLongLong(ptx_expr_int(o->e));
    case PTX_EXPR_FLOAT:
        return PyFloat_FromDouble(ptx_expr_float(o->e));
    case PTX_EXPR_F32: {
        uint32_t bits = (uint32_t)ptx_expr_int(o->e);
        float f;
        memcpy(&f, &bits, sizeof f);
        return PyFloat_FromDouble(f);
    }
    case PTX_EXPR_F64: {
        uint64_t bits = ptx_expr_int(o->e);
        double d;
        memcpy(&d, &bits, sizeof d);
        return PyFloat_FromDouble(d);
    }
    default:
        Py_RETURN_NONE;
    }
}

static PyObject *Operand_get_items(OperandObject *o, void *c)
{
    (void)c;
    uint32_t n = ptx_expr_is_leaf(o->e) || o->e->kind == PTX_EXPR_RANGE ? 0 : ptx_expr_count(o->e);
    PyObject *list = PyList_New(n);
    for (uint32_t i = 0; list && i < n; i++) {
        PyObject *x = new_operand(o->mod, ptx_expr_item(o->e, i), o->has_source);
        if (!x) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

/* An address [base], [base+N], [base-N], [base+-N], [N]: its base (NULL
 * for [N]) and offset; false for another operand. */
static int addr_parts(const ptx_expr *e, const ptx_expr **base, long long *off)
{
    if (e->kind != PTX_EXPR_ADDR || ptx_expr_count(e) != 1)
        return 0;
    const ptx_expr *x = ptx_expr_item(e, 0);
    *base = x;
    *off = 0;
    if (x->kind == PTX_EXPR_INT) {
        *base = NULL;
        *off = (long long)ptx_expr_int(x);
    } else if (x->kind == PTX_EXPR_BINARY && (x->op == PTX_OP_ADD || x->op == PTX_OP_SUB)) {
        const ptx_expr *n = ptx_expr_b(x);
        int neg = x->op == PTX_OP_SUB;
        while (n->kind == PTX_EXPR_UNARY && (n->op == PTX_OP_NEG || n->op == PTX_OP_PLUS)) {
            neg ^= n->op == PTX_OP_NEG;
            n = ptx_expr_a(n);
        }
        if (n->kind == PTX_EXPR_INT) {
            *base = ptx_expr_a(x);
            long long v = (long long)ptx_expr_int(n);
            *off = neg ? (long long)(0ull - (unsigned long long)v) : v;
        }
    }
    return 1;
}

static PyObject *Operand_get_base(OperandObject *o, void *c)
{
    (void)c;
    const ptx_expr *base;
    long long off;
    if (!addr_parts(o->e, &base, &off) || !base)
        Py_RETURN_NONE;
    return new_operand(o->mod, base, o->has_source);
}

static PyObject *Operand_get_offset(OperandObject *o, void *c)
{
    (void)c;
    const ptx_expr *base;
    long long off;
    if (!addr_parts(o->e, &base, &off))
        Py_RETURN_NONE;
    return PyLong_FromLongLong(off);
}

static PyObject *Operand_get_elements(OperandObject *o, void *c)
{
    if (o->e->kind != PTX_EXPR_VEC)
        Py_RETURN_NONE;
    return Operand_get_items(o, c);
}

static PyObject *Operand_repr(OperandObject *o)
{
    PyObject *t = operand_text(o);
    if (!t)
        return NULL;
    PyObject *r = PyUnicode_FromFormat("<ptxfront.Operand %s %R>",
                                       ptx_expr_kind_name((ptx_expr_kind)o->e->kind), t);
    Py_DECREF(t);
    return r;
}

static PyObject *Operand_str(OperandObject *o)
{
    return operand_text(o);
}

static PyObject *Operand_richcompare(PyObject *a, PyObject *b, int op)
{
    return view_richcompare(a, b, op, ((OperandObject *)a)->e);
}

static Py_hash_t Operand_hash(OperandObject *o)
{
    return _Py_HashPointer((void *)o->e);
}

static PyGetSetDef Operand_getset[] = {
    { "kind", (getter)Operand_get_kind, NULL,
      "'int', 'float', 'f32', 'f64', 'sym', 'sink', 'unary', 'cast', 'binary', 'cond', "
      "'paren', 'index', 'addr', 'vec', 'list', 'pair', ...", NULL },
    { "text", (getter)Operand_get_text, NULL, "Its source text (edited: as PTX prints it).",
      NULL },
    { "name", (getter)Operand_get_name, NULL, "A name's text ('%r1', '%tid'), else None.", NULL },
    { "selector", (getter)Operand_get_selector, NULL, "A name's selector ('.x'), else None.",
      NULL },
    { "value", (getter)Operand_get_value, NULL,
      "A literal's value (int, or float for float literals), else None.", NULL },
    { "items", (getter)Operand_get_items, NULL,
      "Its parts (list of Operand): an address's or vector's items, a binary's two sides.",
      NULL },
    { "base", (getter)Operand_get_base, NULL,
      "An address [base+offset]: its base (Operand), None for [N] or another operand.", NULL },
    { "offset", (getter)Operand_get_offset, NULL,
      "An address [base+offset]: its offset (int, 0 when absent), else None.", NULL },
    { "elements", (getter)Operand_get_elements, NULL,
      "A vector {a, b...}: its elements (list of Operand), else None.", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

/* ------------------------------------------------------------------ */
/* Block                                                               */

static void Block_dealloc(BlockObject *b)
{
    Py_DECREF(b->graphs);
    PyObject_Free(b);
}

static PyObject *Block_get_index(BlockObject *b, void *c)
{
    (void)c;
    return PyLong_FromUnsignedLong(b->index);
}

static PyObject *Block_get_is_exit(BlockObject *b, void *c)
{
    (void)c;
    return PyBool_FromLong(b->index == b->cfg->nblocks);
}

static PyObject *Block_get_label(BlockObject *b, void *c)
{
    (void)c;
    const ptx_label *l = b->cfg->blocks[b->index].label;
    return l ? name_str(b->graphs->mod, l->name) : (Py_INCREF(Py_None), Py_None);
}

static PyObject *Block_get_instructions(BlockObject *b, void *c)
{
    (void)c;
    const ptx_cfg_block *cb = &b->cfg->blocks[b->index];
    PyObject *list = PyList_New(0);
    for (uint32_t i = 0; list && i < cb->count; i++) {
        const ptx_node *n = b->cfg->stmts[cb->first + i];
        if (n->kind != PTX_NODE_INSTR)
            continue;
        PyObject *o = new_instr(b->graphs->mod, (ptx_instr *)n, b->cfg->func, NULL);
        if (!o || PyList_Append(list, o) < 0)
            Py_CLEAR(list);
        Py_XDECREF(o);
    }
    return list;
}

static PyObject *block_edges(BlockObject *b, int succ)
{
    const ptx_cfg_block *cb = &b->cfg->blocks[b->index];
    uint32_t n = succ ? cb->nsucc : cb->npred;
    const uint32_t *idx = succ ? cb->succ : cb->pred;
    PyObject *list = PyList_New(n);
    for (uint32_t i = 0; list && i < n; i++) {
        const ptx_cfg_edge *e = &b->cfg->edges[idx[i]];
        PyObject *o = new_block(b->graphs, b->cfg, succ ? e->to : e->from);
        if (!o) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, o);
    }
    return list;
}

static PyObject *Block_get_successors(BlockObject *b, void *c)
{
    (void)c;
    return block_edges(b, 1);
}

static PyObject *Block_get_predecessors(BlockObject *b, void *c)
{
    (void)c;
    return block_edges(b, 0);
}

static PyObject *Block_get_loop_depth(BlockObject *b, void *c)
{
    (void)c;
    return PyLong_FromUnsignedLong(b->cfg->blocks[b->index].loop_depth);
}

static PyObject *Block_get_reachable(BlockObject *b, void *c)
{
    (void)c;
    return PyBool_FromLong(b->cfg->blocks[b->index].reachable);
}

/* Inserts `text` where the block starts: after its leading labels (and,
 * for the entry, the declarations that open the body), before its first
 * other statement; into an empty body at its end. */
static PyObject *Block_insert_at_start(BlockObject *b, PyObject *text)
{
    ModuleObject *m = b->graphs->mod;
    const ptx_cfg *cfg = b->cfg;
    const ptx_cfg_block *cb = &cfg->blocks[b->index];
    if (b->index == cfg->nblocks) {
        PyErr_SetString(PyExc_ValueError, "the exit node has no statements");
        return NULL;
    }
    if (b->index == 0) {
        FunctionObject fo;
        fo.mod = m;
        fo.f = cfg->func;
        return Function_insert_at_start(&fo, text);
    }
    uint32_t i = 0;
    while (i < cb->count && cfg->stmts[cb->first + i]->kind == PTX_NODE_LABEL)
        i++;
    if (i == 0 || cb->count == 0) {
        if (cb->count == 0) {
            PyErr_SetString(PyExc_ValueError, "the block has no statement to insert at");
            return NULL;
        }
    }
    ptx_node *at;
    int before;
    if (i < cb->count) {
        at = (ptx_node *)cfg->stmts[cb->first + i];
        before = 1;
    } else {
        at = (ptx_node *)cfg->stmts[cb->first + i - 1];
        before = 0;
    }
    ptx_block *parent = parent_of(cfg->func, at);
    if (!parent)
        return NULL;
    return insert_text(m, cfg->func, parent, at, before, text);
}

static PyObject *Block_repr(BlockObject *b)
{
    if (b->index == b->cfg->nblocks)
        return PyUnicode_FromFormat("<ptxfront.Block exit of %s>", b->cfg->func->name->text);
    const ptx_cfg_block *cb = &b->cfg->blocks[b->index];
    return PyUnicode_FromFormat("<ptxfront.Block %u of %s%s%s: %u instructions>", b->index,
                                b->cfg->func->name->text, cb->label ? " at " : "",
                                cb->label ? cb->label->name->text : "", cb->ninstrs);
}

static PyObject *Block_richcompare(PyObject *a, PyObject *bo, int op)
{
    if ((op != Py_EQ && op != Py_NE) || Py_TYPE(bo) != &Block_Type)
        Py_RETURN_NOTIMPLEMENTED;
    BlockObject *x = (BlockObject *)a, *y = (BlockObject *)bo;
    int eq = x->cfg == y->cfg && x->index == y->index;
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t Block_hash(BlockObject *b)
{
    Py_hash_t h = _Py_HashPointer((void *)b->cfg) ^ (Py_hash_t)(b->index * 1000003u);
    return h == -1 ? -2 : h;
}

static PyGetSetDef Block_getset[] = {
    { "index", (getter)Block_get_index, NULL, "Its index in the function's blocks.", NULL },
    { "label", (getter)Block_get_label, NULL, "Its first label, or None.", NULL },
    { "is_exit", (getter)Block_get_is_exit, NULL,
      "True for the exit node (the target of ret and exit; no statements).", NULL },
    { "instructions", (getter)Block_get_instructions, NULL, "Its instructions.", NULL },
    { "successors", (getter)Block_get_successors, NULL,
      "The blocks it goes to (one per edge; the exit node among them).", NULL },
    { "predecessors", (getter)Block_get_predecessors, NULL, "The blocks that go to it.", NULL },
    { "loop_depth", (getter)Block_get_loop_depth, NULL, "How many loops it is in.", NULL },
    { "reachable", (getter)Block_get_reachable, NULL, "Whether the entry reaches it.", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

static PyMethodDef Block_methods[] = {
    { "insert_at_start", (PyCFunction)Block_insert_at_start, METH_O,
      "insert_at_start(text) -> list of Instruction\n\nParses `text` and inserts the statements "
      "where the block starts: after its labels (the entry block: after the declarations that "
      "open the body).  The blocks are those of before the edit: take every block's place "
      "before changing any." },
    { NULL, NULL, 0, NULL }
};

/* ------------------------------------------------------------------ */
/* Reference                                                           */

PyDoc_STRVAR(explain_doc,
"explain(opcode) -> str\n\n"
"The forms of an instruction (ptx-front --explain) in the PTX manual's\n"
"notation; ValueError when the tables have no such instruction.");

static PyObject *py_explain(PyObject *self, PyObject *arg)
{
    (void)self;
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name)
        return NULL;
    outbuf b = { 0 };
    ptx_status st = ptx_print_instruction_forms(name, outbuf_write, &b);
    if (st != PTX_OK) {
        PyMem_RawFree(b.data);
        if (st == PTX_ERR_INPUT)
            PyErr_Format(PyExc_ValueError, "no instruction named %R", arg);
        else
            PyErr_NoMemory();
        return NULL;
    }
    return outbuf_str(&b);
}

PyDoc_STRVAR(instructions_doc,
"instructions(pattern=None) -> list of str\n\n"
"The instruction names of the tables (ptx-front --list-instructions),\n"
"sorted: all, or those a shell glob or a first word selects.");

static PyObject *py_instructions(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "pattern", NULL };
    const char *pattern = NULL;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|z:instructions", kwlist, &pattern))
        return NULL;
    outbuf b = { 0 };
    if (ptx_print_instruction_list(pattern, outbuf_write, &b, NULL) != PTX_OK) {
        PyMem_RawFree(b.data);
        return PyErr_NoMemory();
    }
    PyObject *list = PyList_New(0);
    for (const char *p = b.data; list && p && *p;) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        const char *sp = p;
        while (sp < eol && *sp != ' ')
            sp++;
        if (sp > p) {
            PyObject *s = PyUnicode_FromStringAndSize(p, sp - p);
            if (!s || PyList_Append(list, s) < 0)
                Py_CLEAR(list);
            Py_XDECREF(s);
        }
        p = *eol ? eol + 1 : eol;
    }
    PyMem_RawFree(b.data);
    return list;
}

/* ------------------------------------------------------------------ */
/* Types and the module                                                */

static PyStructSequence_Field Diagnostic_fields[] = {
    { "severity", "'error', 'warning' or 'note'" },
    { "line", "1-based line, or None (a diagnostic of edited statements)" },
    { "column", "1-based column in bytes, as the CLI prints it, or None" },
    { "message", "the message" },
    { "fixit", "what should replace the range ('did you mean'), or None" },
    { "code", "the short name of its code: 'syntax', 'instruction', 'symbol'..." },
    { "file", "the input's name" },
    { NULL, NULL }
};

static PyStructSequence_Desc Diagnostic_desc = {
    "ptxfront.Diagnostic", "A diagnostic of a parse or of validate().", Diagnostic_fields, 7
};

static PyStructSequence_Field Param_fields[] = {
    { "name", "the parameter's name" },
    { "space", "its state space ('.param', '.reg')" },
    { "type", "its type ('.u64')" },
    { "align", "its .align, or 0" },
    { "dims", "its array dimensions (tuple of int; 0 for [])" },
    { NULL, NULL }
};

static PyStructSequence_Field Variable_fields[] = {
    { "name", "the variable's name" },
    { "space", "its state space ('.shared', '.global')" },
    { "type", "its type ('.b8')" },
    { "align", "its .align, or 0" },
    { "dims", "its array dimensions (tuple of int; 0 for [])" },
    { "linkage", "'.extern', '.visible'... or None" },
    { NULL, NULL }
};

static PyStructSequence_Desc Variable_desc = {
    "ptxfront.Variable", "A variable declared in a module or a function body.", Variable_fields, 6
};

static PyStructSequence_Desc Param_desc = {
    "ptxfront.Param", "A parameter of a kernel or function.", Param_fields, 5
};

static PyTypeObject Module_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ptxfront.Module",
    .tp_basicsize = sizeof(ModuleObject),
    .tp_dealloc = (destructor)Module_dealloc,
    .tp_repr = (reprfunc)Module_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A parsed PTX module (from parse() or parse_file()).  It owns the tree; every "
              "Function, Instruction, Operand and Block is a view that keeps it alive.",
    .tp_traverse = (traverseproc)Module_traverse,
    .tp_clear = (inquiry)Module_clear,
    .tp_weaklistoffset = offsetof(ModuleObject, weakrefs),
    .tp_methods = Module_methods,
    .tp_getset = Module_getset,
};

static PyTypeObject Graphs_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ptxfront._Graphs",
    .tp_basicsize = sizeof(GraphsObject),
    .tp_dealloc = (destructor)Graphs_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The control-flow and call graphs of a Module (internal).",
    .tp_traverse = (traverseproc)Graphs_traverse,
};

static PyTypeObject Function_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ptxfront.Function",
    .tp_basicsize = sizeof(FunctionObject),
    .tp_dealloc = (destructor)Function_dealloc,
    .tp_repr = (reprfunc)Function_repr,
    .tp_hash = (hashfunc)Function_hash,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A kernel (.entry) or function (.func) of a Module.",
    .tp_richcompare = Function_richcompare,
    .tp_methods = Function_methods,
    .tp_getset = Function_getset,
};

static PyTypeObject Instr_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ptxfront.Instruction",
    .tp_basicsize = sizeof(InstrObject),
    .tp_dealloc = (destructor)Instr_dealloc,
    .tp_repr = (reprfunc)Instr_repr,
    .tp_hash = (hashfunc)Instr_hash,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An instruction of a function body.",
    .tp_richcompare = Instr_richcompare,
    .tp_methods = Instr_methods,
    .tp_getset = Instr_getset,
};

static PyTypeObject Operand_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ptxfront.Operand",
    .tp_basicsize = sizeof(OperandObject),
    .tp_dealloc = (destructor)Operand_dealloc,
    .tp_repr = (reprfunc)Operand_repr,
    .tp_str = (reprfunc)Operand_str,
    .tp_hash = (hashfunc)Operand_hash,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An operand of an instruction, or a part of one.",
    .tp_richcompare = Operand_richcompare,
    .tp_getset = Operand_getset,
};

static PyTypeObject Block_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ptxfront.Block",
    .tp_basicsize = sizeof(BlockObject),
    .tp_dealloc = (destructor)Block_dealloc,
    .tp_repr = (reprfunc)Block_repr,
    .tp_hash = (hashfunc)Block_hash,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A basic block of a function's control-flow graph.",
    .tp_richcompare = Block_richcompare,
    .tp_methods = Block_methods,
    .tp_getset = Block_getset,
};

static PyMethodDef module_methods[] = {
    { "parse", (PyCFunction)(void (*)(void))py_parse, METH_VARARGS | METH_KEYWORDS, parse_doc },
    { "parse_file", (PyCFunction)(void (*)(void))py_parse_file, METH_VARARGS | METH_KEYWORDS,
      parse_file_doc },
    { "explain", (PyCFunction)py_explain, METH_O, explain_doc },
    { "instructions", (PyCFunction)(void (*)(void))py_instructions, METH_VARARGS | METH_KEYWORDS,
      instructions_doc },
    { NULL, NULL, 0, NULL }
};

static struct PyModuleDef ptxfront_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ptxfront",
    .m_doc = "ptxfront: parse, check, walk and edit NVIDIA PTX (ISA 9.0) modules.\n\n"
             "    m = ptxfront.parse_file('kernel.ptx')\n"
             "    for d in m.diagnostics: print(d)\n"
             "    for f in m.functions:\n"
             "        for i in f.instructions: print(i.opcode, [o.text for o in i.operands])",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit_ptxfront(void);

PyMODINIT_FUNC PyInit_ptxfront(void)
{
    PyTypeObject *types[] = { &Module_Type, &Graphs_Type, &Function_Type, &Instr_Type,
                              &Operand_Type, &Block_Type };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (PyType_Ready(types[i]) < 0)
            return NULL;
    if (!Diagnostic_Type.tp_name &&
        PyStructSequence_InitType2(&Diagnostic_Type, &Diagnostic_desc) < 0)
        return NULL;
    if (!Param_Type.tp_name && PyStructSequence_InitType2(&Param_Type, &Param_desc) < 0)
        return NULL;
    if (!Variable_Type.tp_name && PyStructSequence_InitType2(&Variable_Type, &Variable_desc) < 0)
        return NULL;
    if (!instruction_names) {
        PyObject *args = PyTuple_New(0);
        PyObject *list = args ? py_instructions(NULL, args, NULL) : NULL;
        Py_XDECREF(args);
        instruction_names = list ? PyFrozenSet_New(list) : NULL;
        Py_XDECREF(list);
        if (!instruction_names)
            return NULL;
    }
    PyObject *m = PyModule_Create(&ptxfront_module);
    if (!m)
        return NULL;
    static const char *names[] = { "Module", NULL, "Function", "Instruction", "Operand", "Block" };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        if (!names[i])
            continue;
        Py_INCREF(types[i]);
        if (PyModule_AddObject(m, names[i], (PyObject *)types[i]) < 0) {
            Py_DECREF(types[i]);
            Py_DECREF(m);
            return NULL;
        }
    }
    Py_INCREF(&Diagnostic_Type);
    Py_INCREF(&Param_Type);
    Py_INCREF(&Variable_Type);
    if (PyModule_AddObject(m, "Diagnostic", (PyObject *)&Diagnostic_Type) < 0 ||
        PyModule_AddObject(m, "Param", (PyObject *)&Param_Type) < 0 ||
        PyModule_AddObject(m, "Variable", (PyObject *)&Variable_Type) < 0 ||
        PyModule_AddStringConstant(m, "__version__", ptx_version()) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
