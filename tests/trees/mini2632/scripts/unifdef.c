/*
 * Stand-in for the kernel's 2.6.32 scripts/unifdef.c; never built.  uapid
 * tells which unifdef a tree builds by its version line and, for 1.171, by
 * the line of the kernel's boolean patch, then selects as that one does.
 */
static const char id[] = "$dotat: things/unifdef.c,v 1.171 2005/03/08 12:38:48 fanf2 Exp $";
/* eval_table: lhs = ops->inner(ops+1, valp, &cp); */
