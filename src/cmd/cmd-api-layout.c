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
#include "uapid/util/xmalloc.h"

static const char layout_usage[] =
	"usage: uapid api-layout [--json] [--arch ARCH] [--abi ABI] SOURCE [HEADER...]\n"
	"       uapid api-layout --abis\n"
	"  SOURCE: an installed-headers directory, a kernel tree, or REPO:REV\n";

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

static bool
wanted(const char *path, char **only, int nonly)
{
	int i;

	if (nonly == 0)
		return true;
	for (i = 0; i < nonly; i++)
		if (strcmp(only[i], path) == 0)
			return true;
	return false;
}

int
cmd_api_layout(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'},
		{"arch", required_argument, NULL, 'a'},
		{"abi", required_argument, NULL, 'b'},
		{"abis", no_argument, NULL, 'l'},
		{"as", required_argument, NULL, 'A'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct api_opts ao = {false, NULL, NULL};
	const struct ud_abi *abi;
	struct api_side s;
	json_t *types = NULL, *unknown = NULL;
	size_t i, j, k, nunknown = 0, nknown = 0;
	int opt, found = 0;

	while ((opt = getopt_long(argc, argv, "ja:b:lh", longopts, NULL)) != -1) {
		if (api_opts_take(&ao, opt, optarg))
			continue;
		switch (opt) {
		case 'l':
			print_abis();
			return EXIT_OK;
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
	if (api_opts_target(&ao, false, &abi) < 0)
		return EXIT_USAGE;
	git_libgit2_init();
	if (ao.json)
		report_keep();
	if (api_side_load(&s, argv[optind], ao.arch, NULL) < 0) {
		report_json_failure(argv[optind]);
		api_side_free(&s);
		git_libgit2_shutdown();
		return EXIT_USAGE;
	}
	ud_api_resolve(s.v, s.n, abi);
	if (ao.json) {
		types = json_array();
		unknown = json_array();
	} else {
		printf("abi: %s (%s); %s, %zu headers\n", abi->name, abi->what, s.what, s.n);
	}
	for (i = 0; i < s.n; i++) {
		const struct ud_api_header *h = &s.v[i];

		if (!wanted(h->path, argv + optind + 1, argc - optind - 1))
			continue;
		found++;
		for (j = 0; j < h->n; j++) {
			const struct ud_api_sym *sym = &h->v[j];
			const struct ud_api_layout *l = sym->layout;

			if (!laid_out(sym))
				continue;
			if (l == NULL) {
				nunknown++;
				if (ao.json)
					json_array_append_new(
						unknown,
						json_pack("{s:s, s:s, s:s, s:i, s:s}", "header",
							  h->path, "name", sym->name, "cond",
							  sym->cond, "line", (int)sym->line, "why",
							  sym->layout_why != NULL ? sym->layout_why
										  : ""));
				else
					printf("%s:%u: %s%s%s%s: layout not known: %s\n", h->path,
					       sym->line, sym->name, sym->cond[0] ? " [if " : "",
					       sym->cond, sym->cond[0] ? "]" : "",
					       sym->layout_why != NULL ? sym->layout_why : "?");
				continue;
			}
			nknown++;
			if (ao.json) {
				json_t *f = json_array();

				for (k = 0; k < l->nfields; k++)
					json_array_append_new(f, field_json(&l->fields[k]));
				json_array_append_new(
					types,
					json_pack("{s:s, s:i, s:s, s:s, s:s, s:I, s:I, s:o}",
						  "header", h->path, "line", (int)sym->line, "kind",
						  ud_api_kind_name(sym->kind), "name", sym->name,
						  "cond", sym->cond, "size", (json_int_t)l->size,
						  "align", (json_int_t)l->align, "fields", f));
				continue;
			}
			printf("%s:%u: %s%s%s%s: size %llu, align %llu\n", h->path, sym->line,
			       sym->name, sym->cond[0] ? " [if " : "", sym->cond,
			       sym->cond[0] ? "]" : "", (unsigned long long)l->size,
			       (unsigned long long)l->align);
			for (k = 0; k < l->nfields; k++)
				print_field(&l->fields[k]);
		}
	}
	if (ao.json) {
		json_t *top = json_pack("{s:s, s:s, s:i, s:I, s:I, s:o, s:o}", "abi", abi->name,
					"source", s.what, "headers", (int)s.n, "known",
					(json_int_t)nknown, "unknown_count", (json_int_t)nunknown,
					"types", types, "unknown", unknown);
		char *text = json_dumps(top, JSON_INDENT(1) | JSON_PRESERVE_ORDER);

		puts(text);
		free(text);
		json_decref(top);
	} else {
		printf("layouts: %zu known, %zu not known\n", nknown, nunknown);
	}
	if (argc - optind > 1 && found < argc - optind - 1) {
		/* each HEADER named that is not there, by its name */
		for (k = (size_t)optind + 1; k < (size_t)argc; k++) {
			for (i = 0; i < s.n && strcmp(s.v[i].path, argv[k]) != 0; i++)
				;
			if (i == s.n)
				report_error("%s: not installed in %s (HEADER is named as "
					     "installed: linux/types.h, asm/unistd.h)",
					     argv[k], argv[optind]);
		}
		api_side_free(&s);
		git_libgit2_shutdown();
		return EXIT_FINDINGS;
	}
	api_side_free(&s);
	git_libgit2_shutdown();
	return EXIT_OK;
}
