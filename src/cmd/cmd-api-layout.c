// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid api-layout [--json] [--arch ARCH] [--abi ABI] SOURCE [HEADER...]:
 * the size and alignment of every struct, union, enum and typedef of a
 * version's installed headers on a target ABI, and the offset of every
 * member (what api-diff's verdicts compare); --abis lists the ABIs.
 *
 * Exit status: 0, 1 when a HEADER named is not installed, 2 for bad
 * usage or input.
 */
#include <getopt.h>
#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "uapid/api/abi.h"
#include "uapid/api/api.h"
#include "uapid/api/load.h"
#include "uapid/util/xmalloc.h"

static const char layout_usage[] =
	"usage: uapid api-layout [--json] [--values] [--arch ARCH] [--abi ABI|all]\n"
	"                        [--as tree|installed] SOURCE [HEADER...]\n"
	"       uapid api-layout --abis\n"
	"  SOURCE: an installed-headers directory, a kernel tree, or REPO:REV\n"
	"  --values: every integer constant (macros, enum constants) with its value\n"
	"  --abi all: every ABI (of ARCH, for an installed-headers directory)\n";

static bool
laid_out(const struct ud_api_sym *s)
{
	return s->kind == UD_API_STRUCT || s->kind == UD_API_UNION || s->kind == UD_API_ENUM ||
	       s->kind == UD_API_TYPEDEF;
}

static void
print_abis(void)
{
	static const char *const names[UD_ABI__BASES] = {
		"_Bool",    "char",   "short", "int",	 "long",       "long long",
		"__int128", "void *", "float", "double", "long double"};
	const struct ud_abi *a;
	size_t i, k;

	for (i = 0; (a = ud_abi_at(i)) != NULL; i++) {
		printf("%s\t%s\t%s\n", a->name, a->arch, a->what);
		for (k = 0; k < UD_ABI__BASES; k++)
			if (a->t[k].size != 0)
				printf("\t%s %u/%u", names[k], a->t[k].size, a->t[k].align);
		printf("\n\tchar %s, %s-endian%s%s\n", a->char_unsigned ? "unsigned" : "signed",
		       a->big_endian ? "big" : "little",
		       a->unnamed_bitfields_align ? ", unnamed bit-fields align" : "",
		       a->bitfields_unaligned ? ", bit-fields unaligned" : "");
		printf("\tpredefines");
		for (k = 0; a->macros[k] != NULL; k++)
			printf(" %s", a->macros[k]);
		printf("\n");
	}
}

/* A field's offset for people: bytes, and ":bit" inside the byte for a bit-field. */
static void
print_field(const struct ud_api_field *f)
{
	char at[48], size[48];

	if (f->flags & UD_API_FIELD_BITFIELD) {
		snprintf(at, sizeof(at), "%llu:%llu", (unsigned long long)(f->offset / 8),
			 (unsigned long long)(f->offset % 8));
		snprintf(size, sizeof(size), ":%llu", (unsigned long long)f->size);
	} else {
		snprintf(at, sizeof(at), "%llu", (unsigned long long)(f->offset / 8));
		snprintf(size, sizeof(size), "%llu", (unsigned long long)(f->size / 8));
	}
	printf("\t%-8s %-6s %s  (%s)\n", at, size, f->path, f->type);
}

static json_t *
field_json(const struct ud_api_field *f)
{
	json_t *j =
		json_pack("{s:s, s:s, s:I, s:I}", "path", f->path, "type", f->type, "offset_bits",
			  (json_int_t)f->offset, "size_bits", (json_int_t)f->size);

	if (f->flags & UD_API_FIELD_BITFIELD)
		json_object_set_new(j, "bitfield", json_true());
	if (f->flags & UD_API_FIELD_FLEXIBLE)
		json_object_set_new(j, "flexible", json_true());
	if (f->flags & UD_API_FIELD_AGGREGATE)
		json_object_set_new(j, "aggregate", json_true());
	return j;
}

/* What one run prints, for one ABI after the other. */
struct layout_run {
	bool json, values;
	char **only; /* HEADER... named, or none */
	int nonly;
	bool *seen; /* per HEADER named: installed (on some ABI) */
};

/* A struct, union, enum or typedef's layout (or why none), for one symbol. */
static void
emit_layout(const struct ud_api_header *h, const struct ud_api_sym *sym, bool json, json_t *types,
	    json_t *unknown, size_t *nknown, size_t *nunknown)
{
	const struct ud_api_layout *l = sym->layout;
	size_t k;

	if (l == NULL) {
		(*nunknown)++;
		if (json)
			json_array_append_new(
				unknown,
				json_pack("{s:s, s:s, s:s, s:i, s:s}", "header", h->path, "name",
					  sym->name, "cond", sym->cond, "line", (int)sym->line,
					  "why", sym->layout_why != NULL ? sym->layout_why : ""));
		else
			printf("%s:%u: %s%s%s%s: layout not known: %s\n", h->path, sym->line,
			       sym->name, sym->cond[0] ? " [if " : "", sym->cond,
			       sym->cond[0] ? "]" : "",
			       sym->layout_why != NULL ? sym->layout_why : "?");
		return;
	}
	(*nknown)++;
	if (json) {
		json_t *f = json_array();

		for (k = 0; k < l->nfields; k++)
			json_array_append_new(f, field_json(&l->fields[k]));
		json_array_append_new(types,
				      json_pack("{s:s, s:i, s:s, s:s, s:s, s:I, s:I, s:o}",
						"header", h->path, "line", (int)sym->line, "kind",
						ud_api_kind_name(sym->kind), "name", sym->name,
						"cond", sym->cond, "size", (json_int_t)l->size,
						"align", (json_int_t)l->align, "fields", f));
		return;
	}
	printf("%s:%u: %s%s%s%s: size %llu, align %llu\n", h->path, sym->line, sym->name,
	       sym->cond[0] ? " [if " : "", sym->cond, sym->cond[0] ? "]" : "",
	       (unsigned long long)l->size, (unsigned long long)l->align);
	for (k = 0; k < l->nfields; k++)
		print_field(&l->fields[k]);
}

/* An integer constant: a macro or enum constant whose value the model computed. */
static bool
is_constant(const struct ud_api_sym *s)
{
	return (s->kind == UD_API_MACRO || s->kind == UD_API_ENUM_CONST) && s->has_value &&
	       s->undef_line == 0;
}

static void
emit_constant(const struct ud_api_header *h, const struct ud_api_sym *sym, bool json,
	      json_t *constants)
{
	char value[32];

	if (sym->value_unsigned)
		snprintf(value, sizeof(value), "%llu", (unsigned long long)sym->value);
	else
		snprintf(value, sizeof(value), "%lld", sym->value);
	if (json) {
		/* the value as a string too: a JSON number loses 64-bit values in most readers */
		json_t *c = json_pack("{s:s, s:i, s:s, s:s, s:s, s:b, s:s}", "header", h->path,
				      "line", (int)sym->line, "kind", ud_api_kind_name(sym->kind),
				      "name", sym->name, "value", value, "unsigned",
				      sym->value_unsigned, "cond", sym->cond);

		if (sym->is_ioctl)
			json_object_set_new(c, "ioctl", json_true());
		json_array_append_new(constants, c);
		return;
	}
	printf("%s:%u: %s = %s%s%s%s\n", h->path, sym->line, sym->name, value,
	       sym->cond[0] ? " [if " : "", sym->cond, sym->cond[0] ? "]" : "");
}

/*
 * The layouts (or the values) of version s read for abi: printed, or with
 * json returned as one document.
 */
static json_t *
emit_abi(struct layout_run *run, const struct ud_api_version *s, const struct ud_abi *abi)
{
	json_t *items = run->json ? json_array() : NULL, *unknown = NULL, *doc = NULL;
	size_t i, j, nknown = 0, nunknown = 0;

	if (run->json && !run->values)
		unknown = json_array();
	if (!run->json)
		printf("abi: %s (%s); %s, %zu headers\n", abi->name, abi->what, s->what, s->n);
	for (i = 0; i < s->n; i++) {
		const struct ud_api_header *h = &s->v[i];

		if (run->nonly > 0) {
			int k;

			for (k = 0; k < run->nonly && strcmp(run->only[k], h->path) != 0; k++)
				;
			if (k == run->nonly)
				continue;
			run->seen[k] = true;
		}
		for (j = 0; j < h->n; j++) {
			const struct ud_api_sym *sym = &h->v[j];

			if (run->values && is_constant(sym)) {
				emit_constant(h, sym, run->json, items);
				nknown++;
			} else if (!run->values && laid_out(sym)) {
				emit_layout(h, sym, run->json, items, unknown, &nknown, &nunknown);
			}
		}
	}
	if (run->values) {
		if (run->json)
			doc = json_pack("{s:s, s:s, s:i, s:I, s:o}", "abi", abi->name, "source",
					s->what, "headers", (int)s->n, "count", (json_int_t)nknown,
					"constants", items);
		else
			printf("constants: %zu\n", nknown);
	} else if (run->json) {
		doc = json_pack("{s:s, s:s, s:i, s:I, s:I, s:o, s:o}", "abi", abi->name, "source",
				s->what, "headers", (int)s->n, "known", (json_int_t)nknown,
				"unknown_count", (json_int_t)nunknown, "types", items, "unknown",
				unknown);
	} else {
		printf("layouts: %zu known, %zu not known\n", nknown, nunknown);
	}
	return doc;
}

static void
print_json_doc(json_t *doc)
{
	char *text = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);

	puts(text);
	free(text);
	json_decref(doc);
}

