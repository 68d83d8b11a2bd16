// SPDX-License-Identifier: Apache-2.0
// What the photonic data plane asks of a switch's control plane, and the answer: the words of
// rtl/photonic/photonic_msg.svh. The control plane behind this interface is the verilated
// photonic_switch_ctrl (sysc/mech/photonic/); tests put its C++ reference model there too.
#pragma once
#include <cstdint>

namespace icn {

enum class PhotonicReq : uint8_t { kNone, kReserve, kWalkBack, kConfirm, kTeardown };
enum class PhotonicRsp : uint8_t { kNone, kGranted, kBuffered, kFailed, kDone, kError };
enum class PhotonicMode : uint8_t { kCircuit, kPacketised, kSegment };

struct SwitchRequest {
  PhotonicReq kind = PhotonicReq::kNone;
  uint8_t in_port = 0;  // where the circuit enters the switch; the buffer port is the switch's port count
  uint8_t in_ch = 0;
  uint32_t candidates = 0;  // reserve: bit p = the route allows output p
  bool segment_source = false;
};

struct SwitchAnswer {
  PhotonicRsp kind = PhotonicRsp::kNone;
  uint8_t out_port = 0;
  uint8_t out_ch = 0;
};

class SwitchControl {
 public:
  virtual ~SwitchControl() = default;
  // Switch `sw` handles one request on the edge closing the current cycle (a second request of
  // the cycle on the next edge: the control plane runs faster than the data plane).
  // Close(sw): no more requests for `sw` this cycle. Calls for different switches may come at once
  // from different threads; `lane` is the index, in the run's thread team, of the member whose
  // share the switch is (the run's thread makes the calls of every share when one alone has
  // requests), so calls with different lanes never run on one thread at once.
  virtual SwitchAnswer Handle(int sw, const SwitchRequest& request, int lane) = 0;
  virtual void Close(int sw, int lane) = 0;
  // Entries of switch `sw`'s buffer reserved or holding a packet; channels its tables hold.
  virtual uint32_t SlotsUsed(int sw) const = 0;
  virtual int HeldChannels(int sw) const = 0;
};

}  // namespace icn
