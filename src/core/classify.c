// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Classifier (see classify.h).
 *
 * Three passes over the conditional groups, all iterative because groups
 * are stored parents-first:
 *
 *  1. decide each group's kind (guard, include-order check, kernel-only,
 *     user-only, retained, ordinary) from its directives and the markers;
 *  2. bottom-up, the "kernel mark" of the 2012 scripts: bit 1 kernel-only
 *     group, 2 user-only group, 4 holds kernel-side content, 8 holds
 *     uapi-side content; an ordinary group that encloses __KERNEL__ content
 *     gets 4|8 so its directives appear on both sides;
 *  3. top-down, the mark each body is rendered with, and from it where
 *     every line goes and how to describe it.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "uapid/util/hash.h"
#include "uapid/util/buf.h"
#include "uapid/core/classify.h"
#include "uapid/util/xmalloc.h"

#include "frame.h"

#define KM_KO 1 /* #ifdef __KERNEL__ group */
#define KM_UO 2 /* #ifndef __KERNEL__ group */
#define KM_IK 4 /* content for the kernel header */
#define KM_IU 8 /* content for the uapi header */
#define KM_ALL 15

enum group_kind {
	GK_ORDINARY,	   /* no __KERNEL__ in its own directives */
	GK_GUARD,	   /* the include guard */
	GK_ORDER_CHECK,	   /* #ifndef X / #error / #endif at top level */
	GK_KERNEL_ONLY,	   /* #ifdef __KERNEL__ and equivalents */
	GK_USER_ONLY,	   /* #ifndef __KERNEL__ and equivalents */
	GK_RETAINED,	   /* mentions __KERNEL__ but is kept unsplit */
	GK_FORCE_KERNEL,   /* marker "kernel": whole group to the kernel header */
	GK_SPLIT_COMPOUND, /* marker "split-compound" */
};

static const char *const class_names[] = {
	[UD_CLASS_BANNER] = "banner",  [UD_CLASS_GUARD] = "guard",
	[UD_CLASS_UAPI] = "uapi",      [UD_CLASS_KERNEL] = "kernel",
	[UD_CLASS_USER] = "user-only", [UD_CLASS_RETAINED] = "retained",
};
static_assert(ARRAY_SIZE(class_names) == UD_CLASS__COUNT,
	      "class_names must name every enum ud_class member");

static const char R_BANNER[] = "leading comment block, copied to both headers";
static const char R_GUARD[] = "include guard (the uapi header gets the _UAPI name)";
static const char R_ORDER[] = "include-order check, goes to the uapi header";
static const char R_SHARED[] = "shared with userspace";
static const char R_OUTSIDE[] = "outside the include guard, goes to the uapi header";
static const char R_KERNEL[] = "under #ifdef __KERNEL__";
static const char R_KERNEL_ELSE[] = "#else branch of #ifndef __KERNEL__";
static const char R_KDIR[] = "__KERNEL__ directive, removed by the split";
static const char R_USER[] = "under #ifndef __KERNEL__, kept conditional in the uapi header";
static const char R_USER_ELSE[] =
	"#else branch of #ifdef __KERNEL__, kept under #ifndef __KERNEL__ in the uapi header";
static const char R_TO_IFNDEF[] =
	"#ifdef __KERNEL__ with an #else, becomes #ifndef __KERNEL__ in the uapi header";
static const char R_UDIR[] = "#ifndef __KERNEL__ directive, kept in the uapi header";
static const char R_BOTH[] = "conditional around kernel-only content, kept on both sides";
static const char R_SHELL[] =
	"conditional inside one around kernel-only content: its body goes to the uapi header, its directives to both";
static const char R_MARKER[] = "coaching marker: the uapi #include goes here";
static const char R_COMPOUND[] = "compound __KERNEL__ condition, kept as it is";
static const char R_CONSTRUCT[] = "__KERNEL__ conditional inside a C construct, kept as it is";
static const char R_RETAIN[] = "retained by a coaching marker";
static const char R_FORCE_K[] = "kernel-only by a coaching marker";
static const char R_SPLIT_C[] = "compound __KERNEL__ condition split by a coaching marker";

