// arch: sm_75
// An escape read: "\x2e" is '.', so the opcode is ld.shared..u32, with an
// empty modifier (the column points into the literal past the escape).
__global__ void k(unsigned *out)
{
    __shared__ unsigned s[32];
    unsigned v;
    asm volatile("ld.shared.\x2eu32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(&s[threadIdx.x]))); //!
    out[threadIdx.x] = v;
}
