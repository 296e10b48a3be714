// arch: sm_75
// %2 in a statement of two operands (nvcc's own error, before ptxas).
__global__ void k(int *out)
{
    int v = out[0];
    asm volatile("add.s32 %0, %0, %2;" : "+r"(v) : "r"(v)); //!
    out[0] = v;
}
