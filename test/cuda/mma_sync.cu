// arch: sm_80
// A warp-level tensor-core tile in the style of CUTLASS's SM80 MMA atoms:
// "=f" accumulators out, "r" fragments in, "f" accumulators in.
#include <cstdint>

__device__ void mma_16816(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2], const float (&c)[4])
{
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
        "{%0, %1, %2, %3}, "
        "{%4, %5, %6, %7}, "
        "{%8, %9}, "
        "{%10, %11, %12, %13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]),
          "r"(b[0]), "r"(b[1]),
          "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

__device__ void mma_1688_tf32(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
    // the accumulators read and written in place
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ void mma_f64(double &d, double a, double b, double c)
{
    double d1;
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %4};"
        : "=d"(d), "=d"(d1) : "d"(a), "d"(b), "d"(c));
    d += d1;
}

__global__ void k(float *out, const uint32_t *in, double *dd)
{
    uint32_t a[4] = { in[0], in[1], in[2], in[3] }, b[2] = { in[4], in[5] };
    float c[4] = { 0, 0, 0, 0 }, d[4];
    mma_16816(d, a, b, c);
    mma_1688_tf32(d, a, b);
    mma_f64(dd[0], dd[1], dd[2], dd[3]);
    for (int i = 0; i < 4; i++)
        out[i] = d[i];
}
