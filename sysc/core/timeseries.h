// timeseries.csv: a comment line that names the run, a header of named columns, one row per
// window. The run's own columns come first; each mechanism appends the columns it declares.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace icn {

class Timeseries {
 public:
  // `columns` after the leading "cycle" column.
  Timeseries(const std::string& comment, const std::vector<std::string>& columns);
  void AddRow(uint64_t cycle, const std::vector<double>& values);
  const std::string& csv() const { return csv_; }

 private:
  std::string csv_;
};

}  // namespace icn
