// arch: sm_90a
// Hopper in the style of CUTLASS's SM90 atoms and DeepGEMM: wgmma with "l"
// descriptors and "+f" accumulators, "n" template immediates, mbarriers,
// TMA, fences, setmaxnreg.  nvcc -arch=sm_90a also makes PTX for
// compute_90, which lacks wgmma: as CUTLASS does, the file is guarded.
#include <cstdint>

#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || !defined(__CUDA_ARCH__)

template <int ScaleA, int ScaleB, int TransA, int TransB>
__device__ __forceinline__ void wgmma_m64n8k16(float &d0, float &d1, float &d2, float &d3, uint64_t desc_a,
                                               uint64_t desc_b, int scale_d)
{
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %6, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
        "{%0, %1, %2, %3},"
        " %4,"
        " %5,"
        " p, %7, %8, %9, %10;\n"
        "}\n"
        : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
        : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(int32_t(ScaleA)), "n"(int32_t(ScaleB)),
          "n"(int32_t(TransA)), "n"(int32_t(TransB)));
}

__device__ __forceinline__ void mbarrier_init(uint64_t *bar, uint32_t count)
{
    uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(s), "r"(count));
}

__device__ __forceinline__ void mbarrier_expect_tx(uint64_t *bar, uint32_t bytes)
{
    uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(s), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbarrier_wait(uint64_t *bar, uint32_t phase)
{
    uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
    asm volatile(
        "{\n"
        ".reg .pred P1;\n"
        "LAB_WAIT:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
        "@P1 bra DONE;\n"
        "bra LAB_WAIT;\n"
        "DONE:\n"
        "}\n" :: "r"(s), "r"(phase));
}

__device__ __forceinline__ void tma_load_2d(void *dst, const void *tmap, uint64_t *bar, int c0, int c1)
{
    uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
    uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
        :: "r"(s), "l"(tmap), "r"(b), "r"(c0), "r"(c1)
        : "memory");
}

__global__ void __launch_bounds__(128) k(const __grid_constant__ uint64_t tmap_holder, float *out, uint64_t da,
                                         uint64_t db)
{
    __shared__ __align__(128) uint16_t tile[64 * 16];
    __shared__ uint64_t bar;
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" :: "n"(240));
    if (threadIdx.x == 0) {
        mbarrier_init(&bar, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        mbarrier_expect_tx(&bar, sizeof tile);
        tma_load_2d(tile, &tmap_holder, &bar, 0, 0);
    }
    __syncthreads();
    mbarrier_wait(&bar, 0);
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    wgmma_m64n8k16<1, 1, 0, 0>(d0, d1, d2, d3, da, db, 1);
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(0) : "memory");
    out[threadIdx.x] = d0 + d1 + d2 + d3;
}
#else
__global__ void k(const __grid_constant__ uint64_t, float *, uint64_t, uint64_t) {}
#endif
