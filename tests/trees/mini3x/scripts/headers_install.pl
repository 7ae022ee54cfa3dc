#!/usr/bin/perl -w
# Stand-in for the kernel's 3.x scripts/headers_install.pl; never run.
# uapid applies that script's per-line edits itself (__user, __packed,
# inline, asm, volatile, <linux/compiler.h>) and tells the 3.8 form of
# its guard edits (s/#ifndef\s+_UAPI/#ifndef /) from the 3.7 one by the
# text here, then runs its own unifdef -U__KERNEL__ -D__EXPORTED_HEADERS__.
exit 1;
