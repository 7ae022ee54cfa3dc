/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the API model's files (api-lex.c, api.c, api-resolve.c,
 * api-eval.c, api-layout.c, api-diff*.c): the C tokens the model is read
 * from, and the pieces of the reader and of the resolution that other
 * files call.  Not a public interface.
 */
#ifndef UAPID_API_INTERNAL_H
#define UAPID_API_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "uapid/api/abi.h"
#include "uapid/api/api.h"
#include "uapid/util/arena.h"
#include "uapid/util/map.h"
#include "api-stages.h"

/* ---- tokens (api-lex.c) ---- */

struct api_tok {
	const char *p;
	size_t n;
	unsigned line;
	bool bol;		     /* first token of its line */
	const struct api_hide *hide; /* macros whose expansion produced it (api-eval.c) */
};

struct api_toks {
	struct api_tok *v;
	size_t n, alloc;
};

/* C tokens of text (comments dropped, continuations joined), each with its line. */
void api_tokenize(const char *text, size_t len, struct api_toks *out);
/* Whether a and b are the same text, NULL the same only as NULL. */
static inline bool
api_streq(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* s, or "" for NULL. */
static inline const char *
api_or_none(const char *s)
{
	return s != NULL ? s : "";
}

/*
 * Whether token t is the text s.  Inline: the readers ask it of every
 * token against many words, and with a literal s the compiler reduces it
 * to a length test and a compare of a few bytes.
 */
static inline bool
api_tok_is(const struct api_tok *t, const char *s)
{
	size_t n = strlen(s);

	return t->n == n && memcmp(t->p, s, n) == 0;
}
bool api_tok_ident(const struct api_tok *t);
/* Tokens [a, b) as text, one space between tokens where C needs or shows one. */
char *api_join(const struct api_tok *v, size_t a, size_t b);
/*
 * api_join in two steps, for a reader that writes the joined text where it
 * keeps it (a header's string arena, a buffer) with no allocation of its
 * own: some 150,000 malloc and free pairs a diff.  api_join_len is its
 * length (NUL not counted); api_join_to writes it and its NUL at out
 * (api_join_len + 1 bytes) and returns where the NUL is.
 */
size_t api_join_len(const struct api_tok *v, size_t a, size_t b);
char *api_join_to(char *out, const struct api_tok *v, size_t a, size_t b);
/* The index of the closer matching the opener ({, ( or [) at i, or b. */
size_t api_match(const struct api_tok *v, size_t i, size_t b);
/* An attribute or annotation word: __attribute__, __aligned, __packed, __user, __extension__. */
bool api_is_attr(const struct api_tok *t);

/* ---- the reader (api.c) ---- */

/* The members declared in text ("int a; struct { ... } b;"), as a record's body is read;
 * their strings in strs. */
void api_members_from_text(const char *text, struct ud_strarena *strs, struct ud_api_member **out,
			   size_t *n);
void api_members_free(struct ud_api_member *m, size_t n);
/*
 * s (malloc'd, or NULL) stored in h: its copy in h's arena, where every
 * string of a model lives (h->strs); s is freed.
 */
char *api_adopt(struct ud_api_header *h, char *s);
void api_members_free_one(struct ud_api_member *m);
/* Keys, fingerprints and order of h's symbols, after its symbols or conditions changed. */
void api_finish(struct ud_api_header *h);
/* api_finish's parts: one symbol's key (in strs) and fingerprints; h's fingerprint of its symbols'.
 */
void api_sym_finish(struct ud_strarena *strs, struct ud_api_sym *s);
void api_header_fold(struct ud_api_header *h);
void api_sym_free(struct ud_api_sym *s);
void api_layout_free(struct ud_api_layout *l);

/* ---- a version being resolved for an ABI (api-resolve.c) ---- */

/* A symbol of the version: header index and symbol index. */
struct api_ref {
	unsigned h, i;
};

enum api_state { API_TODO, API_BUSY, API_DONE };

/* A type resolved for the target. */
struct api_type {
	bool known;
	uint64_t size, align; /* bytes */
	bool integer, is_unsigned, pointer, record, array;
	unsigned rank; /* an integer's enum api_rank, when integer (char/short: API_INT) */
	unsigned bits; /* an integer's width */
	char *spelled; /* after typedefs: "unsigned int", "struct foo", "pointer" (owned) */
};

struct api_form;

/*
 * What resolution knows of one symbol: pointers first, then the bytes, so
 * no padding (64 bytes, not 80; one per symbol, some 60,000 a version).
 */
struct api_symstate {
	char *residual;	       /* the conditions left undecided on the target (owned) */
	struct api_type *type; /* a typedef's type, once known (owned) */
	char *why;	       /* why its layout is not known (owned) */
	struct api_tok *body;  /* a macro's replacement as tokens (in the arena), once read */
	size_t nbody;
	struct api_form *form; /* a function-like macro's parameters and replacement, read once
				  (api-macro.c, in the arena) */
	unsigned char cond;    /* enum ud_tri once cond_done */
	unsigned char cond_st; /* enum api_state */
	unsigned char value_st;
	unsigned char layout_st;
	unsigned char alone, alone_st; /* the truth for a compiler of the header alone */
	unsigned char rank;	       /* with a value: its enum api_rank (rank_known) */
	bool rank_known;
	bool type_busy;
	bool enum_unsigned; /* an enum with no negative constant: unsigned int */
	bool body_done;
	bool changed; /* its value, members or condition changed: its key and hashes again */
	/*
	 * A macro whose value took a name defined more than once (a word's
	 * many_macros): another header's view may give another value, so its
	 * uses expand it there instead of taking this one. A typedef that
	 * took such a typedef name (x32's __kernel_long_t, long long where
	 * posix_types_x32.h is included, long in asm-generic/posix_types.h
	 * alone): a use in another header resolves it there.
	 */
	bool view_dependent;
};

struct api_hdr {
	struct ud_map seen; /* look-ups done from here: name key -> its api_ref (arena) */
	unsigned *next;	    /* per symbol: the next of the same key + 1, or 0 */
	unsigned *closure;  /* header indices it sees through #includes, itself first */
	size_t nclosure;
	unsigned char *in_closure; /* per header index: 1 when closure holds it */
	bool closure_done;
	/*
	 * per header index: the line of the first #include of this header
	 * that brings it (0: none, or itself); made when a look-up in place
	 * comes before an #include (api-resolve.c's include_lines_of)
	 */
	unsigned *by_line;
	unsigned last_include;	     /* the line of its last #include, 0 when none */
	unsigned char *include_cond; /* per #include: its condition's enum ud_tri + 1, once known */
	unsigned *include_h;	 /* per #include: its header's index + 2, 1 when none, once known */
	struct api_symstate *st; /* per symbol */
	size_t nst;		 /* st's entries: the symbols' count before a resolve drops some */
	bool dirty; /* a symbol changed: its keys and fingerprints are computed again */
	bool rekey; /* symbols added: all its keys, fingerprints and order again */
};

/* A macro whose replacement is one identifier: "#define __old_sigset_t sigset_t". */
struct api_rename {
	const char *name; /* the macro's name (borrowed from the version) */
	struct api_rename *next;
};

struct api_spare;
struct api_typememo;

struct api_ctx {
	const struct ud_abi *abi;
	struct ud_api_header *v; /* the version, sorted by path */
	/* linux/types.h's index: whose view a header that includes nothing takes, or -1 */
	long prelude;
	unsigned long view_words; /* names of many_macros expanded so far (view_dependent) */
	/* typedef names defined more than once, or view-dependent, taken so far (view_dependent) */
	unsigned long view_types;
	size_t n;
	struct api_hdr *hd;
	struct ud_map global;	  /* name key -> (uintptr_t) index + 1 into refs */
	struct ud_map gseen;	  /* version-wide look-ups done: name key -> its api_ref (arena) */
	struct ud_map abi_macros; /* ud_abi_macro's answers, by name (arena) */
	/* an identifier -> the macros that expand to it, in path order (struct api_rename) */
	struct ud_map renamed;
	struct api_ref *refs; /* the headers defining each name (a header's first definition) */
	unsigned *gnext;      /* per ref: the next ref of the same name + 1, or 0 */
	size_t nrefs, arefs, agnext;
	struct ud_arena arena;	  /* tokens made by expansion and pasting */
	struct api_spare *spare;  /* what expansion keeps (api-macro-keep.c) */
	unsigned depth;		  /* nesting of evaluations, bounded */
	bool alone;		  /* conditions as a compiler of the header alone sees them */
	unsigned cur_h, cur_line; /* the symbol whose condition is evaluated: what is before it */
	const char *cur_cond;
	struct api_typememo *types; /* api_type_of_text's answers kept (api-type.c, in the arena) */
	unsigned long broken; /* answers given that a later call may not give (a cycle broken) */
};

/*
 * Name keys: a macro "#NAME", a tag "struct foo" (as symbols name it), an
 * ordinary identifier (a typedef or an enum constant) "NAME".
 */
enum api_ns { API_NS_MACRO, API_NS_TAG, API_NS_ORDINARY };

/*
 * The definition of name (in namespace ns) that header h sees: its own,
 * then its #includes' (breadth first), skipping definitions whose
 * conditions are false on the target; with global, any header of the
 * version.  False when there is none, or the first one found is under
 * conditions the target does not decide (*undecided set).
 */
/* Whether the version defines name in ns more than once (another view may see another). */
bool api_defined_often(struct api_ctx *c, enum api_ns ns, const char *name, size_t n);
bool api_lookup(struct api_ctx *c, unsigned h, enum api_ns ns, const char *name, size_t n,
		bool global, struct api_ref *out, bool *undecided);
struct ud_api_sym *api_sym(struct api_ctx *c, struct api_ref r);
/* The truth of symbol r's conditions on the target (enum ud_tri). */
int api_sym_cond(struct api_ctx *c, struct api_ref r);
/* The truth of a condition text, as seen from header h (enum ud_tri). */
int api_cond_eval(struct api_ctx *c, unsigned h, const char *cond);
/*
 * The same for a compiler of header h alone: what the target does not
 * decide is undefined (no libc header before it, no -D of the program).
 */
int api_cond_eval_alone(struct api_ctx *c, unsigned h, const char *cond);

/* ---- values (api-eval.c) ---- */

/* An integer value and its C type. */
struct api_val {
	bool known;
	uint64_t u;	    /* the bits, truncated to the type's width */
	unsigned char rank; /* enum api_rank */
};

enum api_rank { API_INT, API_UINT, API_LONG, API_ULONG, API_LLONG, API_ULLONG };

/* ---- the preprocessor (api-macro.c) ---- */

/* Expansion and evaluation nesting past which a value is unknown. */
#define API_MAX_DEPTH 48
/* What the expansion leaves where a value cannot be known (a name it may not decide). */
#define API_UNKNOWN_WORD "__uapid_unknown__"

/*
 * Text expanded in header h's view into out (out->v in the context's
 * arena, given back with api_expand_done): for a condition (pp) defined()
 * answered and names known to be undefined left for the evaluator.  False
 * when the expansion failed (past its bounds).
 */
bool api_expand(struct api_ctx *c, unsigned h, const char *text, bool pp, struct api_toks *out);
/* The same for tokens in[0..n) (a macro's replacement, already read: api_macro_body). */
bool api_expand_toks(struct api_ctx *c, unsigned h, const struct api_tok *in, size_t n, bool pp,
		     struct api_toks *out);
/* Gives an expansion's tokens back for reuse (out is left empty). */
void api_expand_done(struct api_ctx *c, struct api_toks *out);
/*
 * Object-like macro r's replacement expanded in its header's view as a
 * use of its name expands it: the name hidden inside, so that "#define
 * X (X - 1)" after an enum constant X is that constant minus one.
 */
bool api_expand_macro(struct api_ctx *c, struct api_ref r, struct api_toks *out);
/* Text with its object-like macros expanded (for a type: "__aligned_u64" -> "__u64
 * __attribute__((aligned(8)))"). */
char *api_expand_text(struct api_ctx *c, unsigned h, const char *text);

/* ---- what the expander keeps through a context (api-macro-keep.c) ---- */

/*
 * A vector of tokens in a context's arena: taken from the context's
 * spares (tv_get) and given back when done (api_tv_put), so that the stacks,
 * arguments and replacements of the 26,000 expansions of a diff reuse a
 * few dozen allocations instead of a malloc and reallocs each.
 */
struct tv {
	struct api_tok *v;
	size_t n, alloc;
	struct ud_arena *arena; /* where v grows: the old v is left to it */
};

/*
 * What expansion knows of an identifier token's text: the ABI's answer,
 * and the last macro look-up made under api_lookup's own memo (outside a
 * condition's evaluation, not alone), whose answer is then the same each
 * time it is asked again.  Keyed by the text, hashed here without the
 * copies to a NUL-terminated key the two maps behind those answers need.
 */
#define WORD_SEEN 2

struct word {
	const char *name; /* the text (a copy in the arena) */
	size_t n;
	enum ud_abi_macro abi; /* api_abi_macro's answer */
	const char *value;
	/*
	 * No header of the version defines a macro of this name (its key,
	 * "#NAME", is not in the context's global map, which only gains enum
	 * constants once made): api_lookup answers none in any view.
	 */
	bool no_macro;
	/*
	 * The version defines a macro of this name more than once (asm/ioctl.h's
	 * _IOC_SIZEBITS before asm-generic/ioctl.h's #ifndef default): which one
	 * an expansion takes depends on the view it expands in.
	 */
	bool many_macros;
	/* the last look-ups kept, from a few headers (a macro is used from many) */
	struct word_seen {
		bool looked, global, found, undecided;
		unsigned h;
		struct api_ref r;
	} seen[WORD_SEEN];
	unsigned next_seen; /* the one replaced next */
};

/* Grows t to hold want tokens (tv_push's and tv_reserve's slow path). */
void api_tv_grow(struct tv *t, size_t want);

/* Inline, its growth out of line: expansion pushes some 1.4 million tokens a diff. */
static inline void
tv_push(struct tv *t, struct api_tok k)
{
	if (t->n == t->alloc)
		api_tv_grow(t, t->n + 1);
	t->v[t->n++] = k;
}

/* Room for extra more tokens, for the loops that push a known count. */
static inline void
tv_reserve(struct tv *t, size_t extra)
{
	if (t->alloc - t->n < extra)
		api_tv_grow(t, t->n + extra);
}

struct text;

/* A context's spares (api_ctx's spare), in its arena: emptied vectors, the words. */
struct api_spare {
	struct tv *v;
	size_t n, alloc;
	struct ud_map words; /* identifier -> struct word (in the arena) */
	struct ud_map texts; /* a text expanded -> its tokens (struct text, in the arena) */
};
/* Frees what c's spares keep outside its arena. */
void api_spare_free(struct api_ctx *c);

/*
 * An empty token vector, with the room of a spare one when c has one
 * (inline: asked some 195,000 times a diff).
 */
static inline struct tv
tv_get(struct api_ctx *c)
{
	struct api_spare *sp = c->spare;
	struct tv t = {NULL, 0, 0, &c->arena};

	if (sp != NULL && sp->n > 0) {
		t = sp->v[--sp->n];
		t.n = 0;
	}
	return t;
}

/* Gives t's room back to c's spares (t is left empty). */
void api_tv_put(struct api_ctx *c, struct tv *t);
/* The word of identifier token t (in c's arena: the same word at every use of the name). */
struct word *api_word_of(struct api_ctx *c, const struct api_tok *t);
/* The tokens of text (len bytes), kept in c's arena: tokenized on first use. */
const struct api_tok *api_text_tokens(struct api_ctx *c, const char *text, size_t len, size_t *n);
/* The tokens of macro r's replacement (kept in the context's arena). */
const struct api_tok *api_macro_body(struct api_ctx *c, struct api_ref r, size_t *n);
/* ud_abi_macro for the context's ABI, its answers kept. */
enum ud_abi_macro api_abi_macro(struct api_ctx *c, const char *name, size_t n, const char **value);

/* ---- values (api-eval.c) ---- */

/* The truth of a preprocessor condition in header h's view (enum ud_tri). */
int api_eval_condition(struct api_ctx *c, unsigned h, const char *text);
/* The value of expression text in header h's view (macros expanded, sizeof laid out). */
struct api_val api_eval_text(struct api_ctx *c, unsigned h, const char *text);
/* The value of symbol r (a macro or enum constant); memoized into the symbol. */
void api_eval_sym(struct api_ctx *c, struct api_ref r);
long long api_val_signed(const struct api_val *v, const struct ud_abi *abi);
bool api_rank_unsigned(unsigned rank);
unsigned api_rank_bits(unsigned rank, const struct ud_abi *abi);

/* ---- types (api-type.c) ---- */

/* What __attribute__((...)) says of a layout. */
struct api_attrs {
	uint64_t aligned; /* the largest aligned(N), 0 when none */
	bool packed;
};

/* The attributes in text (macros expanded) added to *at; false when unreadable. */
bool api_attrs_of_text(struct api_ctx *c, unsigned h, const char *text, struct api_attrs *at);
/* The type named by text (a cast's or sizeof's type name) in header h's view. */
bool api_type_of_text(struct api_ctx *c, unsigned h, const char *text, struct api_type *out);
/* Frees what api_type_of_text keeps outside the context's arena. */
void api_type_memo_free(struct api_ctx *c);
/*
 * The type of member m (its array included) in header h's view, under
 * #pragma pack(pack) (0: none); *flexible: a trailing [] or [0]; *why
 * (when not NULL and still NULL) says what is not known.
 */
bool api_member_type(struct api_ctx *c, unsigned h, const struct ud_api_member *m, unsigned pack,
		     struct api_type *out, bool *flexible, char **why);
/* The type typedef r names (memoized in its state). */
bool api_typedef_type(struct api_ctx *c, struct api_ref r, struct api_type *out);
/* Whether m's type is a pointer to its inline body ("struct { ... } *p"). */
bool api_inline_pointer(const struct ud_api_member *m);
/* The attributes written after an inline body's '}' in a member's type text, added to *at. */
bool api_body_attrs(struct api_ctx *c, unsigned h, const char *type, struct api_attrs *at);
/* Base type b of abi, spelled spelled. */
void api_base_type(struct api_type *t, const struct ud_abi *abi, enum ud_abi_base b,
		   bool is_unsigned, const char *spelled);
void api_type_copy(struct api_type *dst, const struct api_type *src);
void api_type_free(struct api_type *t);

/* ---- layouts (api-layout.c) ---- */

/*
 * Lays out a struct or union (kind) of members m[0..n) with the
 * attributes after its body ra, under #pragma pack(pack); nesting bounds
 * inline levels.  False (and *why) when a part is not known.
 */
bool api_lay_out(struct api_ctx *c, unsigned h, enum ud_api_kind kind,
		 const struct ud_api_member *m, size_t n, const struct api_attrs *ra, unsigned pack,
		 unsigned nesting, struct ud_api_layout *out, char **why);
void api_layout_free_fields(struct ud_api_layout *l);
/* The layout of symbol r (a struct, union, enum or typedef); memoized into the symbol. */
const struct ud_api_layout *api_layout_sym(struct api_ctx *c, struct api_ref r);
/* The field of layout l at path ("a.b"), or NULL. */
const struct ud_api_field *api_layout_field(const struct ud_api_layout *l, const char *path);
/* Whether a member name says it holds nothing yet: reserved, padding, unused, spare. */
bool api_placeholder(const char *name);

/* ---- diffs (api-diff.c, api-record.c, api-through.c, api-includes.c) ---- */

/* The reason's start of a record that grew at its end: its embedders inherit it. */
extern const char api_grew_reason[];
/* Appends a change of symbol s (NULL: the header) to d, its reason from fmt. */
void api_diff_add(struct ud_api_diff *d, const char *header, const struct ud_api_sym *s,
		  enum ud_api_what what, enum ud_api_verdict verdict, enum ud_api_rule rule,
		  unsigned old_line, unsigned new_line, const char *fmt, ...)
	__attribute__((format(printf, 9, 10)));
/* The changes between two versions of one symbol (same kind, or macro and enum constant). */
void api_diff_sym(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
		  const struct ud_api_sym *n);
/* The changes between two versions of a struct or union. */
void api_diff_record(struct ud_api_diff *d, const char *header, const struct ud_api_sym *o,
		     const struct ud_api_sym *n);
/* The index of s's member name, or -1 (anonymous members: always -1, they are matched by position).
 */
long api_find_member(const struct ud_api_sym *s, const char *name);
/* Moves more's changes into d after each header's own (more is left empty). */
void api_diff_merge(struct ud_api_diff *d, struct ud_api_diff *more);

/*
 * The symbols a diff cannot see change (api-quiet.c): api_quiet_scan reads
 * one version v against the other (the two on two threads), what each
 * symbol names; api_quiet_decide reads both, sets quiet[0] and quiet[1]
 * (per header of each, NULL or per symbol; calloc'd, the caller's) and
 * frees the two.
 */
struct api_quiet_side *api_quiet_scan(const struct ud_api_header *v, size_t n,
				      const struct ud_api_header *other, size_t nother);
void api_quiet_decide(struct api_quiet_side *side[2], bool **quiet[2]);
void api_quiet_free(struct api_quiet_side *q);
/* A model's names (ud_api_header.names): made, held once more by a copy, let go. */
struct ud_api_names *api_names_make(const struct ud_api_header *hd);
struct ud_api_names *api_names_hold(struct ud_api_names *q);
void api_names_release(struct ud_api_names *q);

/* Whether k is a kind of type (api-through.c's users and api-includes.c's closures). */
static inline bool
is_type_kind(enum ud_api_kind k)
{
	return k == UD_API_STRUCT || k == UD_API_UNION || k == UD_API_ENUM || k == UD_API_TYPEDEF;
}

#endif /* UAPID_API_INTERNAL_H */
