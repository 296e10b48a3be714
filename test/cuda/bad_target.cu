// arch: sm_80
// elect.sync and a cluster barrier on a target that has neither (sm_90).
__global__ void k(unsigned *out)
{
    unsigned elected;
    asm volatile("{\n"
                 ".reg .pred P;\n"
                 "elect.sync _|P, 0xffffffff;\n" //!
                 "selp.u32 %0, 1, 0, P;\n"
                 "}\n" : "=r"(elected));
    out[threadIdx.x] = elected;
}
