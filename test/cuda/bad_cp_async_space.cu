// arch: sm_80
// cp.async copies from global to shared, not the other way.
#include <cstdint>

__global__ void k(const float4 *g)
{
    __shared__ float4 tile[32];
    uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
    asm volatile("cp.async.cg.global.shared [%0], [%1], 16;" :: "l"(g), "r"(s)); //!
}