struct classify_ctx {
	struct ud_classified *c;
	const struct ud_marker *const *markers;
	size_t nmarkers;
	unsigned char *kind;	    /* per group: enum group_kind */
	unsigned *km;		    /* per group: kernel mark */
	unsigned **clause_k;	    /* per group, per clause: children's marks */
	unsigned **body_mark;	    /* per group, per clause: render mark of the body */
	const char **retain_reason; /* per group: why retained (self or ancestor) */
	bool *anc_user;		    /* per group: some enclosing body is user-only */
	long *user_clause;	    /* per group: its user-only clause, or -1 */
	long *kernel_clause;	    /* per group: its kernel-only clause, or -1 */
};

const char *
ud_class_name(enum ud_class cls)
{
	assert(cls < UD_CLASS__COUNT);
	return class_names[cls];
}

/*
 * Counts, for each marker, how often its selector text has been seen up to
 * and including line li; returns the marker that selects exactly line li.
 */
static const struct ud_marker *
select_marker(struct classify_ctx *x, size_t li, unsigned *seen)
{
	const struct ud_line *l = &x->c->lx.lines[li];
	const struct ud_marker *hit = NULL;
	char *norm;
	size_t i;

	if (l->dir == UD_DIR_NONE || x->nmarkers == 0)
		return NULL;
	norm = ud_selector_normalize(l->dtext);
	for (i = 0; i < x->nmarkers; i++) {
		const struct ud_marker *m = x->markers[i];

		if (m->selector == NULL)
			continue;
		if (strcmp(norm, m->selector) == 0 && ++seen[i] == m->occurrence) {
			x->c->marker_hits[i]++;
			if (hit == NULL)
				hit = m;
		}
	}
	free(norm);
	return hit;
}

/* Removes the "defined(__KERNEL__)" conjunct from a top-level && chain. */
static const char *
strip_kernel_conjunct(struct ud_arena *a, const char *expr)
{
	struct ud_buf out = UD_BUF_INIT;
	const char *p = expr, *start = expr;
	int level = 0;
	bool removed = false, first = true;
	const char *res;

	for (;; p++) {
		if (*p == '(')
			level++;
		else if (*p == ')')
			level--;
		if (*p == '\0' || (level == 0 && p[0] == '&' && p[1] == '&')) {
			size_t n = (size_t)(p - start);
			char *part = ud_xstrndup(start, n);
			char *norm = ud_selector_normalize(part);
			/* norm has a leading '#' from the normaliser; skip it */
			const char *w = norm + 1;

			if (!removed && (strcmp(w, "defined(__KERNEL__)") == 0 ||
					 strcmp(w, "defined __KERNEL__") == 0 ||
					 strcmp(w, "defined( __KERNEL__ )") == 0)) {
				removed = true;
			} else {
				if (!first)
					ud_buf_addstr(&out, " && ");
				ud_buf_addstr(&out, w);
				first = false;
			}
			free(part);
			free(norm);
			if (*p == '\0')
				break;
			p++;
			start = p + 1;
		}
		if (level < 0)
			break;
	}
	res = removed && out.len > 0 ? ud_arena_strndup(a, ud_buf_str(&out), out.len) : NULL;
	ud_buf_free(&out);
	return res;
}

