#pragma once
// Sets an environment variable for the lifetime of the object (unit tests of DASH_* settings).

#include <cstdlib>

namespace dash::testing {

class ScopedEnv {
public:
  ScopedEnv(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
  ~ScopedEnv() { unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
  const char* name_;
};

}  // namespace dash::testing
