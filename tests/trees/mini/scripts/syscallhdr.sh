#!/bin/sh
# Stand-in for the kernel's scripts/syscallhdr.sh; never run.  uapid
# writes the header itself and only checks that the tree's script is the
# generator it knows:
#   syscallhdr.sh [--abis ABIS] [--emit-nr] [--offset OFFSET] [--prefix PREFIX] INFILE OUTFILE
# (guard=_UAPI_ASM_ + OUTFILE's name, upper-cased).
exit 1
