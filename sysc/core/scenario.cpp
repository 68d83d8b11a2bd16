#include "core/scenario.h"

#include <cmath>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "core/errors.h"

namespace icn {
namespace {

constexpr double kBig = 1e15;

std::string Range(const KeySpec& spec) {
  std::ostringstream out;
  if (spec.type == KeyType::kBool) return "true or false";
  if (spec.type == KeyType::kText) return "any text";
  if (spec.type == KeyType::kChoice) {
    out << "one of {";
    for (size_t i = 0; i < spec.choices.size(); ++i) out << (i ? ", " : "") << spec.choices[i];
    out << "}";
    return out.str();
  }
  out << "[" << spec.min << ", " << (spec.max >= kBig ? std::string("inf") : [&] {
    std::ostringstream m;
    m << spec.max;
    return m.str();
  }()) << "]";
  if (spec.type == KeyType::kIntList) return "a list of integers in " + out.str();
  if (spec.type == KeyType::kPointList) return "a list of [cycle, load] pairs with load in " + out.str();
  return (spec.type == KeyType::kInt ? "an integer in " : "a number in ") + out.str();
}

[[noreturn]] void Fail(const KeySpec& spec, const std::string& what) {
  throw ScenarioError(std::string(spec.name) + ": " + what + "; allowed: " + Range(spec));
}

double ParseNumber(const KeySpec& spec, const YAML::Node& node, bool integer) {
  if (!node.IsScalar()) Fail(spec, "expected a number");
  const std::string text = node.Scalar();
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || !std::isfinite(value)) {
    Fail(spec, "'" + text + "' is not " + (integer ? "an integer" : "a number"));
  }
  if (integer && value != std::floor(value)) Fail(spec, "'" + text + "' is not an integer");
  if (value < spec.min || value > spec.max) Fail(spec, text + " is out of range");
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
      return static_cast<int64_t>(ParseNumber(spec, node, true));
    case KeyType::kReal:
      return ParseNumber(spec, node, false);
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
      for (const auto& item : node) list.push_back(static_cast<int64_t>(ParseNumber(spec, item, true)));
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
        cycle_spec.max = kBig;
        const double cycle = ParseNumber(cycle_spec, item[0], true);
        if (cycle <= last_cycle) Fail(spec, "cycles must increase from point to point");
        last_cycle = cycle;
        list.push_back({cycle, ParseNumber(spec, item[1], false)});
      }
      return list;
    }
  }
  Fail(spec, "unsupported key type");
}

void Flatten(const YAML::Node& node, const std::string& prefix, std::vector<std::pair<std::string, YAML::Node>>& out) {
  for (const auto& item : node) {
    const std::string key = prefix.empty() ? item.first.as<std::string>() : prefix + "." + item.first.as<std::string>();
    if (item.second.IsMap() && !FindKey(key)) {
      Flatten(item.second, key, out);
    } else {
      out.emplace_back(key, item.second);
    }
  }
}

}  // namespace

