// SPDX-License-Identifier: Apache-2.0
#include "core/scenario.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <yaml-cpp/yaml.h>

#include "core/errors.h"

namespace icn {

std::string AllowedValues(const KeySpec& spec) {
  std::ostringstream out;
  if (spec.type == KeyType::kBool) return "true or false";
  if (spec.type == KeyType::kText) return "any text";
  if (spec.type == KeyType::kChoice) {
    out << "one of {";
    for (size_t i = 0; i < spec.choices.size(); ++i) out << (i ? ", " : "") << spec.choices[i];
    out << "}";
    return out.str();
  }
  // Integer bounds in full (a seed's limit is 9007199254740991, not 9.0072e+15).
  const auto bound = [&spec](double v) {
    std::ostringstream m;
    if (spec.type == KeyType::kInt || spec.type == KeyType::kIntList) {
      m << static_cast<int64_t>(v);
    } else {
      m << v;
    }
    return m.str();
  };
  out << "[" << bound(spec.min) << ", " << (spec.max == kUnbounded ? std::string("inf") : bound(spec.max))
      << "]";
  if (spec.type == KeyType::kIntList) return "a list of integers in " + out.str();
  if (spec.type == KeyType::kPointList) return "a list of [cycle, load] pairs with load in " + out.str();
  return (spec.type == KeyType::kInt ? "an integer in " : "a number in ") + out.str();
}

namespace {

[[noreturn]] void Fail(const KeySpec& spec, const std::string& what) {
  throw ScenarioError(std::string(spec.name) + ": " + what + "; allowed: " + AllowedValues(spec));
}

double ParseNumber(const KeySpec& spec, const YAML::Node& node) {
  if (!node.IsScalar()) Fail(spec, "expected a number");
  const std::string text = node.Scalar();
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || !std::isfinite(value))
    Fail(spec, "'" + text + "' is not a number");
  if (value < spec.min || value > spec.max) Fail(spec, text + " is out of range");
  return value;
}

// Decimal digits with an optional sign, nothing else: no 0x4, no 2.5, no 1e3, no silent wrap.
int64_t ParseInteger(const KeySpec& spec, const YAML::Node& node) {
  if (!node.IsScalar()) Fail(spec, "expected an integer");
  const std::string text = node.Scalar();
  const char* begin = text.data() + (text.size() > 1 && text[0] == '+');
  const char* end = text.data() + text.size();
  int64_t value = 0;
  const auto [stop, error] = std::from_chars(begin, end, value);
  if (error == std::errc::result_out_of_range) Fail(spec, text + " is out of range");
  if (text.empty() || error != std::errc() || stop != end) Fail(spec, "'" + text + "' is not an integer");
  if (static_cast<double>(value) < spec.min || static_cast<double>(value) > spec.max) {
    Fail(spec, text + " is out of range");
  }
  return value;
}

nlohmann::json Convert(const KeySpec& spec, const YAML::Node& node) {
  switch (spec.type) {
    case KeyType::kBool: {
      const std::string text = node.IsScalar() ? node.Scalar() : "";
      if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
      if (text == "false" || text == "0" || text == "no" || text == "off") return false;
      Fail(spec, "'" + text + "' is not true or false");
    }
    case KeyType::kInt:
      return ParseInteger(spec, node);
    case KeyType::kReal:
      return ParseNumber(spec, node);
    case KeyType::kChoice: {
      if (!node.IsScalar()) Fail(spec, "expected a word");
      for (const auto& choice : spec.choices) {
        if (choice == node.Scalar()) return choice;
      }
      Fail(spec, "'" + node.Scalar() + "' is not allowed");
    }
    case KeyType::kText:
      if (!node.IsScalar() && !node.IsNull()) Fail(spec, "expected text");
      return node.IsNull() ? std::string() : node.Scalar();
    case KeyType::kIntList: {
      if (!node.IsSequence()) Fail(spec, "expected a list such as [8, 8]");
      nlohmann::json list = nlohmann::json::array();
      for (const auto& item : node) list.push_back(ParseInteger(spec, item));
      return list;
    }
    case KeyType::kPointList: {
      if (!node.IsSequence()) Fail(spec, "expected a list such as [[0, 0.1], [5000, 0.7]]");
      nlohmann::json list = nlohmann::json::array();
      double last_cycle = -1;
      for (const auto& item : node) {
        if (!item.IsSequence() || item.size() != 2) Fail(spec, "each point must be [cycle, load]");
        KeySpec cycle_spec = spec;
        cycle_spec.min = 0;
        cycle_spec.max = kUnbounded;
        const double cycle = static_cast<double>(ParseInteger(cycle_spec, item[0]));
        if (cycle <= last_cycle) Fail(spec, "cycles must increase from point to point");
        last_cycle = cycle;
        list.push_back({cycle, ParseNumber(spec, item[1])});
      }
      return list;
    }
  }
  Fail(spec, "unsupported key type");
}

// A key and the line of the file it was given on.
struct Given {
  std::string key;
  YAML::Node value;
  int line;
};

// Nested maps become dotted keys; a key given twice (or both nested and dotted) is an error.
void Flatten(const KeyTable& keys, const std::string& path, const YAML::Node& node, const std::string& prefix,
             std::vector<Given>& out) {
  for (const auto& item : node) {
    const int line = item.first.Mark().line + 1;
    if (!item.first.IsScalar() || item.first.Scalar().empty()) {
      throw ScenarioError(path + ": line " + std::to_string(line) + ": a key must be a plain word");
    }
    const std::string key = prefix.empty() ? item.first.Scalar() : prefix + "." + item.first.Scalar();
    if (item.second.IsMap() && !keys.Find(key)) {
      Flatten(keys, path, item.second, key, out);
      continue;
    }
    for (const Given& earlier : out) {
      if (earlier.key == key) {
        throw ScenarioError(key + ": given twice in " + path + ", lines " + std::to_string(earlier.line) +
                            " and " + std::to_string(line));
      }
    }
    out.push_back({key, item.second, line});
  }
}

}  // namespace

