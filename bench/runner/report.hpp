#pragma once
// Presenting results: the table on standard output, JSON and CSV files (docs/benchmarks.md
// describes the schema).

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/sweep.hpp"

namespace dash::bench {

// One JSON object per result; the JSON "results" array, the CSV lines and the table all show
// these rows. Call on rank 0, which holds the timings.
nlohmann::json result_rows(const std::vector<Result>& results);

// The header's "skipped" list: suite, case, p, size, size_unit and reason of each point that did not
// run.
nlohmann::json skipped_points(const std::vector<SkippedPoint>& skipped);

// The table of every suite's rows, the cases without a baseline and the header's skipped points.
void print_table(std::ostream& out, const nlohmann::json& header, const nlohmann::json& rows);

// {"header": header, "results": rows}. Throws dash::Exception when the file cannot be written.
void write_json_file(const std::string& path, const nlohmann::json& header,
                     const nlohmann::json& rows);

// One line per row with the JSON keys as columns. Throws dash::Exception when the file cannot
// be written.
void write_csv_file(const std::string& path, const nlohmann::json& rows);

}  // namespace dash::bench