/* Pass 1: what each group is. */
static void
decide_kinds(struct classify_ctx *x)
{
	struct ud_classified *c = x->c;
	const struct ud_lexed *lx = &c->lx;
	unsigned *seen = ud_xcalloc(x->nmarkers ? x->nmarkers : 1, sizeof(unsigned));
	size_t li;
	long gi;

	for (gi = 0; gi < (long)c->cond.ngroups; gi++)
		x->kind[gi] = GK_ORDINARY;

	/* markers on directives, in line order so occurrences count right */
	for (li = 0; li < lx->nlines; li++) {
		const struct ud_marker *m = select_marker(x, li, seen);
		long g = c->cond.line_group[li];

		if (m == NULL)
			continue;
		if (m->action == UD_MARK_INCLUDE_HERE) {
			if (c->include_marked)
				ud_diags_add(&c->diags, lx->lines[li].first, UD_SEV_ERROR,
					     "more than one place given for the uapi #include");
			c->include_after = li;
			c->include_marked = true;
			continue;
		}
		if (g < 0 || c->cond.groups[g].if_line != li) {
			ud_diags_add(&c->diags, lx->lines[li].first, UD_SEV_ERROR,
				     "marker '%s' selects a line that does not open a conditional",
				     ud_marker_action_name(m->action));
			continue;
		}
		switch (m->action) {
		case UD_MARK_RETAIN:
		case UD_MARK_UAPI:
			x->kind[g] = GK_RETAINED;
			x->retain_reason[g] = R_RETAIN;
			break;
		case UD_MARK_KERNEL:
			x->kind[g] = GK_FORCE_KERNEL;
			break;
		case UD_MARK_SPLIT_COMPOUND: {
			const struct ud_group *gr = &c->cond.groups[g];
			const char *rest =
				lx->lines[li].dir == UD_DIR_IF
					? strip_kernel_conjunct(&c->lx.arena, lx->lines[li].arg)
					: NULL;

			if (rest == NULL || gr->nclauses != 1 ||
			    gr->clauses[0].when_user != UD_FALSE) {
				ud_diags_add(
					&c->diags, lx->lines[li].first, UD_SEV_ERROR,
					"split-compound needs '#if defined(__KERNEL__) && X' with no #else or #elif");
				break;
			}
			x->kind[g] = GK_SPLIT_COMPOUND;
			c->compound_rest = rest; /* one per file is all upstream ever needed */
			break;
		}
		default:
			break;
		}
	}
	free(seen);

	for (gi = 0; gi < (long)c->cond.ngroups; gi++) {
		const struct ud_group *g = &c->cond.groups[gi];
		const struct ud_line *ifl = &lx->lines[g->if_line];
		const struct ud_clause *c0 = &g->clauses[0];
		bool logic = ifl->dir == UD_DIR_IF && ud_expr_has_logic(ifl->arg);

		if (x->kind[gi] != GK_ORDINARY)
			continue;
		if (c->guard < 0 && ud_frame_is_guard(c, gi)) {
			x->kind[gi] = GK_GUARD;
			c->guard = gi;
			continue;
		}
		if (c->order_check < 0 && ud_frame_is_order_check(c, gi)) {
			x->kind[gi] = GK_ORDER_CHECK;
			c->order_check = gi;
			continue;
		}
		if (ud_line_contains(lx, g->if_line, UD_MARKER_RETAIN)) {
			x->kind[gi] = GK_RETAINED;
			x->retain_reason[gi] = R_RETAIN;
			c->role[g->if_line] = UD_ROLE_RETAIN_MARKED;
			continue;
		}
		if (!c0->own_mentions)
			continue;
		if (c0->kclass == UD_KC_KERNEL && !logic && ifl->dir != UD_DIR_IFNDEF)
			x->kind[gi] = GK_KERNEL_ONLY;
		else if (c0->kclass == UD_KC_USER && !logic && ifl->dir != UD_DIR_IFDEF)
			x->kind[gi] = GK_USER_ONLY;
		else {
			x->kind[gi] = GK_RETAINED;
			x->retain_reason[gi] = R_COMPOUND;
			ud_diags_add(
				&c->diags, ifl->first, UD_SEV_WARNING,
				"'#%s' mixes __KERNEL__ with other conditions: kept unsplit in the uapi header (a split-compound marker can split it)",
				ifl->dtext);
			continue;
		}
		if (ifl->depth > 0) {
			x->kind[gi] = GK_RETAINED;
			x->retain_reason[gi] = R_CONSTRUCT;
			ud_diags_add(
				&c->diags, ifl->first, UD_SEV_WARNING,
				"'#%s' sits inside a C construct (a struct, enum or initializer): kept unsplit in the uapi header",
				ifl->dtext);
		}
	}
}

