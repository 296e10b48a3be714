// arch: sm_75
// Warp-level code in the style of CUB and llm.c: shfl.sync with "+r",
// %%laneid, braces with a local .reg .pred, "n" immediates, "+r"
// accumulators, __asm__ __volatile__, memory clobbers, labels.
#include <cstdint>

__device__ __forceinline__ unsigned lane_id()
{
    unsigned r;
    asm("mov.u32 %0, %%laneid;" : "=r"(r));
    return r;
}

__device__ __forceinline__ int shfl_xor_add(int v, int mask)
{
    asm volatile(
        "{\n\t"
        ".reg .s32 r0;\n\t"
        ".reg .pred p;\n\t"
        "shfl.sync.bfly.b32 r0|p, %0, %1, 0x1f, 0xffffffff;\n\t"
        "@p add.s32 r0, r0, %0;\n\t"
        "mov.s32 %0, r0;\n\t"
        "}"
        : "+r"(v)
        : "r"(mask));
    return v;
}

template <int SHIFT>
__device__ __forceinline__ uint32_t funnel(uint32_t lo, uint32_t hi)
{
    uint32_t r;
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "n"(SHIFT));
    return r;
}

__device__ __forceinline__ uint64_t add_cc(uint64_t a, uint32_t b)
{
    uint32_t lo = (uint32_t)a, hi = (uint32_t)(a >> 32);
    asm("add.cc.u32 %0, %0, %2;\n\t"
        "addc.u32 %1, %1, 0;" : "+r"(lo), "+r"(hi) : "r"(b));
    return ((uint64_t)hi << 32) | lo;
}

__device__ __forceinline__ void st_release(int *p, int v)
{
    __asm__ __volatile__("st.release.gpu.global.b32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ short half_bits(short h)
{
    asm("{ .reg .b16 t; mov.b16 t, %1; mov.b16 %0, t; }" : "=h"(h) : "h"(h));
    return h;
}

__device__ __forceinline__ int count_down(int n)
{
    asm volatile(
        "{\n"
        ".reg .pred done;\n"
        "LOOP:\n"
        "setp.le.s32 done, %0, 0;\n"
        "@done bra.uni END;\n"
        "sub.s32 %0, %0, %1;\n"
        "bra.uni LOOP;\n"
        "END:\n"
        "}" : "+r"(n) : "n"(1));
    return n;
}

__global__ void k(int *out, uint64_t *wide, short *h)
{
    int v = shfl_xor_add((int)lane_id(), 1);
    v += (int)funnel<8>(v, v + 1);
    wide[0] = add_cc(wide[0], (uint32_t)v);
    h[0] = half_bits(h[1]);
    v += count_down(v & 7);
    asm volatile("membar.gl;" ::: "memory");
    asm volatile("bar.sync 0;");
    st_release(out, v);
}
