// Scenario: every key a run accepts, with its type, default and allowed range, filled from a YAML
// file and --set overrides and validated once. Values are kept as JSON so results.json can record
// every parameter after defaults exactly as the run used it.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace icn {

enum class KeyType { kBool, kInt, kReal, kChoice, kText, kIntList, kPointList };

struct KeySpec {
  const char* name;
  KeyType type;
  const char* default_value;  // YAML text
  double min;                 // inclusive bounds for numbers and list elements
  double max;
  std::vector<std::string> choices;  // kChoice only
  const char* help;
};

// The table of every key, in documentation order.
const std::vector<KeySpec>& AllKeys();
const KeySpec* FindKey(const std::string& name);

class Scenario {
 public:
  // Defaults only.
  Scenario();
  // Defaults, then the file, then each "key=value" in order. Throws ScenarioError.
  static Scenario Load(const std::string& path, const std::vector<std::string>& sets);

  // Sets one key from YAML text (e.g. "0.3", "[8, 8]"), validating type and range.
  void Set(const std::string& key, const std::string& yaml_text);

  bool Bool(const std::string& key) const;
  int64_t Int(const std::string& key) const;
  double Real(const std::string& key) const;
  const std::string& Text(const std::string& key) const;
  std::vector<int64_t> IntList(const std::string& key) const;
  std::vector<std::pair<double, double>> Points(const std::string& key) const;

  const std::string& name() const { return name_; }
  void set_name(const std::string& name) { name_ = name; }
  // Every key after defaults, nested by its dotted path.
  nlohmann::json ToJson() const;

 private:
  const nlohmann::json& At(const std::string& key) const;
  std::string name_ = "unnamed";
  std::map<std::string, nlohmann::json> values_;
};

}  // namespace icn
