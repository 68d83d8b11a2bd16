// SPDX-License-Identifier: Apache-2.0
// timeseries.csv: a header of named columns, then one row per window (the run's seed and
// parameters are in results.json beside it, so any CSV reader takes the file as it is). The
// run's own columns come first; each mechanism appends the columns it declares.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace icn {

class Timeseries {
 public:
  // `columns` after the leading "cycle" column.
  explicit Timeseries(const std::vector<std::string>& columns);
  void AddRow(uint64_t cycle, const std::vector<double>& values);
  const std::string& csv() const { return csv_; }

 private:
  std::string csv_;
};

}  // namespace icn
