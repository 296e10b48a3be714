// arch: sm_75
// A predicate used inside braces under a name the block does not declare.
__global__ void k(int *out)
{
    int v = out[threadIdx.x];
    asm volatile("{\n\t"
                 ".reg .pred is_zero;\n\t"
                 "setp.eq.s32 is_zero, %0, 0;\n\t"
                 "@iszero mov.s32 %0, 1;\n\t" //!
                 "}" : "+r"(v));
    out[threadIdx.x] = v;
}