/* Pass 2: kernel marks, bottom-up (children have higher indices). */
static void
mark_groups(struct classify_ctx *x)
{
	struct ud_classified *c = x->c;
	const struct ud_lexed *lx = &c->lx;
	long gi;

	for (gi = (long)c->cond.ngroups - 1; gi >= 0; gi--) {
		const struct ud_group *g = &c->cond.groups[gi];
		unsigned km = 0;
		size_t ci;

		if (x->kind[gi] == GK_KERNEL_ONLY || x->kind[gi] == GK_SPLIT_COMPOUND)
			km = KM_KO | KM_IK;
		else if (x->kind[gi] == GK_USER_ONLY)
			km = KM_UO | KM_IU;
		if (km != 0 && g->nclauses > 1) {
			if (g->nclauses > 2 || g->clauses[1].dir == UD_DIR_ELIF) {
				ud_diags_add(
					&c->diags, lx->lines[g->clauses[1].line].first,
					UD_SEV_ERROR,
					"#elif in a __KERNEL__ conditional (opened at line %u): cannot split",
					lx->lines[g->if_line].first);
			}
			km = KM_ALL;
		}
		for (ci = 0; ci < g->nclauses; ci++) {
			const struct ud_clause *cl = &g->clauses[ci];
			unsigned k = x->clause_k[gi][ci];

			/*
			 * A retain or kernel marker on the conditional decides it
			 * (kept whole, where the marker says): the coaching hint
			 * offers retain (coach.c).
			 */
			if (cl->dir == UD_DIR_ELIF && cl->own_mentions &&
			    !(x->kind[gi] == GK_RETAINED && x->retain_reason[gi] == R_RETAIN) &&
			    x->kind[gi] != GK_FORCE_KERNEL)
				ud_diags_add(&c->diags, lx->lines[cl->line].first, UD_SEV_ERROR,
					     "#elif mentions __KERNEL__: cannot split");
			if (k != 0) {
				if (km & (KM_KO | KM_UO))
					ud_diags_add(
						&c->diags, lx->lines[cl->line].first, UD_SEV_ERROR,
						"__KERNEL__ conditional nested in another (opened at line %u): cannot split",
						lx->lines[g->if_line].first);
				else
					km = k | KM_IU;
			}
		}
		if (x->kind[gi] == GK_FORCE_KERNEL)
			km = KM_IK;
		if (x->kind[gi] == GK_GUARD || x->kind[gi] == GK_ORDER_CHECK)
			km = KM_IU;
		x->km[gi] = km;
		if (km & (KM_KO | KM_UO | KM_IK))
			c->needs_split = c->needs_split || (km & (KM_KO | KM_IK));
		if (g->parent >= 0 && g->parent_clause >= 0)
			x->clause_k[g->parent][g->parent_clause] |= km & (KM_IK | KM_IU);
	}
}

/*
 * The mark group gi is rendered with, inside a body rendered with pm.  A
 * group holding no __KERNEL__ content takes its parent's mark: inside a
 * conditional that spans both headers, its directives are written to both
 * and its body to the uapi header, so the kernel header keeps an empty
 * shell of it, as the 2012 scripts left it (upstream kept those shells).
 */
static unsigned
group_mark(const struct classify_ctx *x, long gi, unsigned pm)
{
	if (x->km[gi] != 0)
		return x->km[gi];
	return pm;
}

/* Pass 3a: render marks of every body, top-down. */
static void
render_marks(struct classify_ctx *x)
{
	struct ud_classified *c = x->c;
	long gi;

	for (gi = 0; gi < (long)c->cond.ngroups; gi++) {
		const struct ud_group *g = &c->cond.groups[gi];
		unsigned pm = g->parent < 0 ? KM_IU : x->body_mark[g->parent][g->parent_clause];
		unsigned m = group_mark(x, gi, pm);
		size_t ci;

		x->user_clause[gi] = -1;
		x->kernel_clause[gi] = -1;
		if (g->parent >= 0) {
			x->anc_user[gi] = x->anc_user[g->parent] ||
					  x->user_clause[g->parent] == g->parent_clause;
			if (x->retain_reason[gi] == NULL)
				x->retain_reason[gi] = x->retain_reason[g->parent];
		}
		if (x->kind[gi] == GK_GUARD) {
			x->body_mark[gi][0] = pm;
			continue;
		}
		if (x->kind[gi] == GK_ORDER_CHECK) {
			x->body_mark[gi][0] = KM_IU;
			continue;
		}
		switch (m & (KM_KO | KM_UO)) {
		case 0:
			for (ci = 0; ci < g->nclauses; ci++)
				x->body_mark[gi][ci] = m;
			if (x->kind[gi] == GK_FORCE_KERNEL)
				x->kernel_clause[gi] = 0;
			break;
		case KM_KO:
			x->body_mark[gi][0] = KM_IK;
			x->kernel_clause[gi] = 0;
			break;
		case KM_UO:
			x->body_mark[gi][0] = KM_IU;
			x->user_clause[gi] = 0;
			break;
		default: /* an #else pair */
			if (g->nclauses < 2)
				break;
			if (x->kind[gi] == GK_KERNEL_ONLY) {
				x->body_mark[gi][0] = KM_IK;
				x->body_mark[gi][1] = KM_IU;
				x->kernel_clause[gi] = 0;
				x->user_clause[gi] = 1;
			} else {
				x->body_mark[gi][0] = KM_IU;
				x->body_mark[gi][1] = KM_IK;
				x->user_clause[gi] = 0;
				x->kernel_clause[gi] = 1;
			}
			break;
		}
	}
}

