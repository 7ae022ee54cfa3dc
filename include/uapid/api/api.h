/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The userspace API model of one installed header, and the differences
 * between two versions of it, symbol by symbol, with a verdict.
 *
 * The model reads the installed text (after headers_install): object-like
 * and function-like macros (their replacement tokens, their value where it
 * can be computed), ioctl request macros decoded (_IO, _IOR, _IOW, _IOWR:
 * direction, type, number, argument type), enum constants (expression and
 * value) and enum types, struct and union definitions (ordered members:
 * name, type tokens, bit-field width, array bounds), typedefs, and function
 * and variable declarations (flagged: they do not belong in uapi headers).
 * A symbol under a preprocessor conditional carries the condition in its
 * key, so both branches of `#ifdef __x86_64__ ... #else` are seen.
 *
 * A change is compatible (an addition; a new enum constant that renumbers
 * nothing), breaking (a symbol or header removed; a macro or enum value
 * changed; a struct member removed, reordered, retyped or resized; an
 * ioctl number or argument type changed), or to review (a struct that grew
 * at its end; a flexible array changed; a *_MAX sentinel moved; a reserved
 * or padding member renamed; a function declaration), with the reason in
 * words.  Pure: buffers in, results out; output order is fixed.
 */
#ifndef UAPID_API_H
#define UAPID_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uapid/api/abi.h"
#include "uapid/util/arena.h"

enum ud_api_kind {
	UD_API_MACRO,
	UD_API_ENUM_CONST,
	UD_API_ENUM,
	UD_API_STRUCT,
	UD_API_UNION,
	UD_API_TYPEDEF,
	UD_API_FUNCTION,
	UD_API_VARIABLE,
	UD_API__KINDS
};

struct ud_api_member {
	char *name;  /* "" for an anonymous struct or union member */
	char *type;  /* normalised type tokens ("__u32", "struct foo *", "union { ... }") */
	char *array; /* "[16]", "[]" or NULL */
	char *dims;  /* array's bounds evaluated ("[16]" for "[F_LEN]"), or NULL */
	int bits;    /* bit-field width, or -1 */
	char *width; /* a bit-field's width as written ("3", "FOO_BITS"), or NULL */
	char *attrs; /* attributes after the declarator ("__attribute__((aligned(8)))"), or NULL */
	char *cond;  /* the conditions it is under inside its record ("" when none) */
	/* an inline body ("struct { ... } x", "union { ... };"): its kind and members */
	enum ud_api_kind sub_kind; /* UD_API_STRUCT, UD_API_UNION, UD_API_ENUM; else 0 (none) */
	struct ud_api_member *sub;
	size_t nsub;
	bool expands;  /* a macro call standing for members ("__struct_group(...)", in type) */
	unsigned line; /* with expands: its line (the macros in force there expand it) */
};

/* One member of a record as laid out: reached through anonymous and inline levels. */
enum ud_api_field_flag {
	UD_API_FIELD_BITFIELD = 1 << 0,	   /* size and offset are exact bits */
	UD_API_FIELD_FLEXIBLE = 1 << 1,	   /* a trailing flexible array ([], [0]): size 0 */
	UD_API_FIELD_AGGREGATE = 1 << 2,   /* a named inline struct or union: its members follow */
	UD_API_FIELD_INTEGER = 1 << 3,	   /* an integer or enum type, or an array of one */
	UD_API_FIELD_UNSIGNED = 1 << 4,	   /* with UD_API_FIELD_INTEGER: unsigned */
	UD_API_FIELD_PLACEHOLDER = 1 << 5, /* named reserved, padding, unused, ... */
	UD_API_FIELD_ARRAY = 1 << 6,	   /* an array */
};

struct ud_api_field {
	char *path;	 /* "a", "u.b" (anonymous levels add no name) */
	char *type;	 /* after typedefs and macros: "unsigned int", "struct foo", "char [16]" */
	uint64_t offset; /* in bits, from the start of the record */
	uint64_t size;	 /* in bits (a bit-field's width) */
	unsigned flags;	 /* enum ud_api_field_flag */
};

/* A type as the target ABI lays it out (ud_api_resolve). */
struct ud_api_layout {
	uint64_t size, align; /* in bytes */
	struct ud_api_field *fields;
	size_t nfields; /* a struct or union's members, in declaration order; else 0 */
	char *type;	/* a typedef's or enum's type after typedefs ("unsigned int"), or NULL */
	bool integer;	/* that type is an integer (or an enum) */
};

