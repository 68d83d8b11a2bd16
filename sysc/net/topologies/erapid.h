// SPDX-License-Identifier: Apache-2.0
// The shape of an E-RAPID network (topologies/erapid.cpp) for the code that steers its lasers.
#pragma once
#include "net/topology.h"

namespace icn {

struct ErapidShape {
  int boards = 8;
  int nodes_per_board = 8;
  int flit_bits = 128;  // an optical channel carries gbps / (flit_bits / cycle_ns) flits per cycle
  // Router port of laser (x, y) (wavelength x into board y's coupler) on any board.
  int LaserPort(int wavelength, int board) const { return nodes_per_board + wavelength * boards + board; }
  // Router port of receiver x on any board.
  int ReceiverPort(int wavelength) const { return nodes_per_board + boards * boards + wavelength; }
  // The board where laser (x, y) is lit statically: board s reaches d on wavelength (s - d) mod B.
  int StaticSource(int wavelength, int board) const { return (board + wavelength) % boards; }
  int StaticWavelength(int source, int board) const { return ((source - board) % boards + boards) % boards; }
};

// The shape of an E-RAPID topology; nullptr for any other.
const ErapidShape* ErapidShapeOf(const Topology& topology);

}  // namespace icn
