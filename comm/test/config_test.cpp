#include <cstddef>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include <gtest/gtest.h>

#include "scoped_env.hpp"

#include <dash/comm/config.hpp>
#include <dash/comm/exception.hpp>

namespace {

using dash::testing::ScopedEnv;

TEST(Config, DefaultsWhenUnset) {
  unsetenv("DASH_LOG_LEVEL");
  unsetenv("DASH_THREAD_LEVEL");
  const dash::comm::Config config = dash::comm::config_from_environment();
  EXPECT_EQ(config.log_level, dash::comm::LogLevel::warn);
  EXPECT_EQ(config.thread_level, dash::comm::ThreadLevel::funneled);
  EXPECT_FALSE(config.thread_level_from_environment);
}

TEST(Config, ParsesLevelsCaseInsensitively) {
  const ScopedEnv log("DASH_LOG_LEVEL", "DeBuG");
  const ScopedEnv threads("DASH_THREAD_LEVEL", "multiple");
  const dash::comm::Config config = dash::comm::config_from_environment();
  EXPECT_EQ(config.log_level, dash::comm::LogLevel::debug);
  EXPECT_EQ(config.thread_level, dash::comm::ThreadLevel::multiple);
  EXPECT_TRUE(config.thread_level_from_environment);
}

TEST(Config, RejectsMalformedValuesWithTheAcceptedOnes) {
  const ScopedEnv log("DASH_LOG_LEVEL", "loud");
  try {
    dash::comm::config_from_environment();
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_STREQ(error.what(),
                 "dash::init: invalid argument 'environment variable DASH_LOG_LEVEL' = 'loud'; "
                 "expected one of off, error, warn, info, debug, trace");
  }
}

TEST(Config, RejectsMalformedThreadLevel) {
  const ScopedEnv threads("DASH_THREAD_LEVEL", "many");
  EXPECT_THROW(dash::comm::config_from_environment(), dash::InvalidArgument);
}

// A 0/1 variable: its default when unset, both values, and a malformed value's exact error.
void expect_switch(const char* variable, bool dash::comm::Config::*field, bool by_default, const char* malformed) {
  SCOPED_TRACE(variable);
  unsetenv(variable);
  EXPECT_EQ(dash::comm::config_from_environment().*field, by_default);
  for (const bool value : {false, true}) {
    const ScopedEnv set(variable, value ? "1" : "0");
    EXPECT_EQ(dash::comm::config_from_environment().*field, value);
  }
  const ScopedEnv bad(variable, malformed);
  try {
    dash::comm::config_from_environment();
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_EQ(std::string(error.what()), std::string("dash::init: invalid argument 'environment variable ") + variable +
                                             "' = '" + malformed + "'; expected one of 0, 1");
  }
}

TEST(Config, ProgressThreadIsASwitch) {
  expect_switch("DASH_PROGRESS_THREAD", &dash::comm::Config::progress_thread, false, "yes");
}

TEST(Config, SingleCopyIsASwitchOnByDefault) {
  expect_switch("DASH_SINGLE_COPY", &dash::comm::Config::single_copy, true, "off");
}

// A byte-count variable: its default when unset, a valid value, and each malformed value's exact error.
void expect_bytes(const char* variable, std::size_t dash::comm::Config::*field, std::size_t by_default,
                  const char* valid, std::size_t parsed, std::initializer_list<const char*> malformed,
                  const std::string& expected) {
  SCOPED_TRACE(variable);
  unsetenv(variable);
  EXPECT_EQ(dash::comm::config_from_environment().*field, by_default);
  {
    const ScopedEnv set(variable, valid);
    EXPECT_EQ(dash::comm::config_from_environment().*field, parsed);
  }
  for (const char* bad : malformed) {
    const ScopedEnv set(variable, bad);
    try {
      dash::comm::config_from_environment();
      FAIL() << "no exception for '" << bad << "'";
    } catch (const dash::InvalidArgument& error) {
      EXPECT_EQ(std::string(error.what()), std::string("dash::init: invalid argument 'environment variable ") +
                                               variable + "' = '" + bad + "'; expected " + expected);
    }
  }
}

TEST(Config, TableWindowBytesIsANumberOfAtLeastAPage) {
  expect_bytes("DASH_TABLE_WINDOW_BYTES", &dash::comm::Config::table_window_bytes, std::size_t{1} << 20, "65536",
               65536, {"", "12k", "-1", "100", "lots"}, "a number of bytes >= 4096");
}

TEST(Config, StreamingStoreBytesIsAPositiveNumberOf32MiBByDefault) {
  expect_bytes("DASH_STREAMING_STORE_BYTES", &dash::comm::Config::streaming_store_bytes, std::size_t{32} << 20, "1",
               1, {"", "0", "1M", "-5"}, "a number of bytes >= 1");
}

TEST(Config, ReportsUnknownDashVariables) {
  const ScopedEnv typo("DASH_LOG_LEVLE", "info");
  const std::vector<std::string> unknown = dash::comm::unknown_dash_variables();
  EXPECT_NE(std::find(unknown.begin(), unknown.end(), "DASH_LOG_LEVLE"), unknown.end());
  for (const std::string_view known : dash::comm::known_variables()) {
    EXPECT_EQ(std::find(unknown.begin(), unknown.end(), known), unknown.end()) << known;
  }
}

TEST(Config, LevelNames) {
  EXPECT_EQ(dash::comm::to_string(dash::comm::LogLevel::trace), "trace");
  EXPECT_EQ(dash::comm::to_string(dash::comm::ThreadLevel::serialized), "serialized");
}

}  // namespace
