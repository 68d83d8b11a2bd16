// SPDX-License-Identifier: Apache-2.0
// SystemC's library calls sc_main from its own main(); libFuzzer brings the main a fuzz target runs,
// so this one is never called. It only satisfies the linker.
extern "C" int sc_main(int, char**) { return 0; }