static void
set_line(struct ud_classified *c, size_t li, unsigned dest, enum ud_class cls, const char *reason)
{
	c->dest[li] = (unsigned char)dest;
	c->cls[li] = (unsigned char)cls;
	c->reason[li] = reason;
}

/* Destination and class of a directive line of group gi. */
static void
directive_line(struct classify_ctx *x, long gi, size_t li, unsigned pm)
{
	struct ud_classified *c = x->c;
	const struct ud_group *g = &c->cond.groups[gi];
	unsigned m = group_mark(x, gi, pm);
	bool is_if = li == g->if_line, is_endif = li == g->endif_line;

	switch (x->kind[gi]) {
	case GK_GUARD:
		set_line(c, li, UD_TO_BOTH, UD_CLASS_GUARD, R_GUARD);
		c->role[li] = is_if	 ? UD_ROLE_GUARD_IF
			      : is_endif ? UD_ROLE_GUARD_ENDIF
					 : UD_ROLE_TEXT;
		return;
	case GK_ORDER_CHECK:
		set_line(c, li, UD_TO_UAPI, UD_CLASS_UAPI, R_ORDER);
		return;
	case GK_FORCE_KERNEL:
		set_line(c, li, UD_TO_KERNEL, UD_CLASS_KERNEL, R_FORCE_K);
		return;
	case GK_SPLIT_COMPOUND:
		set_line(c, li, UD_TO_KERNEL, UD_CLASS_KERNEL, R_SPLIT_C);
		if (is_if)
			c->role[li] = UD_ROLE_COMPOUND_IF;
		return;
	default:
		break;
	}
	switch (m & (KM_KO | KM_UO)) {
	case 0: {
		unsigned d = ((m & KM_IK) ? UD_TO_KERNEL : 0) | ((m & KM_IU) ? UD_TO_UAPI : 0);

		if (x->kind[gi] == GK_RETAINED)
			set_line(c, li, d, UD_CLASS_RETAINED, x->retain_reason[gi]);
		else if (d == UD_TO_BOTH)
			set_line(c, li, d, UD_CLASS_UAPI, x->km[gi] != 0 ? R_BOTH : R_SHELL);
		else if (d == UD_TO_KERNEL)
			set_line(c, li, d, UD_CLASS_KERNEL, R_KERNEL);
		else
			set_line(c, li, d, x->anc_user[gi] ? UD_CLASS_USER : UD_CLASS_UAPI,
				 x->anc_user[gi] ? R_USER : R_SHARED);
		return;
	}
	case KM_KO:
		set_line(c, li, UD_TO_NONE, UD_CLASS_KERNEL, R_KDIR);
		return;
	case KM_UO:
		set_line(c, li, UD_TO_UAPI, UD_CLASS_USER, R_UDIR);
		return;
	default:
		if (g->nclauses >= 2 && li == g->clauses[1].line) {
			set_line(c, li, UD_TO_NONE, UD_CLASS_KERNEL, R_KDIR);
		} else if (is_if && x->kind[gi] == GK_KERNEL_ONLY) {
			set_line(c, li, UD_TO_UAPI, UD_CLASS_USER, R_TO_IFNDEF);
			c->role[li] = UD_ROLE_TO_IFNDEF;
		} else {
			set_line(c, li, UD_TO_UAPI, UD_CLASS_USER, R_UDIR);
		}
		return;
	}
}

