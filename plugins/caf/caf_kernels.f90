! The coarray side of the caf plugin: EPCC CAF_BENCH's one-iteration kernels, written as the
! original writes them (inline sections, subroutines with coarray dummies, loops of small puts),
! each callable from C++ through bind(C). The timing loop, statistics and reports are parbench's
! (plugins/caf/caf_plugin.cpp); nothing here reads a clock.
!
! Only allocatable coarrays: a static coarray is registered by the code gfortran generates for a
! Fortran main program, and this module lives in a shared library loaded by a C++ driver.
! Allocation and deallocation are collective over all images (an implicit sync all), so the
! prepare/release routines are called by every image, outside any timed region.
module parbench_caf_kernels
   use, intrinsic :: iso_c_binding, only: c_double, c_int, c_ptr, c_loc
   use, intrinsic :: iso_fortran_env, only: lock_type
   implicit none
   private

   ! The point-to-point data: x(nextent) for the contiguous, "many" and strided-many patterns;
   ! blocks(blksize, columns) for strided put/subput, whose section blocks(:, 1:columns:stride)
   ! is EPCC's x(1:nextent:stride) generalised to blocks of blksize elements.
   real(c_double), allocatable, target :: x(:)[:]
   real(c_double), allocatable, target :: blocks(:, :)[:]
   ! The halo benchmark's local array with one layer of halo cells on every side.
   real(c_double), allocatable, target :: field(:, :, :)[:]
   type(lock_type), allocatable :: image_one_lock[:]
   real(c_double), allocatable :: warm(:)[:]

   integer :: ndata = 0, nblocks = 0, blksize = 1, stride = 1, columns = 0
   integer :: nx = 0, ny = 0, nz = 0
   integer :: neighbour(6) = 0 ! halo: x-, x+, y-, y+, z-, z+ (image numbers)
   real(c_double) :: delay_sink = 0.0_c_double

