// SPDX-License-Identifier: Apache-2.0
// Scenario: the values of every key a run accepts, filled from defaults, a YAML file and --set
// overrides, each validated once against its KeySpec. The keys themselves are declared by the
// layer that owns them (sim.* here, router.*/link.*/topology.* by the network, traffic.* and
// workload.* by the traffic layer, each mechanism its own) and gathered into one KeyTable by the
// run assembly. Values are kept as JSON so results.json records every parameter exactly as used.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
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
  const char* unit;                  // "" when the value has none
  const char* help;                  // one line
};

// Upper bound that reads as "no limit" in messages.
constexpr double kUnbounded = 1e15;

// Key declarations for the tables of each layer. Numbers and lists take inclusive bounds.
KeySpec BoolKey(const char* name, const char* default_value, const char* help);
KeySpec IntKey(const char* name, const char* default_value, double min, double max, const char* unit,
               const char* help);
KeySpec RealKey(const char* name, const char* default_value, double min, double max, const char* unit,
                const char* help);
KeySpec ChoiceKey(const char* name, const char* default_value, std::vector<std::string> choices,
                  const char* help);
KeySpec TextKey(const char* name, const char* default_value, const char* help);
KeySpec IntListKey(const char* name, const char* default_value, double min, double max, const char* unit,
                   const char* help);
// [cycle, load] points with the load in [min, max].
KeySpec PointListKey(const char* name, const char* default_value, double min, double max, const char* help);

// "an integer in [1, 16]", "one of {off, fast_wake}": what a key accepts, as errors state it.
std::string AllowedValues(const KeySpec& spec);

class Scenario;

// A rule between keys that no key's own range can state, checked once every key has its value.
struct KeyRule {
  // The keys it ties, as its error names them ("photonic.*": every key under photonic.).
  std::vector<std::string> keys;
  std::string allows;  // what it allows, as errors and `icnsim keys` state it
  // What in these values breaks the rule ("b_con = 0.2 is below b_max = 0.3"), or "" if none does.
  std::function<std::string(const Scenario&)> broken;
  bool Ties(const std::string& key) const;
  std::string Listed() const;  // its keys, comma-separated
};

// Every key of a run, in documentation order; names are unique.
class KeyTable {
 public:
  // Throws std::logic_error when two specs share a name, a default breaks its own spec or a rule
  // names no key (programming errors, not bad input).
  explicit KeyTable(std::vector<KeySpec> keys, std::vector<KeyRule> rules = {});
  const std::vector<KeySpec>& all() const { return keys_; }
  const std::vector<KeyRule>& rules() const { return rules_; }
  const KeySpec* Find(const std::string& name) const;
  // Every key's default, converted once: a scenario starts from a copy, not from YAML again.
  const std::map<std::string, nlohmann::json>& defaults() const { return defaults_; }

 private:
  std::vector<KeySpec> keys_;
  std::vector<KeyRule> rules_;
  std::unordered_map<std::string, size_t> index_;
  std::map<std::string, nlohmann::json> defaults_;
};

class Scenario {
 public:
  // Defaults only.
  explicit Scenario(const KeyTable& keys);
  // Defaults, then the file, then each "key=value" in order. Throws ScenarioError.
  static Scenario Load(const KeyTable& keys, const std::string& path, const std::vector<std::string>& sets);
  // The same from the text of a scenario; `origin` names it in messages.
  static Scenario Parse(const KeyTable& keys, const std::string& text, const std::string& origin,
                        const std::vector<std::string>& sets);
  // The first sentence of a scenario file's `description` ("" if it has none or cannot be read).
  static std::string Summary(const std::string& path);

  // Sets one key from YAML text (e.g. "0.3", "[8, 8]"), validating type and range.
  void Set(const std::string& key, const std::string& yaml_text);
  // The keys the file or a --set gave a value (the others have their defaults).
  const std::set<std::string>& given() const { return given_; }
  // A value as text ("0.3", "fast_wake", "[4,4]"), and "key = value" as a message shows it.
  std::string ValueText(const std::string& key) const;
  std::string Show(const std::string& key) const { return key + " = " + ValueText(key); }
  // Throws ScenarioError naming the keys and what they allow at the first rule the values break.
  void CheckRules() const;

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
  const KeyTable* keys_;
  std::string name_ = "unnamed";
  std::map<std::string, nlohmann::json> values_;
  std::set<std::string> given_;
};

}  // namespace icn
