// arch: sm_80
// A typo in a modifier of shfl.sync: .bfy for .bfly.
__global__ void k(int *out)
{
    int v = out[threadIdx.x];
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "shfl.sync.bfy.b32 %0|p, %0, 1, 0x1f, 0xffffffff;\n\t" //!
                 "}" : "+r"(v));
    out[threadIdx.x] = v;
}
