// arch: sm_75
// The mistake is in the third of the joined literals, on its own line:
// a type that does not exist, .u23.
__global__ void k(unsigned *out)
{
    unsigned v;
    asm("mov.u32 %0, %%laneid;\n\t"
        "shl.b32 %0, %0, 2;\n\t"
        "add.u23 %0, %0, 1;" //!
        : "=r"(v));
    out[threadIdx.x] = v;
}
