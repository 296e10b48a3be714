// Atomics, warp intrinsics, alloca (dynamic local arrays), shared memory,
// cooperative patterns and inline PTX as clang emits them.
__device__ int counter;
__global__ void misc(int *out, float *f, int n)
{
    __shared__ float sh[128];
    int buf[16];
    for (int i = 0; i < 16; i++)
        buf[i] = out[(threadIdx.x + i) % n];
    sh[threadIdx.x % 128] = f[threadIdx.x];
    __syncthreads();
    int v = __shfl_sync(0xffffffff, buf[n & 15], 3);
    v += __ballot_sync(0xffffffff, v > 0) + __popc(v) + __clz(v) + __brev(v);
    v += atomicAdd(&counter, 1) + atomicCAS(out, 0, v) + atomicMax(out + 1, v);
    atomicAdd(f, sh[(threadIdx.x + 1) % 128]);
    out[threadIdx.x] = v + __reduce_add_sync(0xffffffff, v);
    f[threadIdx.x] = __fdividef(f[0], 3.0f) + __sinf(f[1]) + __expf(f[2]) + rsqrtf(f[3]);
}