contains

   ! ---- set-up and tear-down (collective) -------------------------------------------------

   ! Allocates the point-to-point arrays for `count` blocks of `block_size` elements whose starts
   ! lie `block_stride` blocks apart, and returns the first element of the array the pattern
   ! uses (x, or blocks when `two_dimensional` is non-zero). `extent` is the length of x.
   function prepare_point_to_point(count, block_size, block_stride, extent, two_dimensional) &
      result(data) bind(C, name='parbench_caf_prepare_point_to_point')
      integer(c_int), value :: count, block_size, block_stride, extent, two_dimensional
      type(c_ptr) :: data

      call release_point_to_point()
      nblocks = count
      blksize = block_size
      stride = block_stride
      ndata = count*block_size
      columns = (count - 1)*block_stride + 1
      if (two_dimensional /= 0) then
         allocate (blocks(blksize, columns)[*])
         blocks = 0.0_c_double
         data = c_loc(blocks)
      else
         allocate (x(extent)[*])
         x = 0.0_c_double
         data = c_loc(x)
      end if
   end function prepare_point_to_point

   subroutine release_point_to_point() bind(C, name='parbench_caf_release_point_to_point')
      if (allocated(x)) deallocate (x)
      if (allocated(blocks)) deallocate (blocks)
   end subroutine release_point_to_point

   ! A local cube of n**3 cells with halo cells field(0, :, :), field(n + 1, :, :), ... and the
   ! six neighbour images of the periodic grid. Returns field(0, 0, 0).
   function prepare_halo(n, neighbours) result(data) bind(C, name='parbench_caf_prepare_halo')
      integer(c_int), value :: n
      integer(c_int), intent(in) :: neighbours(6)
      type(c_ptr) :: data

      call release_halo()
      nx = n
      ny = n
      nz = n
      neighbour = neighbours
      allocate (field(0:nx + 1, 0:ny + 1, 0:nz + 1)[*])
      field = 0.0_c_double
      data = c_loc(field)
   end function prepare_halo

   subroutine release_halo() bind(C, name='parbench_caf_release_halo')
      if (allocated(field)) deallocate (field)
   end subroutine release_halo

   subroutine prepare_lock() bind(C, name='parbench_caf_prepare_lock')
      if (.not. allocated(image_one_lock)) allocate (image_one_lock[*])
   end subroutine prepare_lock

   subroutine release_lock() bind(C, name='parbench_caf_release_lock')
      if (allocated(image_one_lock)) deallocate (image_one_lock)
   end subroutine release_lock

   ! One put, one get and one `sync images` with every image, untimed: the first contact
   ! between two images sets up the transport, which made the first measurement of a run
   ! thousands of times slower than the same one repeated. Collective.
   subroutine warm_up() bind(C, name='parbench_caf_warm_up')
      integer :: image
      allocate (warm(2)[*])
      warm = 0.0_c_double
      do image = 1, num_images()
         warm(:)[image] = warm(:)
         warm(:) = warm(:)[image]
      end do
      sync images(*)
      deallocate (warm)
   end subroutine warm_up

   ! ---- point-to-point: remote write (put) ------------------------------------------------
   ! Each routine moves this image's data to image `image` once.

   subroutine put(image) bind(C, name='parbench_caf_put')
      integer(c_int), value :: image
      x(1:ndata)[image] = x(1:ndata)
   end subroutine put

   subroutine subput(image) bind(C, name='parbench_caf_subput')
      integer(c_int), value :: image
      call cafput(x, x, 1, ndata, image)
   end subroutine subput

   subroutine simple_subput(image) bind(C, name='parbench_caf_simple_subput')
      integer(c_int), value :: image
      call cafsimpleput(x, x, ndata, image)
   end subroutine simple_subput

   ! x is allocated with exactly ndata elements for the contiguous patterns.
   subroutine all_put(image) bind(C, name='parbench_caf_all_put')
      integer(c_int), value :: image
      x(:)[image] = x(:)
   end subroutine all_put

   subroutine many_put(image) bind(C, name='parbench_caf_many_put')
      integer(c_int), value :: image
      integer :: i
      do i = 1, nblocks
         x(1 + (i - 1)*blksize:i*blksize)[image] = x(1 + (i - 1)*blksize:i*blksize)
      end do
   end subroutine many_put

   subroutine sub_manyput(image) bind(C, name='parbench_caf_sub_manyput')
      integer(c_int), value :: image
      call cafmanyput(x, x, 1, blksize, nblocks, image)
   end subroutine sub_manyput

   subroutine many_subput(image) bind(C, name='parbench_caf_many_subput')
      integer(c_int), value :: image
      integer :: i
      do i = 1, nblocks
         call cafput(x, x, 1 + (i - 1)*blksize, blksize, image)
      end do
   end subroutine many_subput

   subroutine strided_put(image) bind(C, name='parbench_caf_strided_put')
      integer(c_int), value :: image
      blocks(:, 1:columns:stride)[image] = blocks(:, 1:columns:stride)
   end subroutine strided_put

   subroutine strided_subput(image) bind(C, name='parbench_caf_strided_subput')
      integer(c_int), value :: image
      call cafstridedput(blocks, blocks, 1, columns, stride, image)
   end subroutine strided_subput

   ! Blocks of blksize whose starts are stride*blksize elements apart (EPCC: stride 2, a gap as
   ! long as the block): the case a compiler cannot merge into one contiguous put.
   subroutine strided_many_put(image) bind(C, name='parbench_caf_strided_many_put')
      integer(c_int), value :: image
      integer :: i, first
      do i = 1, nblocks
         first = 1 + (i - 1)*stride*blksize
         x(first:first + blksize - 1)[image] = x(first:first + blksize - 1)
      end do
   end subroutine strided_many_put

   ! ---- point-to-point: remote read (get) -------------------------------------------------
   ! Each routine reads image `image`'s data into this image once.

   subroutine get(image) bind(C, name='parbench_caf_get')
      integer(c_int), value :: image
      x(1:ndata) = x(1:ndata)[image]
   end subroutine get

   subroutine subget(image) bind(C, name='parbench_caf_subget')
      integer(c_int), value :: image
      call cafget(x, x, 1, ndata, image)
   end subroutine subget

   subroutine simple_subget(image) bind(C, name='parbench_caf_simple_subget')
      integer(c_int), value :: image
      call cafsimpleget(x, x, ndata, image)
   end subroutine simple_subget

   subroutine all_get(image) bind(C, name='parbench_caf_all_get')
      integer(c_int), value :: image
      x(:) = x(:)[image]
   end subroutine all_get

   subroutine many_get(image) bind(C, name='parbench_caf_many_get')
      integer(c_int), value :: image
      integer :: i
      do i = 1, nblocks
         x(1 + (i - 1)*blksize:i*blksize) = x(1 + (i - 1)*blksize:i*blksize)[image]
      end do
   end subroutine many_get

   subroutine sub_manyget(image) bind(C, name='parbench_caf_sub_manyget')
      integer(c_int), value :: image
      call cafmanyget(x, x, 1, blksize, nblocks, image)
   end subroutine sub_manyget

   subroutine many_subget(image) bind(C, name='parbench_caf_many_subget')
      integer(c_int), value :: image
      integer :: i
      do i = 1, nblocks
         call cafget(x, x, 1 + (i - 1)*blksize, blksize, image)
      end do
   end subroutine many_subget

   subroutine strided_get(image) bind(C, name='parbench_caf_strided_get')
      integer(c_int), value :: image
      blocks(:, 1:columns:stride) = blocks(:, 1:columns:stride)[image]
   end subroutine strided_get

   subroutine strided_subget(image) bind(C, name='parbench_caf_strided_subget')
      integer(c_int), value :: image
      call cafstridedget(blocks, blocks, 1, columns, stride, image)
   end subroutine strided_subget

   subroutine strided_many_get(image) bind(C, name='parbench_caf_strided_many_get')
      integer(c_int), value :: image
      integer :: i, first
      do i = 1, nblocks
         first = 1 + (i - 1)*stride*blksize
         x(first:first + blksize - 1) = x(first:first + blksize - 1)[image]
      end do
   end subroutine strided_many_get

   ! ---- EPCC's subroutine forms (coarray dummies) -----------------------------------------
   ! As in the original, target and source are the same array: only the remote image's copy
   ! of the coarray dummy is written (put) or only the local non-coarray dummy (get).

   subroutine cafput(target, source, disp, count, image)
      real(c_double), intent(inout) :: target(:)[*]
      real(c_double), intent(in) :: source(:)
      integer, intent(in) :: disp, count, image
      target(disp:disp + count - 1)[image] = source(disp:disp + count - 1)
   end subroutine cafput

   subroutine cafget(target, source, disp, count, image)
      real(c_double), intent(inout) :: target(:)
      real(c_double), intent(in) :: source(:)[*]
      integer, intent(in) :: disp, count, image
      target(disp:disp + count - 1) = source(disp:disp + count - 1)[image]
   end subroutine cafget

   ! Explicit-shape dummies: the arrays are "resized" to n by the call.
   subroutine cafsimpleput(target, source, n, image)
      integer, intent(in) :: n, image
      real(c_double), intent(inout) :: target(n)[*]
      real(c_double), intent(in) :: source(n)
      target(:)[image] = source(:)
   end subroutine cafsimpleput

   subroutine cafsimpleget(target, source, n, image)
      integer, intent(in) :: n, image
      real(c_double), intent(inout) :: target(n)
      real(c_double), intent(in) :: source(n)[*]
      target(:) = source(:)[image]
   end subroutine cafsimpleget

   subroutine cafmanyput(target, source, disp, block_size, count, image)
      real(c_double), intent(inout) :: target(:)[*]
      real(c_double), intent(in) :: source(:)
      integer, intent(in) :: disp, block_size, count, image
      integer :: i
      do i = 1, count
         target(disp + (i - 1)*block_size:disp + i*block_size - 1)[image] = &
            source(disp + (i - 1)*block_size:disp + i*block_size - 1)
      end do
   end subroutine cafmanyput

   subroutine cafmanyget(target, source, disp, block_size, count, image)
      real(c_double), intent(inout) :: target(:)
      real(c_double), intent(in) :: source(:)[*]
      integer, intent(in) :: disp, block_size, count, image
      integer :: i
      do i = 1, count
         target(disp + (i - 1)*block_size:disp + i*block_size - 1) = &
            source(disp + (i - 1)*block_size:disp + i*block_size - 1)[image]
      end do
   end subroutine cafmanyget

   subroutine cafstridedput(target, source, istart, istop, istride, image)
      real(c_double), intent(inout) :: target(:, :)[*]
      real(c_double), intent(in) :: source(:, :)
      integer, intent(in) :: istart, istop, istride, image
      target(:, istart:istop:istride)[image] = source(:, istart:istop:istride)
   end subroutine cafstridedput

   subroutine cafstridedget(target, source, istart, istop, istride, image)
      real(c_double), intent(inout) :: target(:, :)
      real(c_double), intent(in) :: source(:, :)[*]
      integer, intent(in) :: istart, istop, istride, image
      target(:, istart:istop:istride) = source(:, istart:istop:istride)[image]
   end subroutine cafstridedget

   ! ---- synchronisation -------------------------------------------------------------------

   subroutine sync_everyone() bind(C, name='parbench_caf_sync_all')
      sync all
   end subroutine sync_everyone

   subroutine sync_one(image) bind(C, name='parbench_caf_sync_image')
      integer(c_int), value :: image
      sync images(image)
   end subroutine sync_one

   ! `images` holds `n` distinct image numbers other than this image (plugins/caf/neighbours.hpp
   ! builds them so); n may be 0.
   subroutine sync_list(images, n) bind(C, name='parbench_caf_sync_images')
      integer(c_int), value :: n
      integer(c_int), intent(in) :: images(n)
      sync images(images)
   end subroutine sync_list

   subroutine lock_on_image_one() bind(C, name='parbench_caf_lock_unlock')
      lock (image_one_lock[1])
      unlock (image_one_lock[1])
   end subroutine lock_on_image_one


   ! EPCC's delay loop: `n` dependent floating-point operations the compiler cannot drop.
   subroutine delay(n) bind(C, name='parbench_caf_delay')
      integer(c_int), value :: n
      integer :: i
      real(c_double) :: a
      a = delay_sink
      do i = 1, n
         a = a*0.999999_c_double + 1.0e-6_c_double
      end do
      delay_sink = a
   end subroutine delay

   ! ---- halo swap -------------------------------------------------------------------------
   ! Every image writes its six boundary faces into its neighbours' halo cells, then waits for
   ! its neighbours (`images`: the distinct neighbours other than itself).

   subroutine halo_swap(images, n) bind(C, name='parbench_caf_halo_swap')
      integer(c_int), value :: n
      integer(c_int), intent(in) :: images(n)
      field(nx + 1, 1:ny, 1:nz)[neighbour(1)] = field(1, 1:ny, 1:nz)
      field(0, 1:ny, 1:nz)[neighbour(2)] = field(nx, 1:ny, 1:nz)
      field(1:nx, ny + 1, 1:nz)[neighbour(3)] = field(1:nx, 1, 1:nz)
      field(1:nx, 0, 1:nz)[neighbour(4)] = field(1:nx, ny, 1:nz)
      field(1:nx, 1:ny, nz + 1)[neighbour(5)] = field(1:nx, 1:ny, 1)
      field(1:nx, 1:ny, 0)[neighbour(6)] = field(1:nx, 1:ny, nz)
      sync images(images)
   end subroutine halo_swap

end module parbench_caf_kernels
