// A std::string's bytes hold a pointer, so comparing them across ranks would be meaningless.
#include <string>

#include <dash/comm/environment.hpp>
#include <dash/comm/uniform_check.hpp>

void compare_names(const std::string& name) {
  dash::comm::check_uniform(name, "compare_names", "name", dash::comm::base_comm());
}
