// SPDX-License-Identifier: Apache-2.0
// Flits and the packets they belong to. A flit names its packet by index into the PacketPool; the
// packet record carries what the sink checks (destination, next expected flit) and what the
// routers need (destination, torus direction and dateline class).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace icn {

struct Flit {
  uint64_t ready = 0;   // first cycle it may leave the buffer it sits in
  uint32_t packet = 0;  // index into the PacketPool
  uint16_t index = 0;   // position within the packet
  uint8_t vc = 0;       // VC it occupies on the channel it travels or the buffer it sits in
  uint8_t flags = 0;    // kHead | kTail
  static constexpr uint8_t kHead = 1;
  static constexpr uint8_t kTail = 2;
  bool head() const { return flags & kHead; }
  bool tail() const { return flags & kTail; }
};

struct Packet {
  uint64_t created = 0;   // cycle the source generated it
  uint64_t injected = 0;  // cycle its head left the source (the network latency starts there)
  int32_t src = 0;
  int32_t dst = 0;
  uint32_t flits = 0;
  uint32_t next_index = 0;        // sink: index of the next flit expected
  uint16_t hops = 0;              // routers traversed so far
  uint8_t vc_class = 0;           // torus: VC class in the current dimension (cube.cpp)
  int8_t dim = -1;                // torus: dimension of the last hop
  bool minus = false;             // torus: direction taken in that dimension
  uint32_t message = kNoMessage;  // workload message it belongs to
  static constexpr uint32_t kNoMessage = 0xffffffffu;
  bool measured = false;  // generated inside the measurement window
  bool live = false;
};

// Recycles packet records so long runs use memory proportional to packets in flight.
class PacketPool {
 public:
  uint32_t Allocate() {
    if (free_.empty()) {
      packets_.emplace_back();
      return static_cast<uint32_t>(packets_.size() - 1);
    }
    const uint32_t id = free_.back();
    free_.pop_back();
    return id;
  }
  void Release(uint32_t id) {
    packets_[id].live = false;
    free_.push_back(id);
  }
  Packet& operator[](uint32_t id) { return packets_[id]; }
  const Packet& operator[](uint32_t id) const { return packets_[id]; }
  size_t capacity() const { return packets_.size(); }

 private:
  std::vector<Packet> packets_;
  std::vector<uint32_t> free_;
};

}  // namespace icn
