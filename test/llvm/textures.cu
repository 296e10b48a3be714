// Texture and surface objects: tex, tld4, suld, sust as LLVM's NVPTX emits them.
#include <cuda_runtime.h>
__global__ void tex_fetch(float *out, cudaTextureObject_t t1, cudaTextureObject_t t2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(t1, i) + tex2D<float>(t2, i * 0.5f, 0.25f) +
                 tex1D<float>(t1, (float)i) + tex3D<float>(t2, 0.5f, 0.5f, i * 0.1f);
}
__global__ void tex_gather(float4 *out, cudaTextureObject_t t)
{
    out[threadIdx.x] = tex2Dgather<float4>(t, threadIdx.x * 0.5f, 0.5f, 1);
}
__global__ void surf_rw(cudaSurfaceObject_t s, int w)
{
    int x = threadIdx.x;
    float v;
    surf2Dread(&v, s, x * 4, 0);
    surf2Dwrite(v * 2.0f, s, x * 4, 1);
    surf1Dwrite(w, s, x * 4);
}