struct ud_api_ioctl {
	char dir[8]; /* "_IO", "_IOR", "_IOW", "_IOWR" */
	char *type;  /* the type argument as written ('T', KVMIO) */
	char *nr;    /* the number as written */
	char *arg;   /* the argument type, or NULL for _IO */
	bool known;  /* type and nr evaluated: */
	long long typev, nrv;
	bool size_known; /* the argument type laid out (ud_api_resolve): */
	uint64_t size;	 /* its size in bytes, which the request number holds */
};

/*
 * Pointers first, then 8-, 4- and 1-byte fields: no padding between them
 * (a version has some 50,000 symbols, each copied and sorted).
 */
struct ud_api_sym {
	char *name;   /* FOO, "struct foo", "enum bar", an enum constant's name */
	char *cond;   /* the conditions it is under ("" at top level) */
	char *key;    /* kind, name and cond: what matches it across versions */
	char *text;   /* macro replacement, enum constant expression, typedef or declaration */
	char *params; /* a function-like macro's parameters, or NULL */
	struct ud_api_member *members; /* struct, union; for an enum its constants (name only) */
	/* with is_ioctl, its request (in the header's arena); else NULL */
	struct ud_api_ioctl *ioctl;
	char *source; /* an enum's body, when macros in it write its enumerators (X-macros) */
	/* a function-like macro's expansion with its parameters as placeholders (resolved) */
	char *expansion;
	struct ud_api_member *decl;   /* a typedef's declarator (its type, array, body) */
	struct ud_api_layout *layout; /* set by ud_api_resolve where it is known, else NULL */
	char *layout_why;	      /* set by ud_api_resolve where it is not: why */
	size_t nmembers;
	long long value; /* a macro's or enum constant's value */
	uint64_t fingerprint;
	uint64_t body; /* the same without the key: what is left when only its conditions change */
	enum ud_api_kind kind;
	unsigned line;
	unsigned pack; /* a record's #pragma pack(N) in force, or 0 */
	/*
	 * A macro its header #undefs after using it (an X-macro's helper):
	 * the line of the #undef, else 0.  Not API (a program never sees
	 * it), kept for the expansions before that line; the diffs skip it.
	 */
	unsigned undef_line;
	bool has_value;
	bool is_ioctl;
	bool value_unsigned; /* with has_value: the value's C type is unsigned */
};

struct ud_api_names;
struct ud_api_header {
	char *path; /* installed name: "linux/foo.h" */
	struct ud_api_sym *v;
	size_t n, alloc;
	uint64_t fingerprint; /* over its symbols, in key order */
	char **includes;      /* the headers it includes (<linux/types.h> as "linux/types.h") */
	char **include_conds; /* the conditions of each #include ("" at top level) */
	/*
	 * the line of each #include: a condition or an expansion in place
	 * sees only the headers included before its line, as a compiler does
	 */
	unsigned *include_lines;
	size_t nincludes;
	const struct ud_abi *abi; /* the ABI ud_api_resolve read it for, or NULL */
	/*
	 * Every string of its symbols, members and includes (but path and
	 * the layouts' own): freed with it, so one replaced stays until then
	 * and one stored in it is copied here first.
	 */
	struct ud_strarena strs;
	/*
	 * What its symbols name, as read (api-quiet.c): made with the model,
	 * shared by its copies, let go when a resolve changes it (NULL: made
	 * again where a diff needs it).
	 */
	struct ud_api_names *names;
};

/*
 * Reads the model of header path from its installed text.  Declarations
 * the model does not understand are skipped (nothing a compiler would
 * reject is fatal); the symbols are sorted by key.
 */
void ud_api_parse(const char *path, const char *text, size_t len, struct ud_api_header *out);
void ud_api_header_free(struct ud_api_header *h);
/*
 * Reads one version's headers (sorted by path) for a target ABI: each
 * symbol's conditions evaluated on it (symbols and members under false
 * conditions are dropped, true terms leave their condition, so keys name
 * only what the target does not decide), macro and enum values computed
 * with macros expanded across the headers each one sees, and the layout
 * (size, alignment, the offset of every member) of every struct, union,
 * enum and typedef that can be known.  The headers are changed in place
 * and re-keyed; their abi is set.
 */
void ud_api_resolve(struct ud_api_header *v, size_t n, const struct ud_abi *abi);
/*
 * The same for two versions about to be compared: values are computed
 * only where they can matter to a verdict (symbols that differ, sizes an
 * ioctl or sizeof holds); layouts and conditions as above.
 */
