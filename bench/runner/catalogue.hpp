#pragma once
// `dash-bench list`: the registered suites and cases with what each is compared against.

#include <ostream>

namespace dash::bench {

void print_catalogue(std::ostream& out);

}  // namespace dash::bench
