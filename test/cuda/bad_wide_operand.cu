// arch: sm_80
// A 64-bit operand ("l") where add.u32 needs 32 bits.
__global__ void k(unsigned *out, unsigned long long n)
{
    unsigned v = out[0];
    asm("add.u32 %0, %0, %1;" : "+r"(v) : "l"(n)); //!
    out[0] = v;
}
