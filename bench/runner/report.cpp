// Presenting results (runner/report.hpp). Map: the CSV columns, to_row (one result as a JSON row;
// a baseline that did not run leaves its columns null), the formatting helpers of the table,
// skipped_points and result_rows, print_table, and the JSON and CSV writers.

#include "runner/report.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string_view>

#include <dash/comm/exception.hpp>

#include "runner/host_layout.hpp"

namespace dash::bench {

namespace {

// Column order of the CSV file; the metric columns stay empty for cases without a rate, the round
// trip's (the JSON's core_round_trip_ns pair, split in two) where ranks 0 and 1 share no node.
const std::vector<std::string_view> csv_columns{
    "suite", "case", "impl", "baseline", "p", "size", "size_unit", "reps",
    "median_s", "min_s", "max_s", "baseline_median_s", "baseline_min_s", "baseline_max_s",
    "ratio", "verified",
    "metric", "value", "baseline_value", "per_rank_value", "baseline_per_rank_value",
    "core_round_trip_before_ns", "core_round_trip_after_ns"};

// The cell of `column` in a row of the JSON file.
nlohmann::json csv_value(const nlohmann::json& row, const std::string& column) {
  if (column == "core_round_trip_before_ns" || column == "core_round_trip_after_ns") {
    if (!row.contains("core_round_trip_ns")) {
      return nullptr;
    }
    return row.at("core_round_trip_ns").at(column == "core_round_trip_before_ns" ? 0 : 1);
  }
  return row.contains(column) ? row.at(column) : nlohmann::json();
}

nlohmann::json to_row(const Result& result) {
  const Case& bench_case = *result.point.bench_case;
  const int p = result.point.active_ranks;
  const std::optional<Summary>& baseline = result.baseline;
  // Without a baseline its columns are null, and the row says why it has none.
  const auto baseline_value = [&](double Summary::*field) {
    return baseline ? nlohmann::json((*baseline).*field) : nlohmann::json();
  };
  nlohmann::json row{
      {"suite", bench_case.suite},
      {"case", bench_case.name},
      {"impl", bench_case.impl},
      {"baseline", bench_case.baseline},
      {"p", p},
      {"size", result.point.size},
      {"size_unit", bench_case.size_unit},
      {"reps", result.timed_reps},
      {"median_s", result.impl.median},
      {"min_s", result.impl.min},
      {"max_s", result.impl.max},
      {"baseline_median_s", baseline_value(&Summary::median)},
      {"baseline_min_s", baseline_value(&Summary::min)},
      {"baseline_max_s", baseline_value(&Summary::max)},
      // Above 1 means the implementation is faster than its baseline.
      {"ratio", baseline ? nlohmann::json(baseline->median / result.impl.median) : nlohmann::json()},
      {"verified", result.verified()},
  };
  if (bench_case.baseline_unavailable) {
    row["baseline_unavailable"] = *bench_case.baseline_unavailable;
  }
  if (!std::isnan(result.core_round_trip_before_ns) && !std::isnan(result.core_round_trip_after_ns)) {
    row["core_round_trip_ns"] = {result.core_round_trip_before_ns, result.core_round_trip_after_ns};
  }
  if (bench_case.rate) {
    // Rates follow the STREAM convention of using the best (minimum) time.
    const double work = bench_case.rate->work(result.point.size, p);
    row["metric"] = bench_case.rate->unit;
    row["value"] = work / result.impl.min;
    row["baseline_value"] = baseline ? nlohmann::json(work / baseline->min) : nlohmann::json();
    row["per_rank_value"] = work / result.impl.min / p;
    row["baseline_per_rank_value"] = baseline ? nlohmann::json(work / baseline->min / p) : nlohmann::json();
  }
  if (!bench_case.extra_metrics.empty()) {
    nlohmann::json extra = nlohmann::json::array();
    for (std::size_t index = 0; index < bench_case.extra_metrics.size(); ++index) {
      const Summary& impl = result.impl_extra.at(index);
      const Summary* baseline_extra = baseline ? &result.baseline_extra.at(index) : nullptr;
      const auto baseline_metric = [&](double Summary::*field) {
        return baseline_extra != nullptr ? nlohmann::json(baseline_extra->*field) : nlohmann::json();
      };
      extra.push_back({{"name", bench_case.extra_metrics[index].name},
                       {"unit", bench_case.extra_metrics[index].unit},
                       {"median", impl.median},
                       {"min", impl.min},
                       {"max", impl.max},
                       {"baseline_median", baseline_metric(&Summary::median)},
                       {"baseline_min", baseline_metric(&Summary::min)},
                       {"baseline_max", baseline_metric(&Summary::max)}});
    }
    row["extra"] = std::move(extra);
  }
  return row;
}

// The extra metrics of all rows by name, in order of first appearance: the table and the CSV
// file give each its own columns.
std::vector<std::string> extra_metric_names(const nlohmann::json& rows) {
  std::vector<std::string> names;
  for (const nlohmann::json& row : rows) {
    if (!row.contains("extra")) {
      continue;
    }
    for (const nlohmann::json& metric : row.at("extra")) {
      const auto name = metric.at("name").get<std::string>();
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        names.push_back(name);
      }
    }
  }
  return names;
}

// The row's entry for extra metric `name`, or null.
const nlohmann::json* find_extra_metric(const nlohmann::json& row, const std::string& name) {
  if (!row.contains("extra")) {
    return nullptr;
  }
  for (const nlohmann::json& metric : row.at("extra")) {
    if (metric.at("name").get<std::string>() == name) {
      return &metric;
    }
  }
  return nullptr;
}

std::string format_number(double value, const char* format) {
  char text[64] = {};
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string format_seconds(double seconds) {
  if (seconds >= 1.0) {
    return format_number(seconds, "%.3g s");
  }
  if (seconds >= 1e-3) {
    return format_number(seconds * 1e3, "%.3g ms");
  }
  if (seconds >= 1e-6) {
    return format_number(seconds * 1e6, "%.3g us");
  }
  return format_number(seconds * 1e9, "%.3g ns");
}

// "median (min .. max)"; "unavailable" for a baseline that did not run.
std::string format_timing(const nlohmann::json& row, const std::string& prefix) {
  if (row.at(prefix + "median_s").is_null()) {
    return "unavailable";
  }
  return format_seconds(row.at(prefix + "median_s").get<double>()) + " (" +
         format_seconds(row.at(prefix + "min_s").get<double>()) + " .. " +
         format_seconds(row.at(prefix + "max_s").get<double>()) + ")";
}

// "21.4 GB/s", with the per-rank share when several ranks run: "21.4 GB/s (10.7/rank)"
std::string format_rate(const nlohmann::json& row, const std::string& prefix) {
  if (!row.contains("metric") || row.at(prefix + "value").is_null()) {
    return "-";
  }
  std::string text = format_number(row.at(prefix + "value").get<double>(), "%.4g ") +
                     row.at("metric").get<std::string>();
  if (row.at("p").get<int>() > 1) {
    const double per_rank = row.at(prefix + "per_rank_value").get<double>();
    text += " (" + format_number(per_rank, "%.4g") + "/rank)";
  }
  return text;
}

// "0.912 / 0.034": the medians of implementation and baseline.
std::string format_extra_metric(const nlohmann::json* metric) {
  if (metric == nullptr) {
    return "-";
  }
  const bool seconds = metric->at("unit").get<std::string>() == "s";
  const auto format = [&](const char* key) -> std::string {
    if (metric->at(key).is_null()) {
      return "-";
    }
    const double value = metric->at(key).get<double>();
    return seconds ? format_seconds(value) : format_number(value, "%.3g");
  };
  return format("median") + " / " + format("baseline_median");
}

void print_columns(std::ostream& out, const std::vector<std::vector<std::string>>& lines) {
  std::vector<std::size_t> widths;
  for (const auto& cells : lines) {
    widths.resize(std::max(widths.size(), cells.size()), 0);
    for (std::size_t column = 0; column < cells.size(); ++column) {
      widths[column] = std::max(widths[column], cells[column].size());
    }
  }
  for (const auto& cells : lines) {
    std::string line;
    for (std::size_t column = 0; column < cells.size(); ++column) {
      // The case name reads best left-aligned, numbers right-aligned.
      const std::string padding(widths[column] - cells[column].size(), ' ');
      line += column == 0 ? cells[column] + padding : "  " + padding + cells[column];
    }
    out << line << '\n';
  }
}

std::string csv_cell(const nlohmann::json& value) {
  if (value.is_null()) {
    return "";
  }
  if (!value.is_string()) {
    return value.dump();
  }
  const auto text = value.get<std::string>();
  if (text.find_first_of(",\"\n") == std::string::npos) {
    return text;
  }
  std::string quoted = "\"";
  for (const char c : text) {
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  }
  return quoted + "\"";
}

std::ofstream open_for_writing(const std::string& path) {
  std::ofstream file(path);
  if (!file) {
    throw Exception("dash-bench: cannot write '" + path + "': " + std::strerror(errno));
  }
  return file;
}

void finish_writing(std::ofstream& file, const std::string& path) {
  file.close();
  if (!file) {
    throw Exception("dash-bench: writing '" + path + "' failed");
  }
}

}  // namespace

nlohmann::json skipped_points(const std::vector<SkippedPoint>& skipped) {
  nlohmann::json points = nlohmann::json::array();
  for (const SkippedPoint& point : skipped) {
    points.push_back({{"suite", point.point.bench_case->suite},
                      {"case", point.point.bench_case->name},
                      {"p", point.point.active_ranks},
                      {"size", point.point.size},
                      {"size_unit", point.point.bench_case->size_unit},
                      {"reason", point.reason}});
  }
  return points;
}

nlohmann::json result_rows(const std::vector<Result>& results) {
  nlohmann::json rows = nlohmann::json::array();
  for (const Result& result : results) {
    rows.push_back(to_row(result));
  }
  return rows;
}

void print_table(std::ostream& out, const nlohmann::json& header, const nlohmann::json& rows) {
  const int ranks = header.at("ranks").get<int>();
  // One host: its name; several: each with its rank count.
  const bool several_hosts = header.contains("hosts") && header.at("hosts").size() > 1;
  const std::string where = several_hosts ? describe(header.at("hosts")) : header.at("host").get<std::string>();
  out << "dash-bench " << header.at("git_revision").get<std::string>() << " on " << where << ", " << ranks
      << (ranks == 1 ? " rank, " : " ranks, ")
      << header.at("build_type").get<std::string>() << " build, "
      << header.at("timed_reps").get<int>() << " timed reps, "
      << header.at("mpi").get<std::string>() << ", MPI thread level "
      << header.at("mpi_thread_level").get<std::string>() << "\n"
      << "ratio = baseline median / implementation median (above 1: the implementation is "
         "faster); rates from the best time\n";
  // One table per suite, in the order the suites ran, so that each shows only its own extra metrics.
  std::vector<std::string> suites;
  for (const nlohmann::json& row : rows) {
    const auto suite = row.at("suite").get<std::string>();
    if (std::find(suites.begin(), suites.end(), suite) == suites.end()) {
      suites.push_back(suite);
    }
  }
  bool any_extra = false;
  for (const std::string& suite : suites) {
    nlohmann::json suite_rows = nlohmann::json::array();
    std::copy_if(rows.begin(), rows.end(), std::back_inserter(suite_rows),
                 [&](const nlohmann::json& row) { return row.at("suite").get<std::string>() == suite; });
    const std::vector<std::string> extra_names = extra_metric_names(suite_rows);
    any_extra = any_extra || !extra_names.empty();
    std::vector<std::vector<std::string>> lines{{"case", "p", "size", "impl median (min .. max)",
                                                 "baseline median (min .. max)", "ratio", "impl rate",
                                                 "baseline rate", "verified"}};
    for (const std::string& name : extra_names) {
      lines.front().push_back(name + " impl / baseline");
    }
    for (const nlohmann::json& row : suite_rows) {
      lines.push_back({row.at("case").get<std::string>(),
                       std::to_string(row.at("p").get<int>()),
                       std::to_string(row.at("size").get<std::size_t>()),
                       format_timing(row, ""),
                       format_timing(row, "baseline_"),
                       row.at("ratio").is_null() ? "-" : format_number(row.at("ratio").get<double>(), "%.3f"),
                       format_rate(row, ""),
                       format_rate(row, "baseline_"),
                       row.at("verified").get<bool>() ? "yes" : "NO"});
      for (const std::string& name : extra_names) {
        lines.back().push_back(format_extra_metric(find_extra_metric(row, name)));
      }
    }
    out << "\nsuite " << suite << '\n';
    print_columns(out, lines);
    std::vector<std::string> without_baseline;
    for (const nlohmann::json& row : suite_rows) {
      if (row.contains("baseline_unavailable")) {
        const std::string note = row.at("case").get<std::string>() + ": no baseline: " +
                                 row.at("baseline_unavailable").get<std::string>();
        if (std::find(without_baseline.begin(), without_baseline.end(), note) == without_baseline.end()) {
          without_baseline.push_back(note);
          out << note << '\n';
        }
      }
    }
  }
  if (header.contains("skipped") && !header.at("skipped").empty()) {
    out << "\nskipped (could not run in this job):\n";
    for (const nlohmann::json& point : header.at("skipped")) {
      out << "  " << point.at("suite").get<std::string>() << '/' << point.at("case").get<std::string>()
          << " p=" << point.at("p").get<int>() << " size=" << point.at("size").get<std::size_t>() << ": "
          << point.at("reason").get<std::string>() << '\n';
    }
  }
  if (any_extra) {
    out << "\nextra metrics: medians over the timed repetitions (docs/benchmarks.md describes "
           "each suite's)\n";
  }
}

void write_json_file(const std::string& path, const nlohmann::json& header,
                     const nlohmann::json& rows) {
  std::ofstream file = open_for_writing(path);
  file << nlohmann::json{{"header", header}, {"results", rows}}.dump(2) << '\n';
  finish_writing(file, path);
}

void write_csv_file(const std::string& path, const nlohmann::json& rows) {
  std::ofstream file = open_for_writing(path);
  // After the fixed columns: each extra metric's medians as `<name>` and `baseline_<name>`.
  const std::vector<std::string> extra_names = extra_metric_names(rows);
  std::string line;
  for (const std::string_view column : csv_columns) {
    if (!line.empty()) {
      line += ',';
    }
    line += column;
  }
  for (const std::string& name : extra_names) {
    for (const std::string& column : {name, "baseline_" + name}) {
      line += ',';
      line += csv_cell(column);
    }
  }
  file << line << '\n';
  for (const nlohmann::json& row : rows) {
    line.clear();
    for (std::size_t index = 0; index < csv_columns.size(); ++index) {
      const nlohmann::json cell = csv_value(row, std::string(csv_columns[index]));
      if (index > 0) {
        line += ',';
      }
      line += csv_cell(cell);
    }
    for (const std::string& name : extra_names) {
      const nlohmann::json* metric = find_extra_metric(row, name);
      for (const char* key : {"median", "baseline_median"}) {
        line += ',';
        line += csv_cell(metric ? metric->at(key) : nlohmann::json());
      }
    }
    file << line << '\n';
  }
  finish_writing(file, path);
}

}  // namespace dash::bench
