// arch: sm_80
// mma.sync with three accumulators written where the shape has four.
#include <cstdint>

__global__ void k(float *out, const uint32_t *in)
{
    float d0, d1, d2, d3;
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
        "{%0, %1, %2}, " //!
        "{%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
        : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
        : "r"(in[0]), "r"(in[1]), "r"(in[2]), "r"(in[3]), "r"(in[4]), "r"(in[5]),
          "f"(0.f), "f"(0.f), "f"(0.f), "f"(0.f));
    out[0] = d0 + d1 + d2 + d3;
}
