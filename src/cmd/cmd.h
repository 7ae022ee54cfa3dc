/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Commands of the uapid program: one file per command, each an entry in
 * the table of uapid.c.  Internal to the programs (not a public header).
 */
#ifndef UAPID_CMD_H
#define UAPID_CMD_H

#include <git2.h>
#include <jansson.h>
#include <stdio.h>

#include "uapid/util/diag.h"
#include "uapid/io/headers.h"
#include "uapid/io/source.h"
#include "uapid/io/tree.h"
#include "uapid/io/treekind.h"

/* Exit statuses shared by every command. */
#define EXIT_OK 0
#define EXIT_FINDINGS 1 /* some input had an error, or needs coaching */
#define EXIT_USAGE 2	/* bad usage or an I/O error */

struct cmd_entry {
	const char *name;
	const char *usage;   /* after "uapid ": the man page's synopsis of it */
	const char *summary; /* one line, for uapid --help */
	const char *about;   /* a paragraph, for uapid COMMAND --help */
	const char *example; /* one command line */
	int (*run)(int argc, char **argv);
};

int cmd_classify(int argc, char **argv);
int cmd_split(int argc, char **argv);
int cmd_fix_includes(int argc, char **argv);
int cmd_install(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_branch(int argc, char **argv);
int cmd_api_diff(int argc, char **argv);
int cmd_api_layout(int argc, char **argv);
int cmd_api_log(int argc, char **argv);
int cmd_check_uapi(int argc, char **argv);
/* The kinds of input a command reads (cmd-input.c), bits of enum ud_treekind. */
#define CMD_TREES ((1u << UD_TREEKIND_SPLIT) | (1u << UD_TREEKIND_PRESPLIT))
#define CMD_INSTALLED (1u << UD_TREEKIND_INSTALLED)
/*
 * What path is, in *ti (free it with ud_treeinfo_free whatever this
 * returns); a kind not in accept is reported, with a hint saying what to
 * give, and -1.  --as (cmd_input_force) overrides what it looks like.
 */
int cmd_input(const char *path, unsigned accept, struct ud_treeinfo *ti);
/* --as tree|installed of api-diff and api-layout: -1 after reporting a bad word. */
int cmd_input_force(const char *as);
/* "PATH (split source tree, Linux 6.1.0, headers_install.sh, arch x86)" (malloc'd). */
char *cmd_input_what(const char *path, const struct ud_treeinfo *ti, const char *arch);
/* "LABEL: " and that, a command's first line. */
void cmd_input_print(FILE *f, const char *label, const char *path, const struct ud_treeinfo *ti,
		     const char *arch);
/* The same as a JSON object (new reference): path, kind, root, version, generation, arch. */
json_t *cmd_input_json(const char *path, const struct ud_treeinfo *ti, const char *arch);
/*
 * A numeric option's argument: a decimal number in [min, max] into *out;
 * else reports "OPT: 'ARG' is not a number from MIN to MAX" and -1 (a
 * usage error: `check --jobs abc` ran on every core).
 */
int cmd_parse_count(const char *opt, const char *arg, unsigned min, unsigned max, unsigned *out);
/* The host's kernel ARCH name (x86, arm64, ...). */
const char *cmd_default_arch(void);
/* A tree opened for its installed headers. */
struct cmd_plan {
	struct ud_tree tree;
	struct ud_source src;
	struct ud_hdr_plan plan;
};

/*
 * Opens the tree and computes its installed-headers plan for arch (the
 * host's when NULL); on failure reports why and returns -1 with nothing
 * left to free.
 */
int cmd_open_plan(const char *tree_arg, const char *arch, struct cmd_plan *p);
void cmd_close_plan(struct cmd_plan *p);
/*
 * The repository of `uapid branch` and `uapid api-log` opened (libgit2
 * started, caching trees: git_libgit2_shutdown follows, whatever this
 * returns), and the directory of their state in *dir: state_dir, or
 * uapid/ in the repository's git directory (one store for both).
 * Reports what failed and returns -1.
 */
int cmd_open_history(const char *path, const char *state_dir, git_repository **repo, char **dir);

#include "uapid/api/load.h"

struct ud_abi;
struct ud_progress;
/*
 * Reads spec (an installed-headers directory, a kernel tree or REPO:REV,
 * installed for arch) into v (api/load.h); reports what failed and
 * returns -1.  progress (or NULL) counts the headers as they are read or
 * installed.
 */
int api_side_load(struct ud_api_version *v, const char *spec, const char *arch,
		  struct ud_progress *progress);
/* uapid api-diff --arch all OLD NEW (api-diff-all.c): the exit status. */
int api_diff_all(const char *old_spec, const char *new_spec, bool json);
/*
 * Whether spec has arch's headers: a kernel tree its arch/ARCH, a
 * directory of installed headers those of installed_arch alone (one
 * architecture's), REPO:REV any (its install says).
 */
bool api_side_for_arch(const char *spec, const char *arch, const char *installed_arch);
/*
 * What api/load.h's threads run first: a parsing or resolving thread's
 * share of the huge-page heap (hugeheap.h) that api_side_load sets up.
 */
void api_thread_start(enum ud_api_thread role);
/*
 * The same for two versions, the models of both made at once; *failed is
 * the spec that failed (the old one first), else NULL.  n is cleared
 * first (ud_api_version_free is safe on both after a failure).
 * progress[0] and progress[1] (or NULL) count each version's headers as
 * they are read.  known (or NULL): models of earlier loads to copy, where a
 * text is the same (api/load.h).
 */
int api_side_load_pair(struct ud_api_version *o, const char *old_spec, struct ud_api_version *n,
		       const char *new_spec, const char *arch, struct ud_progress *progress[2],
		       struct ud_api_models *known, const char **failed);
/* The options api-diff and api-layout share: --json, --arch, --abi. */
struct api_opts {
	bool json;
	const char *arch, *abi; /* as given, or NULL */
};
/* Takes getopt's opt (and its argument) when it is one of them: true. */
bool api_opts_take(struct api_opts *o, int opt, const char *arg);
/*
 * Settles the target: o->arch defaults to the host's, the ABI to the
 * architecture's; "none" (when none_ok) reads no ABI (*abi NULL).
 * Reports an unknown ABI and returns -1.
 */
int api_opts_target(struct api_opts *o, bool none_ok, const struct ud_abi **abi);
/* Prints "path:line: severity: message" for each diagnostic. */
void report_diags(FILE *f, const char *path, const struct ud_diags *d);
/* The diagnostics as a JSON array (new reference). */
json_t *report_diags_json(const struct ud_diags *d);
/* Prints a JSON value as one line on stdout and drops the reference. */
void report_json_line(json_t *v);
/* "uapid: message" on stderr. */
void report_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * "uapid: hint: message" on stderr: what the user can change so that a
 * command that stopped goes on (not kept for --json: the error is).
 */
void report_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * --json: from now on report_error and report_diags(stderr, ...) also keep
 * what they print, so that the command's JSON carries every diagnostic
 * (what ends a run before its summary included).
 */
void report_keep(void);
/* What was kept since report_keep (the caller may move it away), or NULL. */
struct ud_diags *report_kept(void);
/*
 * A run that stops before its summary: with report_keep, one JSON line on
 * stdout, {"error": the first error, "diagnostics": [...]}, for what.
 */
void report_json_failure(const char *what);

#endif /* UAPID_CMD_H */