KeySpec BoolKey(const char* name, const char* default_value, const char* help) {
  return {name, KeyType::kBool, default_value, 0, 0, {}, "", help};
}
KeySpec IntKey(const char* name, const char* default_value, double min, double max, const char* unit,
               const char* help) {
  return {name, KeyType::kInt, default_value, min, max, {}, unit, help};
}
KeySpec RealKey(const char* name, const char* default_value, double min, double max, const char* unit,
                const char* help) {
  return {name, KeyType::kReal, default_value, min, max, {}, unit, help};
}
KeySpec ChoiceKey(const char* name, const char* default_value, std::vector<std::string> choices,
                  const char* help) {
  return {name, KeyType::kChoice, default_value, 0, 0, std::move(choices), "", help};
}
KeySpec TextKey(const char* name, const char* default_value, const char* help) {
  return {name, KeyType::kText, default_value, 0, 0, {}, "", help};
}
KeySpec IntListKey(const char* name, const char* default_value, double min, double max, const char* unit,
                   const char* help) {
  return {name, KeyType::kIntList, default_value, min, max, {}, unit, help};
}
KeySpec PointListKey(const char* name, const char* default_value, double min, double max, const char* help) {
  return {name, KeyType::kPointList, default_value, min, max, {}, "", help};
}

namespace {

// A rule's name for keys: one key, or "family.*" for every key under "family.".
bool Matches(const std::string& pattern, const std::string& key) {
  const bool family = pattern.size() > 2 && pattern.compare(pattern.size() - 2, 2, ".*") == 0;
  return family ? key.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0 : key == pattern;
}

}  // namespace

bool KeyRule::Ties(const std::string& key) const {
  return std::any_of(keys.begin(), keys.end(), [&](const std::string& k) { return Matches(k, key); });
}

std::string KeyRule::Listed() const {
  std::string listed;
  for (const std::string& k : keys) listed += (listed.empty() ? "" : ", ") + k;
  return listed;
}

KeyTable::KeyTable(std::vector<KeySpec> keys, std::vector<KeyRule> rules)
    : keys_(std::move(keys)), rules_(std::move(rules)) {
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (!index_.emplace(keys_[i].name, i).second) {
      throw std::logic_error(std::string("key ") + keys_[i].name + " is declared twice");
    }
    try {
      defaults_[keys_[i].name] = Convert(keys_[i], YAML::Load(keys_[i].default_value));
    } catch (const std::exception& e) {
      throw std::logic_error(std::string("key ") + keys_[i].name +
                             ": its default is not allowed: " + e.what());
    }
  }
  for (const KeyRule& rule : rules_) {
    for (const std::string& k : rule.keys) {
      const bool known =
          std::any_of(keys_.begin(), keys_.end(), [&](const KeySpec& spec) { return Matches(k, spec.name); });
      if (!known) throw std::logic_error("a rule names " + k + ", which is no key");
    }
  }
}

const KeySpec* KeyTable::Find(const std::string& name) const {
  const auto it = index_.find(name);
  return it == index_.end() ? nullptr : &keys_[it->second];
}

Scenario::Scenario(const KeyTable& keys) : keys_(&keys), values_(keys.defaults()) {}

Scenario Scenario::Load(const KeyTable& keys, const std::string& path, const std::vector<std::string>& sets) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ScenarioError(path + ": cannot open the scenario file");
  std::ostringstream text;
  text << file.rdbuf();
  return Parse(keys, text.str(), path, sets);
}

