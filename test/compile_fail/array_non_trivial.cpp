// Array elements travel between processes as bytes: a type with a constructor-managed resource is refused.
#include <string>

#include <dash/containers/array.hpp>

void make_array_of_strings() { dash::Array<std::string> names(10); }
