// Thrust algorithms over three element types: the dense bench module of
// make bench (dev/bench.sh builds it with nvcc -ptx -arch=sm_90 when nvcc
// is present).  Each algorithm's dispatch instantiates CUB's tuned kernels
// for the element type, as a real application's PTX does: many kernels,
// few comments, about 45 bytes per instruction.
#include <thrust/adjacent_difference.h>
#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/gather.h>
#include <thrust/inner_product.h>
#include <thrust/merge.h>
#include <thrust/partition.h>
#include <thrust/reduce.h>
#include <thrust/remove.h>
#include <thrust/scan.h>
#include <thrust/scatter.h>
#include <thrust/set_operations.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>
#include <cstddef>

template <typename T>
struct is_odd {
  __host__ __device__ bool operator()(T x) const { return (static_cast<long long>(x) & 1) != 0; }
};

template <typename T>
struct axpy {
  T a;
  __host__ __device__ T operator()(T x, T y) const { return a * x + y; }
};

template <typename T>
struct square {
  __host__ __device__ T operator()(T x) const { return x * x; }
};

// Every algorithm once for T; a, b, c are device arrays of n elements,
// keys of n ints, idx of n indices.
template <typename T>
void algorithms(T* a, T* b, T* c, int* keys, int* idx, std::size_t n)
{
  auto pol = thrust::device;
  thrust::sort(pol, a, a + n);
  thrust::sort(pol, a, a + n, thrust::greater<T>());
  thrust::stable_sort(pol, b, b + n, thrust::greater<T>());
  thrust::sort_by_key(pol, a, a + n, keys);
  thrust::sort_by_key(pol, keys, keys + n, a);
  T s = thrust::reduce(pol, a, a + n);
  s += thrust::reduce(pol, a, a + n, T(0), thrust::maximum<T>());
  thrust::reduce_by_key(pol, keys, keys + n, a, idx, b);
  thrust::inclusive_scan(pol, a, a + n, b);
  thrust::exclusive_scan(pol, a, a + n, b, T(1), thrust::maximum<T>());
  thrust::inclusive_scan_by_key(pol, keys, keys + n, a, c);
  thrust::transform(pol, a, a + n, b, c, axpy<T>{s});
  thrust::transform(pol, a, a + n, c, square<T>());
  thrust::unique(pol, a, a + n);
  thrust::unique_by_key(pol, a, a + n, keys);
  thrust::copy_if(pol, a, a + n, b, is_odd<T>());
  thrust::remove_if(pol, c, c + n, is_odd<T>());
  thrust::partition(pol, b, b + n, is_odd<T>());
  thrust::merge(pol, a, a + n / 2, b, b + n / 2, c);
  thrust::merge_by_key(pol, a, a + n / 2, b, b + n / 2, keys, keys, c, idx);
  thrust::set_union(pol, a, a + n / 2, b, b + n / 2, c);
  thrust::set_intersection(pol, a, a + n / 2, b, b + n / 2, c);
  thrust::set_difference(pol, a, a + n / 2, b, b + n / 2, c);
  thrust::count_if(pol, a, a + n, is_odd<T>());
  thrust::min_element(pol, a, a + n);
  thrust::minmax_element(pol, b, b + n);
  thrust::transform_reduce(pol, a, a + n, square<T>(), T(0), thrust::plus<T>());
  thrust::inner_product(pol, a, a + n, b, T(0));
  thrust::adjacent_difference(pol, a, a + n, c);
  thrust::lower_bound(pol, a, a + n, b, b + n, idx);
  thrust::gather(pol, idx, idx + n, a, b);
  thrust::scatter(pol, a, a + n, idx, c);
}

// Explicit calls for each element type: the kernels are emitted for every
// type the host code reaches.
#define PTX_BENCH_TYPE(T, NAME)                                                       \
  void NAME(T* a, T* b, T* c, int* keys, int* idx, std::size_t n)                     \
  {                                                                                   \
    algorithms<T>(a, b, c, keys, idx, n);                                             \
  }
// Three types, 8, 32 and 64 bits wide, integer and floating point: with
// all ten of char to double the module was 52.7 MB (1,074 kernels,
// 1.23 million instructions) and took cicc over ten minutes of CPU.
PTX_BENCH_TYPE(unsigned char, run_uchar)
PTX_BENCH_TYPE(int, run_int)
PTX_BENCH_TYPE(double, run_double)
