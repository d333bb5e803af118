// dash::sort sorts global ranges only: iterators of a local container (here not even random-access)
// are refused with a message that points to std::sort.
#include <list>

#include <dash/algorithms/sort.hpp>

void sort_a_list(std::list<int>& values) { dash::sort(values.begin(), values.end()); }
