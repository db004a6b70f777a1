! The reference of bench/caf_put_overhead.cpp: the caf suite's put ping-pong with sync images,
! written directly as a Fortran loop (what a user of EPCC's suite would write), timed around
! the loop with MPI_Wtime. Its own allocatable coarray, so nothing is shared with the kernels.
module parbench_caf_put_reference
   use, intrinsic :: iso_c_binding, only: c_double, c_int
   implicit none
   private

   real(c_double), allocatable :: y(:)[:]

   interface
      function mpi_wtime() result(seconds) bind(C, name='MPI_Wtime')
         import :: c_double
         real(c_double) :: seconds
      end function mpi_wtime
   end interface

contains

   ! Collective: allocates y(ndata) on every image.
   subroutine prepare(ndata) bind(C, name='reference_prepare')
      integer(c_int), value :: ndata
      if (allocated(y)) deallocate (y)
      allocate (y(ndata)[*])
      y = 1.0_c_double
   end subroutine prepare

   subroutine release() bind(C, name='reference_release')
      if (allocated(y)) deallocate (y)
   end subroutine release

   ! `iterations` round trips between this image and `partner`; the seconds per transfer (half
   ! a round trip). An image with partner 0 takes no part.
   function put_ping_pong(ndata, iterations, partner, initiator) result(seconds) &
      bind(C, name='reference_put_ping_pong')
      integer(c_int), value :: ndata, iterations, partner, initiator
      real(c_double) :: seconds, start
      integer :: i
      seconds = 0.0_c_double
      if (partner == 0) return
      start = mpi_wtime()
      if (initiator /= 0) then
         do i = 1, iterations
            y(1:ndata)[partner] = y(1:ndata)
            sync images(partner)
            sync images(partner)
         end do
      else
         do i = 1, iterations
            sync images(partner)
            y(1:ndata)[partner] = y(1:ndata)
            sync images(partner)
         end do
      end if
      seconds = (mpi_wtime() - start)/(2.0_c_double*iterations)
   end function put_ping_pong

end module parbench_caf_put_reference
