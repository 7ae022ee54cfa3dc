#!/bin/sh
# Stand-in for the kernel's scripts/headers_install.sh; never run.  uapid
# checks that it is the script it reproduces (its sed edits of
# __attribute_const__ and the _UAPI guards, then
# unifdef -U__KERNEL__ -D__EXPORTED_HEADERS__) and reads the
# grandfathered CONFIG_ leaks.
config_leak_ignores="
include/uapi/linux/mini_old.h:CONFIG_MINI_LEGACY
"