/* Pass 3b: every logical line. */
static void
assign_lines(struct classify_ctx *x)
{
	struct ud_classified *c = x->c;
	const struct ud_lexed *lx = &c->lx;
	size_t li;

	for (li = 0; li < lx->nlines; li++) {
		long gi = c->cond.line_group[li], ci = c->cond.line_clause[li];
		unsigned b;

		if (c->role[li] == UD_ROLE_BANNER) {
			set_line(c, li, UD_TO_BOTH, UD_CLASS_BANNER, R_BANNER);
			continue;
		}
		if (gi >= 0 && ci < 0 && ud_dir_is_cond(lx->lines[li].dir)) {
			const struct ud_group *g = &c->cond.groups[gi];
			unsigned pm =
				g->parent < 0 ? KM_IU : x->body_mark[g->parent][g->parent_clause];

			directive_line(x, gi, li, pm);
			continue;
		}
		if (ud_line_is(lx, li, UD_MARKER_INCLUDE_HERE)) {
			if (c->include_marked)
				ud_diags_add(&c->diags, lx->lines[li].first, UD_SEV_ERROR,
					     "more than one place given for the uapi #include");
			c->include_marked = true;
			c->role[li] = UD_ROLE_INCLUDE_HERE;
			set_line(c, li, UD_TO_NONE, UD_CLASS_KERNEL, R_MARKER);
			continue;
		}
		if (gi < 0) {
			bool outside = c->guard >= 0 && li > c->cond.groups[c->guard].if_line;

			set_line(c, li, UD_TO_UAPI, UD_CLASS_UAPI, outside ? R_OUTSIDE : R_SHARED);
			continue;
		}
		if (ci < 0)
			ci = 0; /* a stray directive inside a group: count it as body */
		if (gi == c->guard && li == c->guard_define) {
			set_line(c, li, UD_TO_BOTH, UD_CLASS_GUARD, R_GUARD);
			c->role[li] = UD_ROLE_GUARD_DEFINE;
			continue;
		}
		if (gi == c->order_check) {
			set_line(c, li, UD_TO_UAPI, UD_CLASS_UAPI, R_ORDER);
			continue;
		}
		b = x->body_mark[gi][ci];
		if (!(b & KM_IU)) {
			bool else_of_uo = x->kernel_clause[gi] == ci && ci > 0;

			set_line(c, li, UD_TO_KERNEL, UD_CLASS_KERNEL,
				 x->kind[gi] == GK_FORCE_KERNEL	    ? R_FORCE_K
				 : x->kind[gi] == GK_SPLIT_COMPOUND ? R_SPLIT_C
				 : else_of_uo			    ? R_KERNEL_ELSE
								    : R_KERNEL);
		} else if (x->user_clause[gi] == ci || x->anc_user[gi]) {
			bool else_of_ko = x->user_clause[gi] == ci && ci > 0;

			set_line(c, li, UD_TO_UAPI, UD_CLASS_USER,
				 else_of_ko ? R_USER_ELSE : R_USER);
		} else if (x->retain_reason[gi] != NULL) {
			set_line(c, li, UD_TO_UAPI, UD_CLASS_RETAINED, x->retain_reason[gi]);
		} else {
			set_line(c, li, UD_TO_UAPI, UD_CLASS_UAPI, R_SHARED);
		}
	}
}

static void
check_guard(struct ud_classified *c)
{
	const struct ud_lexed *lx = &c->lx;
	size_t li;

	if (c->guard < 0) {
		if (c->needs_split)
			ud_diags_add(
				&c->diags, 0, UD_SEV_ERROR,
				"no include guard (#ifndef X / #define X around the file): cannot split");
		return;
	}
	for (li = c->cond.groups[c->guard].endif_line + 1; li < lx->nlines; li++)
		if (lx->lines[li].flags & UD_LINE_CODE) {
			ud_diags_add(
				&c->diags, lx->lines[li].first, UD_SEV_WARNING,
				"code after the include guard's #endif: it goes to the uapi header");
			return;
		}
}

int
ud_classify(const char *buf, size_t len, const struct ud_marker *const *markers, size_t nmarkers,
	    struct ud_classified *out)
{
	struct classify_ctx x;
	size_t n, gi, i;

