// Calls through function pointers (call with a prototype), recursion,
// noinline device functions with struct arguments and returns.
struct pair { float a; double b; int c; };
__device__ __noinline__ pair make(float a, int c) { return pair{ a, a * 2.0, c }; }
__device__ __noinline__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
typedef float (*unop)(float, int);
__device__ __noinline__ float twice(float x, int k) { return x * 2 + k; }
__device__ __noinline__ float neg(float x, int k) { return -x - k; }
__device__ unop table[2] = { twice, neg };
__global__ void call_indirect(float *out, int sel)
{
    unop f = table[sel & 1];
    pair p = make(out[threadIdx.x], sel);
    out[threadIdx.x] = f(p.a, fact(sel)) + (float)p.b + p.c;
}
extern "C" __device__ int ext_fn(int);
__device__ __noinline__ void vararg_user(int *o) { printf("%d %f\n", *o, 1.5); }
__global__ void call_printf(int *o) { vararg_user(o); }
