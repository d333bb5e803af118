#include <cstdlib>
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

TEST(Config, TableWindowBytesIsANumberOfAtLeastAPage) {
  unsetenv("DASH_TABLE_WINDOW_BYTES");
  EXPECT_EQ(dash::comm::config_from_environment().table_window_bytes, std::size_t{1} << 20);
  {
    const ScopedEnv set("DASH_TABLE_WINDOW_BYTES", "65536");
    EXPECT_EQ(dash::comm::config_from_environment().table_window_bytes, 65536u);
  }
  for (const char* bad : {"", "12k", "-1", "100", "lots"}) {
    const ScopedEnv set("DASH_TABLE_WINDOW_BYTES", bad);
    try {
      dash::comm::config_from_environment();
      FAIL() << "no exception for '" << bad << "'";
    } catch (const dash::InvalidArgument& error) {
      EXPECT_EQ(std::string(error.what()), std::string("dash::init: invalid argument 'environment variable "
                                                       "DASH_TABLE_WINDOW_BYTES' = '") +
                                               bad + "'; expected a number of bytes >= 4096");
    }
  }
}

TEST(Config, StreamingStoreBytesIsAPositiveNumberOf32MiBByDefault) {
  unsetenv("DASH_STREAMING_STORE_BYTES");
  EXPECT_EQ(dash::comm::config_from_environment().streaming_store_bytes, std::size_t{32} << 20);
  {
    const ScopedEnv set("DASH_STREAMING_STORE_BYTES", "1");
    EXPECT_EQ(dash::comm::config_from_environment().streaming_store_bytes, 1u);
  }
  for (const char* bad : {"", "0", "1M", "-5"}) {
    const ScopedEnv set("DASH_STREAMING_STORE_BYTES", bad);
    try {
      dash::comm::config_from_environment();
      FAIL() << "no exception for '" << bad << "'";
    } catch (const dash::InvalidArgument& error) {
      EXPECT_EQ(std::string(error.what()), std::string("dash::init: invalid argument 'environment variable "
                                                       "DASH_STREAMING_STORE_BYTES' = '") +
                                               bad + "'; expected a number of bytes >= 1");
    }
  }
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