namespace {

// YAML::Load reads the first document of a file and ignores the rest: a document marker (--- at
// the start of a line, where no scalar can hold it) after some content starts a second one.
// (YAML::LoadAll would find them, but yaml-cpp 0.7's loops forever on some malformed input.)
void RequireOneDocument(const std::string& text, const std::string& path) {
  std::istringstream lines(text);
  bool content = false;
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const bool marker =
        line.rfind("---", 0) == 0 && (line.size() == 3 || std::isspace(static_cast<unsigned char>(line[3])));
    if (marker && content) {
      throw ScenarioError(path + ": line " + std::to_string(number) +
                          ": a second YAML document; allowed: one scenario per file");
    }
    const size_t first = line.find_first_not_of(" \t\r");
    content = content || marker || (first != std::string::npos && line[first] != '#' && line[0] != '%');
  }
}

}  // namespace

Scenario Scenario::Parse(const KeyTable& keys, const std::string& text, const std::string& path,
                         const std::vector<std::string>& sets) {
  Scenario scenario(keys);
  RequireOneDocument(text, path);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ScenarioError(path + ": line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (!root.IsMap()) throw ScenarioError(path + ": a scenario is a map of keys");
  std::vector<Given> items;
  Flatten(keys, path, root, "", items);
  for (const auto& [key, node, line] : items) {
    if (key == "name") {
      if (!node.IsScalar() || node.Scalar().empty()) {
        throw ScenarioError(path + ": line " + std::to_string(line) + ": name must be a non-empty word");
      }
      scenario.name_ = node.Scalar();
    } else if (key == "description") {
      continue;
    } else {
      const KeySpec* spec = keys.Find(key);
      if (!spec) throw ScenarioError(key + ": unknown key in " + path + " (icnsim keys lists them)");
      scenario.values_[key] = Convert(*spec, node);
      scenario.given_.insert(key);
    }
  }
  for (const auto& assignment : sets) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos) throw ScenarioError("--set " + assignment + ": expected key=value");
    scenario.Set(assignment.substr(0, eq), assignment.substr(eq + 1));
  }
  return scenario;
}

std::string Scenario::Summary(const std::string& path) {
  try {
    const YAML::Node description = YAML::LoadFile(path)["description"];
    if (!description || !description.IsScalar()) return "";
    std::string text = description.Scalar();
    const size_t stop = text.find(". ");
    if (stop != std::string::npos) text.resize(stop + 1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
    return text;
  } catch (const YAML::Exception&) {
    return "";
  }
}

void Scenario::Set(const std::string& key, const std::string& yaml_text) {
  const KeySpec* spec = keys_->Find(key);
  if (!spec) throw ScenarioError(key + ": unknown key (icnsim keys lists them)");
  YAML::Node node;
  try {
    node = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw ScenarioError(key + ": cannot parse '" + yaml_text + "': " + e.msg);
  }
  values_[key] = Convert(*spec, node);
  given_.insert(key);
}

std::string Scenario::ValueText(const std::string& key) const {
  const nlohmann::json& value = At(key);
  return value.is_string() ? value.get<std::string>() : value.dump();
}

void Scenario::CheckRules() const {
  for (const KeyRule& rule : keys_->rules()) {
    const std::string broken = rule.broken(*this);
    if (broken.empty()) continue;
    throw ScenarioError(rule.Listed() + ": " + broken + "; allowed: " + rule.allows);
  }
}

const nlohmann::json& Scenario::At(const std::string& key) const {
  const auto it = values_.find(key);
  if (it == values_.end()) throw ScenarioError(key + ": no such key");
  return it->second;
}

bool Scenario::Bool(const std::string& key) const { return At(key).get<bool>(); }
int64_t Scenario::Int(const std::string& key) const { return At(key).get<int64_t>(); }
double Scenario::Real(const std::string& key) const { return At(key).get<double>(); }
const std::string& Scenario::Text(const std::string& key) const {
  return At(key).get_ref<const std::string&>();
}
std::vector<int64_t> Scenario::IntList(const std::string& key) const {
  return At(key).get<std::vector<int64_t>>();
}

std::vector<std::pair<double, double>> Scenario::Points(const std::string& key) const {
  std::vector<std::pair<double, double>> points;
  for (const auto& point : At(key)) points.emplace_back(point[0].get<double>(), point[1].get<double>());
  return points;
}

nlohmann::json Scenario::ToJson() const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& entry : values_) {
    std::string pointer = "/" + entry.first;  // "a.b.c" -> "/a/b/c"
    for (auto& c : pointer) c = (c == '.') ? '/' : c;
    out[nlohmann::json::json_pointer(pointer)] = entry.second;
  }
  return out;
}

}  // namespace icn
