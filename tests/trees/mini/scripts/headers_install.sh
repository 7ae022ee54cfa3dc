#!/bin/sh
# Only the part uapid reads: the grandfathered CONFIG_ leaks.
config_leak_ignores="
include/uapi/linux/mini_old.h:CONFIG_MINI_LEGACY
"
