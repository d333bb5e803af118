#include "runner/cache_size.hpp"

#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>

namespace dash::bench {

namespace {

constexpr std::size_t fallback_cache_bytes = std::size_t{32} << 20;

// Sizes in sysfs read like "32768K" or "8M".
std::size_t parse_sysfs_size(const std::string& text) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])) != 0) {
    ++digits;
  }
  if (digits == 0) {
    return 0;
  }
  std::size_t bytes = std::stoull(text.substr(0, digits));
  const char suffix = digits < text.size() ? text[digits] : ' ';
  if (suffix == 'K') {
    bytes <<= 10;
  } else if (suffix == 'M') {
    bytes <<= 20;
  } else if (suffix == 'G') {
    bytes <<= 30;
  }
  return bytes;
}

std::string first_word(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string word;
  in >> word;
  return word;
}

std::size_t sysfs_last_level_cache_bytes() {
  const std::filesystem::path caches = "/sys/devices/system/cpu/cpu0/cache";
  std::error_code error;
  int deepest_level = 0;
  std::size_t bytes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(caches, error)) {
    if (!entry.path().filename().string().starts_with("index") ||
        first_word(entry.path() / "type") == "Instruction") {
      continue;
    }
    const std::string level_text = first_word(entry.path() / "level");
    const int level = level_text.empty() ? 0 : std::stoi(level_text);
    if (level > deepest_level) {
      deepest_level = level;
      bytes = parse_sysfs_size(first_word(entry.path() / "size"));
    }
  }
  return bytes;
}

}  // namespace

std::size_t last_level_cache_bytes() {
  // sysfs first: under some hypervisors glibc derives the sysconf value from CPUID leaves that
  // describe the host (e.g. 320 MiB reported for a guest whose sysfs and lscpu say 32 MiB).
  if (const std::size_t bytes = sysfs_last_level_cache_bytes(); bytes > 0) {
    return bytes;
  }
  if (const long bytes = sysconf(_SC_LEVEL3_CACHE_SIZE); bytes > 0) {
    return static_cast<std::size_t>(bytes);
  }
  return fallback_cache_bytes;
}

}  // namespace dash::bench