const std::vector<KeySpec>& AllKeys() {
  static const std::vector<KeySpec> keys = {
      {"topology.kind", KeyType::kChoice, "kary_ntree", 0, 0, {"kary_ntree", "torus", "mesh", "megafly"},
       "network topology"},
      {"topology.k", KeyType::kInt, "4", 2, 64, {}, "switch arity (tree) or nodes per dimension (cube)"},
      {"topology.n", KeyType::kInt, "3", 1, 8, {}, "tree levels, or cube dimensions (2 or 3)"},
      {"topology.dims", KeyType::kIntList, "[]", 2, 64, {},
       "torus/mesh nodes per dimension, overrides k and n (2 or 3 entries)"},
      {"topology.megafly.groups", KeyType::kInt, "9", 2, 1024, {}, "Megafly: groups (groups - 1 = spines x global)"},
      {"topology.megafly.leaves", KeyType::kInt, "4", 1, 64, {}, "Megafly: leaf switches per group"},
      {"topology.megafly.spines", KeyType::kInt, "4", 1, 64, {}, "Megafly: spine switches per group"},
      {"topology.megafly.nodes_per_leaf", KeyType::kInt, "4", 1, 64, {}, "Megafly: nodes per leaf switch"},
      {"topology.megafly.global_per_spine", KeyType::kInt, "2", 1, 64, {}, "Megafly: global ports per spine"},
      {"router.vcs", KeyType::kInt, "3", 1, 16, {}, "virtual channels per port (torus needs >= 2)"},
      {"router.vc_buffer_flits", KeyType::kInt, "4", 1, 4096, {}, "input buffer depth per VC"},
      {"router.pipeline_cycles", KeyType::kInt, "2", 1, 64, {}, "router latency of a flit at zero load"},
      {"router.output_queue_flits", KeyType::kInt, "0", 0, 1 << 20, {},
       "CIOQ output queue depth per VC (0 = input-queued router)"},
      {"router.speedup", KeyType::kReal, "1", 1, 8, {}, "crossbar speed-up of a CIOQ router"},
      {"link.latency_cycles", KeyType::kInt, "1", 1, 255, {}, "one-way link latency"},
      {"link.bandwidth_flits", KeyType::kReal, "1", 0.001, 1, {}, "flits per cycle per link"},
      {"traffic.pattern", KeyType::kChoice, "uniform", 0, 0,
       {"uniform", "complement", "butterfly", "perfect_shuffle", "transpose", "bit_reverse", "tornado",
        "hotspot", "neighbor"},
       "destination pattern"},
      {"traffic.load", KeyType::kReal, "0.1", 0, 1, {}, "offered load in flits/node/cycle"},
      {"traffic.packet_flits", KeyType::kInt, "16", 1, 65536, {}, "packet length"},
      {"traffic.profile", KeyType::kChoice, "constant", 0, 0, {"constant", "ramp", "bursts"},
       "how the load varies in time"},
      {"traffic.ramp", KeyType::kPointList, "[]", 0, 1, {},
       "ramp profile: [cycle, load] points, linear between them, constant after the last"},
      {"traffic.burst_on_cycles", KeyType::kInt, "1000", 1, kBig, {}, "bursts profile: cycles at traffic.load"},
      {"traffic.burst_off_cycles", KeyType::kInt, "1000", 0, kBig, {}, "bursts profile: silent cycles"},
      {"traffic.hotspot_nodes", KeyType::kIntList, "[0]", 0, 1 << 24, {}, "hotspot pattern: hot nodes"},
      {"traffic.hotspot_fraction", KeyType::kReal, "0.2", 0, 1, {},
       "hotspot pattern: share of packets sent to a hot node"},
      {"sim.seed", KeyType::kInt, "1", 0, 9.0e15, {}, "random seed"},
      {"sim.cycle_ns", KeyType::kReal, "1", 1e-6, 1e6, {}, "length of one cycle"},
      {"sim.warmup_cycles", KeyType::kInt, "2000", 0, kBig, {}, "cycles before measurement"},
      {"sim.measure_cycles", KeyType::kInt, "10000", 1, kBig, {}, "measurement window"},
      {"sim.drain_limit_cycles", KeyType::kInt, "100000", 0, kBig, {},
       "cycles after the window to deliver labelled packets before the run is called saturated"},
      {"sim.timeseries_cycles", KeyType::kInt, "0", 0, kBig, {}, "window of timeseries.csv (0 = none)"},
      {"eee.mode", KeyType::kChoice, "off", 0, 0, {"off", "fast_wake", "deep_sleep"}, "EEE low-power idle"},
      {"eee.pdt_ns", KeyType::kReal, "1000", 0, kBig, {},
       "power-down threshold (2^32-1 cycles or more = never)"},
      {"eee.policy", KeyType::kChoice, "fixed", 0, 0, {"fixed", "perfbound", "perfbound_correct"},
       "how each port chooses t_PDT: eee.pdt_ns, PerfBound, or PerfBound with the correction"},
      {"eee.bound", KeyType::kReal, "0.01", 1e-4, 0.5, {}, "PerfBound performance bound (0.01 = 1 %)"},
      {"eee.perfbound.period_ns", KeyType::kReal, "1000000", 1, 1e12, {},
       "PerfBound period X: t_PDT is recomputed every X, allowing l X / t_w delayed packets"},
      {"eee.hist.strategy", KeyType::kChoice, "self_clearing", 0, 0, {"self_clearing", "sliding", "unbounded"},
       "PerfBound idle-period histogram: cleared after h_maxN values, last h_maxN values, or never cleared"},
      {"eee.wake_power_w", KeyType::kReal, "24", 0, 1e6, {}, "port power awake and in transitions"},
      {"eee.fast_wake.power_w", KeyType::kReal, "9.6", 0, 1e6, {}, "port power in fast-wake LPI"},
      {"eee.fast_wake.t_wake_ns", KeyType::kReal, "375", 0, kBig, {}, "fast-wake t_w"},
      {"eee.fast_wake.t_sleep_ns", KeyType::kReal, "200", 0, kBig, {}, "fast-wake t_s"},
      {"eee.deep_sleep.power_w", KeyType::kReal, "2.4", 0, 1e6, {}, "port power in deep-sleep LPI"},
      {"eee.deep_sleep.t_wake_ns", KeyType::kReal, "4480", 0, kBig, {}, "deep-sleep t_w"},
      {"eee.deep_sleep.t_sleep_ns", KeyType::kReal, "2000", 0, kBig, {}, "deep-sleep t_s"},
      {"workload.kind", KeyType::kChoice, "none", 0, 0,
       {"none", "bsp_allreduce", "silent_bursts", "small_collectives", "layered_allreduce", "trace"},
       "MPI-like workload instead of traffic.*: a preset, or replay workload.trace"},
      {"workload.trace", KeyType::kText, "''", 0, 0, {}, "trace file to replay (workload.kind = trace)"},
      {"workload.iterations", KeyType::kInt, "0", 0, 1e6, {}, "preset iterations (0 = the preset's own)"},
      {"workload.compute_scale", KeyType::kReal, "1", 0, 1e6, {}, "multiplies every compute gap of a preset"},
      {"workload.mtu_bytes", KeyType::kInt, "9600", 1, 1 << 24, {}, "largest packet"},
      {"workload.flit_bytes", KeyType::kInt, "1600", 1, 1 << 24, {},
       "bytes a link carries per cycle (400 Gb/s x 32 ns = 1600 B)"},
      {"workload.max_cycles", KeyType::kInt, "100000000", 1, kBig, {},
       "a workload not finished after this many cycles ends the run as saturated"},
      {"fattree_onoff.enabled", KeyType::kBool, "false", 0, 0, {}, "on/off links with a Minimal Tree (k-ary n-tree)"},
      {"fattree_onoff.u_off", KeyType::kReal, "0.3", 0, 1, {}, "turn an up link off below this utilisation"},
      {"fattree_onoff.u_on", KeyType::kReal, "0.65", 0, 1, {}, "turn an up link on above this utilisation"},
      {"fattree_onoff.check_cycles", KeyType::kInt, "2000", 1, 65535, {}, "check period of the thresholds"},
      {"fattree_onoff.t_on_cycles", KeyType::kInt, "1000", 0, 65535, {}, "a link carries flits this long after turning on"},
      {"fattree_onoff.t_off_cycles", KeyType::kInt, "1000", 0, 65535, {}, "a link draws power this long after turning off"},
      {"fattree_onoff.link_power_w", KeyType::kReal, "1", 0, 1e6, {}, "power of one unidirectional link when powered"},
  };
  return keys;
}

