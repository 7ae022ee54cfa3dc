#!/bin/sh
# Stand-in for the kernel's 3.x arch/x86/syscalls/syscallhdr.sh; never
# run.  uapid writes the header itself (IN OUT ABIS PREFIX OFFSET: the
# selected lines through sort -n, fileguard=_ASM_X86_ + OUT's name) and
# only checks that this is the generator it knows.
exit 1
