! EPCC's "sync critical" as gfortran compiles it: a `critical` construct, whose lock is a static
! coarray that gfortran registers from a constructor when this library is loaded. It is a
! library of its own, opened by the caf plugin (dlopen) only after the coarray runtime has
! started, on every image at once (registration is collective): linked into the plugin, the
! constructor would run when the plugin is loaded, before the runtime exists.
module parbench_caf_critical_section
   implicit none
   private
contains
   subroutine critical_section() bind(C, name='parbench_caf_critical')
      critical
      end critical
   end subroutine critical_section
end module parbench_caf_critical_section