void ud_api_resolve_pair(struct ud_api_header *old, size_t nold, struct ud_api_header *new_,
			 size_t nnew, const struct ud_abi *abi);
const char *ud_api_kind_name(enum ud_api_kind k);
/*
 * How a change's symbol is shown after its kind name (both as the JSON
 * gives them): "macro FOO", but "struct foo" alone, a name that says its
 * kind already.  Returns kind, or "" when symbol starts with it.
 */
const char *ud_api_kind_shown(const char *kind, const char *symbol);

enum ud_api_verdict { UD_API_COMPATIBLE, UD_API_REVIEW, UD_API_BREAKING, UD_API__VERDICTS };

enum ud_api_what {
	UD_API_ADDED,
	UD_API_REMOVED,
	UD_API_CHANGED,
};

/*
 * Which rule gave a change its verdict: what a program (or issue 24's
 * per-symbol history) can rely on without reading the reason's words.
 */
enum ud_api_rule {
	UD_API_RULE_ADDED,	 /* a symbol or header added */
	UD_API_RULE_REMOVED,	 /* a symbol or header removed */
	UD_API_RULE_VALUE,	 /* a macro's or enum constant's value changed */
	UD_API_RULE_SAME_VALUE,	 /* the same value, spelled otherwise */
	UD_API_RULE_SENTINEL,	 /* a *_MAX, *_CNT, __*_LAST, *_MASK ... bound grew with the API */
	UD_API_RULE_VERSION,	 /* a *_VERSION* number moved */
	UD_API_RULE_FLAGS_ADDED, /* a set of flags gained flags, every old one kept */
	UD_API_RULE_MACRO_ENUM,	 /* a macro became an enum constant of the same name, or back */
	UD_API_RULE_PARAMS,	 /* a function-like macro's parameters or body changed */
	UD_API_RULE_IOCTL,	 /* an ioctl request changed (number, direction, size) */
	UD_API_RULE_MEMBER_REMOVED, /* a member is gone (by its access path) */
	UD_API_RULE_MEMBER_MOVED,   /* a member's offset changed */
	UD_API_RULE_MEMBER_RESIZED, /* a member's size changed */
	UD_API_RULE_MEMBER_RETYPED, /* a member's type changed, its place and size did not */
	UD_API_RULE_SIGNEDNESS,	    /* an integer member or typedef changed signedness only */
	UD_API_RULE_MEMBER_ADDED,   /* members added where no offset or size moves */
	UD_API_RULE_GREW,	    /* a record grew at its end */
	UD_API_RULE_SIZE,	    /* a record's size changed otherwise */
	UD_API_RULE_ALIGN,	    /* a record's alignment changed */
	UD_API_RULE_RESERVED,	    /* a reserved or padding member renamed or given a use */
	UD_API_RULE_FLEX,	    /* a flexible array respelled, or an array made flexible */
	UD_API_RULE_SPELLING,	    /* written differently, the same layout or type */
	UD_API_RULE_ENUM,	    /* an enum's constants added, inserted or reordered */
	UD_API_RULE_TYPEDEF,	    /* a typedef names another type */
	UD_API_RULE_CONDITION,	    /* moved under other conditions */
	UD_API_RULE_THROUGH,	    /* a type it uses changed */
	UD_API_RULE_MOVED,	    /* moved to a header the old one includes */
	UD_API_RULE_INCLUDES,	    /* a type seen or no longer seen through #includes */
	UD_API_RULE_DECLARATION,    /* a function or variable declaration */
	UD_API_RULE_TEXT,	    /* compared as text: no value or layout known */
	UD_API_RULE_ENUM_SENTINEL,  /* constants inserted before the enum's count sentinel */
	UD_API_RULE_CONST_TYPE,	    /* the same value with another type (int -> unsigned, ...) */
	UD_API_RULE_IOCTL_ARG,	    /* an ioctl request whose argument type is no longer declared */
	UD_API_RULE_IOCTL_GREW,	    /* a request number that changed only as its struct grew */
	UD_API__RULES
};

/*
 * The two axes of a change, as ABI Compliance Checker reports libraries:
 * binary (a program built against the old headers, run on a kernel of the
 * new: layouts, values, request numbers) and source (the same program
 * rebuilt against the new headers: names, reachability, types, what
 * #ifdef sees).  A change's verdict is the worse of its two.
 */
enum ud_api_axis { UD_API_BINARY, UD_API_SOURCE, UD_API__AXES };

