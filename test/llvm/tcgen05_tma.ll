; tcgen05 and TMA through LLVM intrinsics (clang has no CUDA builtins for them): llc-22 output
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.tcgen05.alloc.shared.cg1(ptr addrspace(3), i32)
declare void @llvm.nvvm.tcgen05.dealloc.cg1(ptr addrspace(6), i32)
declare void @llvm.nvvm.tcgen05.fence.before.thread.sync()
declare void @llvm.nvvm.tcgen05.commit.shared.cg1(ptr addrspace(3))
declare void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.gpu(ptr, i32)
declare void @llvm.nvvm.fence.proxy.tensormap_generic.release.gpu()
declare void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7), ptr addrspace(3), ptr, i32, i32, i16, i64, i1, i1, i32)
@s = internal addrspace(3) global i32 0
@bar = internal addrspace(3) global i64 0
@buf = internal addrspace(3) global [256 x i8] zeroinitializer, align 128
define ptx_kernel void @k(ptr %tmap, ptr %out) {
  call void @llvm.nvvm.tcgen05.alloc.shared.cg1(ptr addrspace(3) @s, i32 32)
  call void @llvm.nvvm.tcgen05.fence.before.thread.sync()
  call void @llvm.nvvm.tcgen05.commit.shared.cg1(ptr addrspace(3) @bar)
  %t = load i32, ptr addrspace(3) @s
  %tp = inttoptr i32 %t to ptr addrspace(6)
  call void @llvm.nvvm.tcgen05.dealloc.cg1(ptr addrspace(6) %tp, i32 32)
  call void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.gpu(ptr %tmap, i32 128)
  call void @llvm.nvvm.fence.proxy.tensormap_generic.release.gpu()
  %d = addrspacecast ptr addrspace(3) @buf to ptr addrspace(7)
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %d, ptr addrspace(3) @bar, ptr %tmap, i32 0, i32 0, i16 0, i64 0, i1 0, i1 0, i32 0)
  store i32 %t, ptr %out
  ret void
}
