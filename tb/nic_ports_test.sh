#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tb/systemc/nic_ports_test.cpp on 1 and 2 threads: each passes its own checks, and both print the
# same digest of every node's deliveries.
#   tb/nic_ports_test.sh NIC_PORTS_TEST
set -euo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
one=$("$1" 1)
two=$("$1" 2 2> "$log") || { cat "$log"; exit 1; }
grep -q "nic_ports_test: 2 network threads" "$log" || { cat "$log"; echo "nic_ports_test: not on 2 threads" >&2; exit 1; }
echo "1 thread:  $one"
echo "2 threads: $two"
[ "$one" = "$two" ] || { echo "nic_ports_test: the deliveries differ between 1 and 2 threads" >&2; exit 1; }