struct ud_api_change {
	char *header;
	char *symbol; /* "" for the header itself; with its condition: "FOO [if defined(X)]" */
	char *name;   /* the symbol's own name ("" for the header) */
	enum ud_api_kind kind;
	enum ud_api_what what;
	enum ud_api_verdict verdict;
	enum ud_api_rule rule;
	/* by axis (enum ud_api_axis): its verdict and the rule that decided it */
	enum ud_api_verdict axis[UD_API__AXES];
	enum ud_api_rule axis_rule[UD_API__AXES];
	char *reason;
	unsigned old_line, new_line; /* 0 when absent */
};

struct ud_api_diff {
	struct ud_api_change *v;
	size_t n, alloc;
	unsigned headers_added, headers_removed, headers_changed;
	unsigned symbols_added, symbols_removed, symbols_changed;
	unsigned verdicts[UD_API__VERDICTS];
};

/*
 * Appends the differences between two versions of a header (old NULL:
 * added; new NULL: removed) to diff.  Call in header order; the changes of
 * one header come sorted by symbol.
 */
void ud_api_diff_header(const struct ud_api_header *old, const struct ud_api_header *new_,
			struct ud_api_diff *diff);
/* Sorts headers by path, as the diffs of versions want them. */
void ud_api_sort_headers(struct ud_api_header *v, size_t n);
/*
 * Everything api-diff reports between two versions (each sorted by path,
 * both read with ud_api_resolve for the same ABI, or neither): each
 * header's changes, symbols moved into an included header, changes
 * through changed types, types seen or lost through #includes.
 */
void ud_api_diff_versions(const struct ud_api_header *old, size_t nold,
			  const struct ud_api_header *new_, size_t nnew, struct ud_api_diff *diff);
/* A header's two versions, either NULL (added, removed), for ud_api_diff_changed. */
struct ud_api_pair {
	const struct ud_api_header *old, *new_;
};
/*
 * The new version of a set of headers, for ud_api_diff_changed, looked up
 * only as far as the diff needs it (a caller may parse on demand).
 */
struct ud_api_lookup {
	/* The header at path (NULL when absent). */
	const struct ud_api_header *(*header)(const char *path, void *ctx);
	/*
	 * Every header, sorted by path, in a malloc'd array of shallow copies
	 * the caller frees (the headers stay the lookup's), their count in *n;
	 * NULL: the changed headers' new versions are all there is to look at.
	 */
	struct ud_api_header *(*all)(size_t *n, void *ctx);
	void *ctx;
};
/*
 * Everything a set of changed headers makes (pairs in path order), for
 * whoever knows what changed and has the new version only a header at a
 * time (the daemon's store, a git diff): each header's changes, symbols
 * moved into an included header, then changes through changed types
 * (their users looked for in every header of the new version).  With
 * new_ NULL, moves are left out and users looked for in the changed
 * headers only.
 */
void ud_api_diff_changed(const struct ud_api_pair *changed, size_t nchanged,
			 const struct ud_api_lookup *new_, struct ud_api_diff *diff);
/*
 * Types (structs, unions, enums, typedefs) a header of both versions no
 * longer sees through its #includes, directly or not (review: a program
 * that relied on that must include the defining header itself), or now
 * sees (compatible), as a compiler of that header alone sees them; both
 * sets sorted by path.
 */
void ud_api_diff_includes(struct ud_api_diff *diff, const struct ud_api_header *old, size_t nold,
			  const struct ud_api_header *new_, size_t nnew);
/*
 * Sets c's axes from its verdict and rule (what api_diff_add does): the
 * rule says which axis the verdict is on, the other gets what it implies.
 */
void ud_api_change_axes(struct ud_api_change *c);
/*
 * One entry per symbol and edit: the changes of one header and symbol
 * (changed, not added or removed) folded into the first, each axis the
 * worse of theirs with its rule, the verdict the worse of those, the
 * reasons joined.
 */
void ud_api_diff_fold(struct ud_api_diff *diff);
/* "binary", "source" */
const char *ud_api_axis_name(enum ud_api_axis a);
void ud_api_diff_free(struct ud_api_diff *diff);
const char *ud_api_verdict_name(enum ud_api_verdict v);
const char *ud_api_what_name(enum ud_api_what w);
/* "value", "member-moved", ...: the rule's stable name. */
const char *ud_api_rule_name(enum ud_api_rule r);

#endif /* UAPID_API_H */
