// Counts, for each instruction name as written (opcode and modifiers:
// "ld.param.u64"), the instructions of a PTX module and their operands:
// the C API used from C++17.
// usage: opcount FILE.ptx   prints "name instructions operands" lines, sorted
#include <cstdio>
#include <map>
#include <string>

#include <ptx/ptx.h>

namespace {

struct counts {
    unsigned instructions = 0, operands = 0;
};

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: opcount FILE.ptx\n");
        return 2;
    }
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = nullptr;
    if (!ctx || ptx_parse_file(ctx, argv[1], &m) != PTX_OK) {
        std::fprintf(stderr, "opcount: %s: not a valid PTX module\n", argv[1]);
        ptx_context_free(ctx);
        return 1;
    }
    std::map<std::string, counts> names;
    ptx_iter *it = ptx_iter_new(m);
    const ptx_node *n;
    ptx_event ev;
    while (it && (ev = ptx_iter_next(it, &n)) > 0) {
        if (ev != PTX_EVENT_ENTER || n->kind != PTX_NODE_INSTR)
            continue;
        const auto *in = reinterpret_cast<const ptx_instr *>(n);
        std::string name = ptx_instr_opcode(in)->text;
        for (unsigned i = 0; i < in->nmods; i++)
            name += in->mods[i].name->text;
        counts &c = names[name];
        c.instructions++;
        // the operands array ends the struct (a flexible array member in C)
        for (unsigned i = 0; i < in->nops; i++)
            if (in->ops[i].kind != PTX_EXPR_SINK)
                c.operands++;
    }
    ptx_iter_free(it);
    for (const auto &entry : names)
        std::printf("%s %u %u\n", entry.first.c_str(), entry.second.instructions, entry.second.operands);
    ptx_context_free(ctx);
    return it ? 0 : 1;
}
