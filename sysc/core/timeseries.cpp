// SPDX-License-Identifier: Apache-2.0
#include "core/timeseries.h"

#include <sstream>

namespace icn {

Timeseries::Timeseries(const std::vector<std::string>& columns) {
  csv_ = "cycle";
  for (const auto& c : columns) csv_ += "," + c;
  csv_ += '\n';
}

void Timeseries::AddRow(uint64_t cycle, const std::vector<double>& values) {
  std::ostringstream line;
  line << cycle;
  for (double v : values) line << ',' << v;
  line << '\n';
  csv_ += line.str();
}

}  // namespace icn
