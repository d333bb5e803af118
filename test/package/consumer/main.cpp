// An outside program built against the installed dash package.
#include <cstdio>

#include <dash/dash.hpp>

int main(int argc, char** argv) {
  dash::init(&argc, &argv);
  std::printf("consumer rank %d of %zu uses dash\n", dash::myid(), dash::size());
  dash::barrier();
  dash::finalize();
  return 0;
}
