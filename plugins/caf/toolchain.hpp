// What the build knows of the coarray toolchain, for the run header and the backend line
// (meson.build defines these from the compiler and OpenCoarrays it found).
#pragma once

#ifndef PARBENCH_PLUGIN_VERSION
#define PARBENCH_PLUGIN_VERSION "0.0.0"
#endif
#ifndef PARBENCH_CAF_RUNTIME
#define PARBENCH_CAF_RUNTIME "OpenCoarrays"
#endif
#ifndef PARBENCH_CAF_COMPILER
#define PARBENCH_CAF_COMPILER "gfortran"
#endif
