// SPDX-License-Identifier: Apache-2.0
#include "traffic/pattern.h"

#include <cmath>

#include "core/errors.h"

namespace icn {

Pattern::Pattern(const std::string& name, std::vector<int> dims, std::vector<int> hot, double hot_fraction)
    : dims_(std::move(dims)), hot_(std::move(hot)), hot_fraction_(hot_fraction) {
  static const std::pair<const char*, Kind> kNames[] = {
      {"uniform", Kind::kUniform},     {"complement", Kind::kComplement},
      {"butterfly", Kind::kButterfly}, {"perfect_shuffle", Kind::kShuffle},
      {"transpose", Kind::kTranspose}, {"bit_reverse", Kind::kBitReverse},
      {"tornado", Kind::kTornado},     {"hotspot", Kind::kHotspot},
      {"neighbor", Kind::kNeighbor}};
  bool found = false;
  for (const auto& [text, kind] : kNames) {
    if (name == text) {
      kind_ = kind;
      found = true;
    }
  }
  if (!found) throw ScenarioError("traffic.pattern: unknown pattern '" + name + "'");
  nodes_ = 1;
  for (int d : dims_) nodes_ *= d;
  while ((1 << bits_) < nodes_) ++bits_;
}

int Pattern::PerDimension(int src, bool tornado) const {
  int dst = 0;
  int stride = 1;
  for (int k : dims_) {
    const int coord = src / stride % k;
    const int shift = tornado ? (k + 1) / 2 - 1 : 1;
    dst += (coord + shift) % k * stride;
    stride *= k;
  }
  return dst;
}

int Pattern::Destination(int src, Rng& rng) const {
  const int mask = nodes_ - 1;
  switch (kind_) {
    case Kind::kUniform: {
      if (nodes_ == 1) return src;
      const int dst = static_cast<int>(rng.Below(nodes_ - 1));
      return dst >= src ? dst + 1 : dst;  // never itself
    }
    case Kind::kComplement:
      return ~src & mask;
    case Kind::kButterfly: {
      const int msb = (src >> (bits_ - 1)) & 1;
      const int lsb = src & 1;
      int dst = src & ~(1 << (bits_ - 1)) & ~1;
      return dst | (lsb << (bits_ - 1)) | msb;
    }
    case Kind::kShuffle:
      return ((src << 1) | (src >> (bits_ - 1))) & mask;
    case Kind::kBitReverse: {
      int dst = 0;
      for (int b = 0; b < bits_; ++b) dst |= ((src >> b) & 1) << (bits_ - 1 - b);
      return dst;
    }
    case Kind::kTranspose: {
      const int side = static_cast<int>(std::lround(std::sqrt(nodes_)));
      return (src % side) * side + src / side;
    }
    case Kind::kTornado:
      return PerDimension(src, true);
    case Kind::kNeighbor:
      return PerDimension(src, false);
    case Kind::kHotspot:
      if (rng.Uniform() < hot_fraction_) return hot_[rng.Below(static_cast<uint32_t>(hot_.size()))];
      return static_cast<int>(rng.Below(nodes_));
  }
  return src;
}

}  // namespace icn
