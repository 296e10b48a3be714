// arch: sm_80
// wgmma on a target without it.
#include <cstdint>

__global__ void k(float *out, uint64_t da, uint64_t db)
{
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); //!
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(da), "l"(db));
    out[threadIdx.x] = d0 + d1 + d2 + d3;
}
