/*
 * Stand-in for the kernel's 3.6 scripts/unifdef.c; never built.  uapid
 * tells which unifdef a tree builds by its version line.
 */
const char copyright[] = "@(#) $Version: unifdef-2.5 $\n";