	memset(out, 0, sizeof(*out));
	out->guard = -1;
	out->order_check = -1;
	out->include_after = UD_NO_LINE;
	out->guard_define = UD_NO_LINE;
	out->banner_last = UD_NO_LINE;
	out->nmarkers = markers != NULL ? nmarkers : 0;
	out->marker_hits = ud_xcalloc(out->nmarkers ? out->nmarkers : 1, sizeof(unsigned));
	if (ud_lex(buf, len, &out->lx, &out->diags) < 0)
		return 0;
	out->lexed = true;
	ud_cond_build(&out->lx, &out->cond, &out->diags);
	n = out->lx.nlines ? out->lx.nlines : 1;
	out->dest = ud_xcalloc(n, 1);
	out->role = ud_xcalloc(n, 1);
	out->cls = ud_xcalloc(n, 1);
	out->reason = ud_xcalloc(n, sizeof(*out->reason));

	memset(&x, 0, sizeof(x));
	x.c = out;
	x.markers = markers;
	x.nmarkers = markers != NULL ? nmarkers : 0;
	n = out->cond.ngroups ? out->cond.ngroups : 1;
	x.kind = ud_xcalloc(n, 1);
	x.km = ud_xcalloc(n, sizeof(unsigned));
	x.clause_k = ud_xcalloc(n, sizeof(unsigned *));
	x.body_mark = ud_xcalloc(n, sizeof(unsigned *));
	x.retain_reason = ud_xcalloc(n, sizeof(char *));
	x.anc_user = ud_xcalloc(n, sizeof(bool));
	x.user_clause = ud_xcalloc(n, sizeof(long));
	x.kernel_clause = ud_xcalloc(n, sizeof(long));
	for (gi = 0; gi < out->cond.ngroups; gi++) {
		size_t nc = out->cond.groups[gi].nclauses;

		x.clause_k[gi] = ud_xcalloc(nc, sizeof(unsigned));
		x.body_mark[gi] = ud_xcalloc(nc, sizeof(unsigned));
	}
	for (i = 0; i < x.nmarkers; i++)
		if (markers[i]->action == UD_MARK_SKIP) {
			out->marker_hits[i]++;
			out->skip = true;
		}

	ud_frame_banner(out);
	decide_kinds(&x);
	ud_frame_late_banner(out);
	mark_groups(&x);
	render_marks(&x);
	assign_lines(&x);
	check_guard(out);
	for (gi = 0; gi < out->cond.ngroups; gi++) {
		if (x.kind[gi] == GK_KERNEL_ONLY || x.kind[gi] == GK_USER_ONLY ||
		    x.kind[gi] == GK_SPLIT_COMPOUND)
			out->kernel_groups++;
		else if (x.kind[gi] == GK_RETAINED)
			out->retained_groups++;
	}

	for (gi = 0; gi < out->cond.ngroups; gi++) {
		free(x.clause_k[gi]);
		free(x.body_mark[gi]);
	}
	free(x.kind);
	free(x.km);
	free(x.clause_k);
	free(x.body_mark);
	free(x.retain_reason);
	free(x.anc_user);
	free(x.user_clause);
	free(x.kernel_clause);
	return 0;
}

bool
ud_classified_ok(const struct ud_classified *c)
{
	return c->lexed && ud_diags_count(&c->diags, UD_SEV_ERROR) == 0;
}

size_t
ud_classified_blocks(const struct ud_classified *c, struct ud_block **out)
{
	struct ud_block *v = NULL;
	size_t n = 0, alloc = 0, li;

	for (li = 0; li < c->lx.nlines; li++) {
		const struct ud_line *l = &c->lx.lines[li];
		enum ud_class cls = (enum ud_class)c->cls[li];

		if (n > 0 && v[n - 1].cls == cls && v[n - 1].reason == c->reason[li]) {
			v[n - 1].last = l->last;
			continue;
		}
		v = ud_xgrow(v, &alloc, n + 1, sizeof(*v));
		v[n].first = l->first;
		v[n].last = l->last;
		v[n].cls = cls;
		v[n].reason = c->reason[li];
		n++;
	}
	*out = v;
	return n;
}

void
ud_classified_free(struct ud_classified *c)
{
	if (c == NULL)
		return;
	ud_cond_free(&c->cond);
	ud_lexed_free(&c->lx);
	ud_diags_free(&c->diags);
	free(c->dest);
	free(c->role);
	free(c->cls);
	free(c->reason);
	free(c->marker_hits);
	memset(c, 0, sizeof(*c));
}
