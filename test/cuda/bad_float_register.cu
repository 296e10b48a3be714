// arch: sm_75
// An "f" operand (a .f32 register) for an integer instruction.
__global__ void k(int *out, float x)
{
    int v;
    asm("cvt.rzi.s32.f32 %0, %1;\n\t"
        "shl.b32 %0, %0, %1;" : "=r"(v) : "f"(x)); //!
    out[0] = v;
}
