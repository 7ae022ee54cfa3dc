/*
 * Stand-in for the kernel's 2.6.35 scripts/unifdef.c; never built.  uapid
 * tells which unifdef a tree builds by its version line.
 */
static const char id[] = "$dotat: unifdef/unifdef.c,v 1.190 2009/11/27 17:21:26 fanf2 Exp $";
