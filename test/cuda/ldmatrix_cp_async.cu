// arch: sm_80
// Shared-memory staging as in CUTLASS and FlashAttention: cp.async with a
// shared address from __cvta_generic_to_shared, groups, ldmatrix.
#include <cstdint>

__device__ __forceinline__ void cp_async_16(void *smem, const void *gmem)
{
    uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.cg.shared.global [%0], [%1], %2;\n" :: "r"(s), "l"(gmem), "n"(16));
}

__device__ __forceinline__ void cp_async_4_zfill(void *smem, const void *gmem, bool pred)
{
    uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    int src_size = pred ? 4 : 0;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" :: "r"(s), "l"(gmem), "r"(src_size));
}

template <int N>
__device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" :: "n"(N));
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void *smem)
{
    uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s));
}

__device__ __forceinline__ void ldmatrix_x2_trans(uint32_t (&r)[2], const void *smem)
{
    uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(s));
}

__global__ void k(const float4 *g, uint32_t *out)
{
    __shared__ __align__(16) float4 tile[128];
    cp_async_16(&tile[threadIdx.x], &g[threadIdx.x]);
    cp_async_4_zfill(&tile[threadIdx.x + 64], &g[threadIdx.x + 64], threadIdx.x < 10);
    asm volatile("cp.async.commit_group;\n" ::);
    cp_async_wait<0>();
    __syncthreads();
    uint32_t r[4], t[2];
    ldmatrix_x4(r, &tile[(threadIdx.x % 16) * 2]);
    ldmatrix_x2_trans(t, &tile[(threadIdx.x % 16) * 2]);
    out[threadIdx.x] = r[0] + r[1] + r[2] + r[3] + t[0] + t[1];
}
