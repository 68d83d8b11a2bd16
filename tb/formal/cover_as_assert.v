// Yosys techmap rule (scripts/formal.py): a cover statement becomes an assertion that fails exactly
// where the cover is reached, so that ABC's bounded search of the AIGER netlist (where a failing
// assertion is an output) finds each cover's first step as it finds a failure.
(* techmap_celltype = "$cover" *)
module cover_as_assert (A, EN);
  input A, EN;
  wire not_a;
  \$_NOT_ invert (.A(A), .Y(not_a));
  \$assert _TECHMAP_REPLACE_ (.A(not_a), .EN(EN));
endmodule
// SPDX-License-Identifier: Apache-2.0
