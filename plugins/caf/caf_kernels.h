/* The bind(C) surface of caf_kernels.f90 and the two entry points of the coarray runtime
 * (OpenCoarrays' libcaf_mpich, gfortran's -fcoarray=lib ABI). Image numbers are Fortran's,
 * 1-based: image = MPI rank + 1 (OpenCoarrays' CAF_COMM_WORLD duplicates MPI_COMM_WORLD). */
#ifndef PARBENCH_CAF_KERNELS_H
#define PARBENCH_CAF_KERNELS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The coarray runtime. caf_init asks MPI_Initialized and, when MPI is already running (the MPI
 * plugin started it), neither initialises nor later finalises MPI itself. */
void _gfortran_caf_init(int* argc, char*** argv);
void _gfortran_caf_finalize(void);

/* Set-up and tear-down: collective over all images, never inside a timed region. */
void* parbench_caf_prepare_point_to_point(int count, int block_size, int block_stride, int extent,
                                          int two_dimensional);
void parbench_caf_release_point_to_point(void);
void* parbench_caf_prepare_halo(int n, const int neighbours[6]);
void parbench_caf_release_halo(void);
void parbench_caf_prepare_lock(void);
void parbench_caf_release_lock(void);
void parbench_caf_warm_up(void);

/* One transfer to (put) or from (get) `image`. */
typedef void (*parbench_caf_transfer)(int image);
void parbench_caf_put(int image);
void parbench_caf_subput(int image);
void parbench_caf_simple_subput(int image);
void parbench_caf_all_put(int image);
void parbench_caf_many_put(int image);
void parbench_caf_sub_manyput(int image);
void parbench_caf_many_subput(int image);
void parbench_caf_strided_put(int image);
void parbench_caf_strided_subput(int image);
void parbench_caf_strided_many_put(int image);
void parbench_caf_get(int image);
void parbench_caf_subget(int image);
void parbench_caf_simple_subget(int image);
void parbench_caf_all_get(int image);
void parbench_caf_many_get(int image);
void parbench_caf_sub_manyget(int image);
void parbench_caf_many_subget(int image);
void parbench_caf_strided_get(int image);
void parbench_caf_strided_subget(int image);
void parbench_caf_strided_many_get(int image);

/* Synchronisation. `images`: n distinct images other than the caller (n may be 0). */
void parbench_caf_sync_all(void);
void parbench_caf_sync_image(int image);
void parbench_caf_sync_images(const int* images, int n);
void parbench_caf_lock_unlock(void);
void parbench_caf_delay(int n);

/* One halo swap with the neighbours given to prepare_halo; `images` as for sync_images. */
void parbench_caf_halo_swap(const int* images, int n);

#ifdef __cplusplus
}
#endif

#endif /* PARBENCH_CAF_KERNELS_H */
