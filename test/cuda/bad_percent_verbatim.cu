// arch: sm_75
// A statement with no operand is passed verbatim: its %% stays %%.
__global__ void k(int *out)
{
    asm volatile("{ .reg .u32 t; mov.u32 t, %%laneid; }"); //!
    out[0] = 1;
}