const KeySpec* FindKey(const std::string& name) {
  for (const auto& spec : AllKeys()) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

Scenario::Scenario() {
  for (const auto& spec : AllKeys()) values_[spec.name] = Convert(spec, YAML::Load(spec.default_value));
}

Scenario Scenario::Load(const std::string& path, const std::vector<std::string>& sets) {
  Scenario scenario;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw ScenarioError(path + ": cannot open the scenario file");
  } catch (const YAML::Exception& e) {
    throw ScenarioError(path + ": line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (!root.IsMap()) throw ScenarioError(path + ": a scenario is a map of keys");
  std::vector<std::pair<std::string, YAML::Node>> items;
  Flatten(root, "", items);
  for (const auto& [key, node] : items) {
    if (key == "name") {
      scenario.name_ = node.as<std::string>();
    } else if (key == "description") {
      continue;
    } else {
      const KeySpec* spec = FindKey(key);
      if (!spec) throw ScenarioError(key + ": unknown key in " + path + " (icnsim keys lists them)");
      scenario.values_[key] = Convert(*spec, node);
    }
  }
  for (const auto& assignment : sets) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos) throw ScenarioError("--set " + assignment + ": expected key=value");
    scenario.Set(assignment.substr(0, eq), assignment.substr(eq + 1));
  }
  return scenario;
}

void Scenario::Set(const std::string& key, const std::string& yaml_text) {
  const KeySpec* spec = FindKey(key);
  if (!spec) throw ScenarioError(key + ": unknown key (icnsim keys lists them)");
  YAML::Node node;
  try {
    node = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw ScenarioError(key + ": cannot parse '" + yaml_text + "': " + e.msg);
  }
  values_[key] = Convert(*spec, node);
}

const nlohmann::json& Scenario::At(const std::string& key) const {
  const auto it = values_.find(key);
  if (it == values_.end()) throw ScenarioError(key + ": no such key");
  return it->second;
}

bool Scenario::Bool(const std::string& key) const { return At(key).get<bool>(); }
int64_t Scenario::Int(const std::string& key) const { return At(key).get<int64_t>(); }
double Scenario::Real(const std::string& key) const { return At(key).get<double>(); }
const std::string& Scenario::Text(const std::string& key) const { return At(key).get_ref<const std::string&>(); }
std::vector<int64_t> Scenario::IntList(const std::string& key) const { return At(key).get<std::vector<int64_t>>(); }

std::vector<std::pair<double, double>> Scenario::Points(const std::string& key) const {
  std::vector<std::pair<double, double>> points;
  for (const auto& point : At(key)) points.emplace_back(point[0].get<double>(), point[1].get<double>());
  return points;
}

nlohmann::json Scenario::ToJson() const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : values_) out[nlohmann::json::json_pointer("/" + [&] {
        std::string path = key;
        for (auto& c : path) c = (c == '.') ? '/' : c;
        return path;
      }())] = value;
  return out;
}

}  // namespace icn