int
cmd_api_layout(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'},      {"arch", required_argument, NULL, 'a'},
		{"abi", required_argument, NULL, 'b'}, {"abis", no_argument, NULL, 'l'},
		{"values", no_argument, NULL, 'V'},    {"as", required_argument, NULL, 'A'},
		{"help", no_argument, NULL, 'h'},      {NULL, 0, NULL, 0},
	};
	struct api_opts ao = {false, NULL, NULL};
	struct layout_run run = {false, false, NULL, 0, NULL};
	const struct ud_abi *abi, *each;
	json_t *all = NULL;
	bool every;
	size_t i, done = 0;
	int opt, rc = EXIT_OK;

	while ((opt = getopt_long(argc, argv, "ja:b:lh", longopts, NULL)) != -1) {
		if (api_opts_take(&ao, opt, optarg))
			continue;
		switch (opt) {
		case 'l':
			print_abis();
			return EXIT_OK;
		case 'V':
			run.values = true;
			break;
		case 'A':
			if (cmd_input_force(optarg) < 0)
				return EXIT_USAGE;
			break;
		case 'h':
			fputs(layout_usage, stdout);
			return EXIT_OK;
		default:
			fputs(layout_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind < 1) {
		fputs(layout_usage, stderr);
		return EXIT_USAGE;
	}
	every = ao.abi != NULL && strcmp(ao.abi, "all") == 0;
	if (every)
		ao.abi = NULL;
	if (api_opts_target(&ao, false, &abi) < 0)
		return EXIT_USAGE;
	run.json = ao.json;
	run.only = argv + optind + 1;
	run.nonly = argc - optind - 1;
	run.seen = ud_xcalloc((size_t)run.nonly + 1, sizeof(*run.seen));
	git_libgit2_init();
	if (run.json)
		report_keep();
	if (every)
		all = json_array();
	/*
	 * Every ABI: a kernel tree is installed for each one's architecture;
	 * a directory of installed headers holds one architecture's, --arch's.
	 */
	for (i = 0; (each = every ? ud_abi_at(i) : i == 0 ? abi : NULL) != NULL; i++) {
		struct ud_api_version s;
		json_t *doc;

		if (every && !api_side_for_arch(argv[optind], each->arch, ao.arch))
			continue;
		if (api_side_load(&s, argv[optind], each->arch, NULL) < 0) {
			ud_api_version_free(&s);
			if (every && done > 0)
				continue; /* an architecture this tree does not have */
			report_json_failure(argv[optind]);
			json_decref(all);
			free(run.seen);
			git_libgit2_shutdown();
			return EXIT_USAGE;
		}
		ud_api_resolve(s.v, s.n, each);
		doc = emit_abi(&run, &s, each);
		if (every && doc != NULL)
			json_array_append_new(all, doc);
		else if (doc != NULL)
			print_json_doc(doc);
		ud_api_version_free(&s);
		done++;
	}
	if (every && run.json)
		print_json_doc(json_pack("{s:s, s:o}", "source", argv[optind], "abis", all));
	else
		json_decref(all);
	git_libgit2_shutdown();
	/* each HEADER named that is not there, by its name */
	for (i = 0; i < (size_t)run.nonly; i++)
		if (!run.seen[i]) {
			report_error("%s: not installed in %s (HEADER is named as installed: "
				     "linux/types.h, asm/unistd.h)",
				     run.only[i], argv[optind]);
			rc = EXIT_FINDINGS;
		}
	free(run.seen);
	return rc;
}
