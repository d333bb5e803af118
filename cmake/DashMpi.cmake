# Which MPI dash builds against and launches with: DASH_MPI=openmpi (default) or mpich.
#
# Debian installs both side by side (mpicxx.openmpi / mpicxx.mpich, mpiexec.openmpi /
# mpiexec.mpich) and points the plain names at one of them; the switch picks the wrapper and the
# launcher of the named implementation. An explicit -DMPI_CXX_COMPILER / -DMPIEXEC_EXECUTABLE wins
# (an MPI elsewhere, a vendor's build of MPICH); the implementation found is checked against
# DASH_MPI either way, since the test launcher's flags and dash-bench's baselines differ per
# implementation. Sets DASH_MPI_IMPLEMENTATION (openmpi | mpich) for the rest of the build.
set(DASH_MPI "openmpi" CACHE STRING "MPI implementation to build with: openmpi or mpich")
set_property(CACHE DASH_MPI PROPERTY STRINGS openmpi mpich)
if(NOT DASH_MPI MATCHES "^(openmpi|mpich)$")
  message(FATAL_ERROR "DASH_MPI is '${DASH_MPI}', but it must be 'openmpi' or 'mpich' "
                      "(MPICH derivatives such as Cray MPICH, Intel MPI and MVAPICH count as 'mpich')")
endif()

if(NOT DASH_SMPI)
  if(NOT MPI_CXX_COMPILER)
    find_program(DASH_MPI_CXX_WRAPPER NAMES mpicxx.${DASH_MPI} mpicxx mpic++
                 DOC "The MPI C++ compiler wrapper of DASH_MPI")
    if(DASH_MPI_CXX_WRAPPER)
      set(MPI_CXX_COMPILER "${DASH_MPI_CXX_WRAPPER}" CACHE FILEPATH "MPI C++ compiler wrapper")
    endif()
  endif()
  if(NOT MPIEXEC_EXECUTABLE)
    find_program(DASH_MPIEXEC NAMES mpiexec.${DASH_MPI} mpiexec mpirun DOC "The MPI launcher of DASH_MPI")
    if(DASH_MPIEXEC)
      set(MPIEXEC_EXECUTABLE "${DASH_MPIEXEC}" CACHE FILEPATH "MPI launcher")
    endif()
  endif()
endif()

# dash uses the C API of MPI from C++; the deprecated C++ bindings are not linked.
set(MPI_CXX_SKIP_MPICXX ON CACHE BOOL "Do not link the MPI C++ bindings")
find_package(MPI 3.0 REQUIRED COMPONENTS CXX)

# Which implementation the headers belong to (each defines its own version macro).
if(NOT DASH_SMPI)
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_LIBRARIES MPI::MPI_CXX)
  check_cxx_source_compiles("#include <mpi.h>\n#ifndef OMPI_MAJOR_VERSION\n#error\n#endif\nint main() {}"
                            DASH_MPI_HEADERS_ARE_OPENMPI)
  check_cxx_source_compiles("#include <mpi.h>\n#ifndef MPICH_VERSION\n#error\n#endif\nint main() {}"
                            DASH_MPI_HEADERS_ARE_MPICH)
  unset(CMAKE_REQUIRED_LIBRARIES)
  if(DASH_MPI_HEADERS_ARE_OPENMPI)
    set(DASH_MPI_IMPLEMENTATION openmpi)
  elseif(DASH_MPI_HEADERS_ARE_MPICH)
    set(DASH_MPI_IMPLEMENTATION mpich)
  else()
    set(DASH_MPI_IMPLEMENTATION unknown)
  endif()
  if(NOT DASH_MPI_IMPLEMENTATION STREQUAL DASH_MPI)
    message(FATAL_ERROR "DASH_MPI is '${DASH_MPI}', but the MPI found (${MPI_CXX_COMPILER}, mpi.h in "
            "'${MPI_CXX_INCLUDE_DIRS}') is ${DASH_MPI_IMPLEMENTATION}. Configure a fresh build directory with "
            "-DDASH_MPI=${DASH_MPI_IMPLEMENTATION}, or point -DMPI_CXX_COMPILER and -DMPIEXEC_EXECUTABLE at "
            "the ${DASH_MPI} installation.")
  endif()
  message(STATUS "dash: MPI is ${DASH_MPI_IMPLEMENTATION} (${MPI_CXX_COMPILER}; launcher ${MPIEXEC_EXECUTABLE})")
else()
  set(DASH_MPI_IMPLEMENTATION smpi)
endif()
