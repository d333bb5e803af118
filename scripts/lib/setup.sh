# Shared set-up for scripts/test and scripts/demo: Debian packages, configure, build.
# Sourced, not executed.

# Debian 12 packages the build, the tests and the benchmark runner need, for both MPIs dash builds
# with (DASH_MPI=openmpi, the default, or mpich). Debian builds FFTW-MPI for Open MPI only.
dash_packages=(
  g++ cmake make git python3
  libopenmpi-dev openmpi-bin libhwloc-dev pkg-config
  mpich libmpich-dev
  libgtest-dev valgrind
  libboost-dev libhwy-dev
  libfftw3-dev libfftw3-mpi-dev
  libscalapack-openmpi-dev libscalapack-mpich-dev
  nlohmann-json3-dev libcli11-dev
  python3-matplotlib
)

dash_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# Installs missing packages when run as root; otherwise prints the exact command and stops.
dash_ensure_packages() {
  local missing=()
  local package
  for package in "${dash_packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$package")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "dash needs these Debian packages; install them with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# Open MPI refuses to run as root unless told, and needs --oversubscribe beyond the core count.
dash_mpi_environment() {
  if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
}

# dash_configure_and_build <build dir> [cmake options...]
dash_configure_and_build() {
  local build_dir=$1
  shift
  cmake -S "$dash_root" -B "$build_dir" "$@"
  cmake --build "$build_dir" --parallel "$(nproc)"
}
