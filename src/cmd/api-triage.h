/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `uapid api-diff` does with a diff once it has it, for a person
 * triaging it: selecting changes (--verdict, --header, --symbol), a
 * roll-up per header (--summary), accepted breaks (--accept FILE,
 * accept.h), and the report as text (one entry per symbol, its conditions
 * listed, long reasons cut), JSON (whole) or one HTML page (--html FILE,
 * report-html.c).  Everything but the definitions reads the diff's JSON,
 * so a field the diff grows (a second verdict axis) reaches every form.
 */
#ifndef UAPID_API_TRIAGE_H
#define UAPID_API_TRIAGE_H

#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>

#include "uapid/proto/accept.h"
#include "uapid/util/strlist.h"

struct ud_api_version;
struct ud_api_diff;

/* getopt values of the options, past any letter */
enum {
	TRIAGE_OPT_VERDICT = 0x100,
	TRIAGE_OPT_HEADER,
	TRIAGE_OPT_SYMBOL,
	TRIAGE_OPT_SUMMARY,
	TRIAGE_OPT_ACCEPT,
	TRIAGE_OPT_HTML,
};

#define TRIAGE_LONGOPTS                                                                            \
	{"verdict", required_argument, NULL, TRIAGE_OPT_VERDICT},                                  \
		{"header", required_argument, NULL, TRIAGE_OPT_HEADER},                            \
		{"symbol", required_argument, NULL, TRIAGE_OPT_SYMBOL},                            \
		{"summary", no_argument, NULL, TRIAGE_OPT_SUMMARY},                                \
		{"accept", required_argument, NULL, TRIAGE_OPT_ACCEPT},                            \
	{                                                                                          \
		"html", required_argument, NULL, TRIAGE_OPT_HTML                                   \
	}

#define TRIAGE_USAGE                                                                               \
	"  --verdict V[,V]:  show only these verdicts (breaking, review, compatible,\n"            \
	"                    accepted)\n"                                                          \
	"  --header GLOB, --symbol GLOB: only these headers, symbols (repeatable);\n"              \
	"                    the exit status then counts only what they select\n"                  \
	"  --summary:        one line per changed header, its counts by verdict\n"                 \
	"  --accept FILE:    lines HEADER SYMBOL RULE REASON: those changes are accepted\n"        \
	"  --html FILE:      also write the report as one self-contained HTML page\n"

struct triage_opts {
	unsigned verdicts; /* 1 << index in triage_verdicts of each shown; 0: all */
	struct ud_strlist headers, symbols;
	bool summary, json, bad;
	const char *accept_file, *html;
	struct ud_accept accept; /* read by triage_prepare */
	bool have_accept;
};

/* The verdict names, in severity order: "compatible", "review", "breaking", "accepted". */
extern const char *const triage_verdicts[4];

/* Takes getopt's opt when it is one of TRIAGE_LONGOPTS: true (a bad value sets t->bad). */
bool triage_opts_take(struct triage_opts *t, int opt, const char *arg);
/* Reads the accept file: -1 after saying why. */
int triage_prepare(struct triage_opts *t);
void triage_opts_free(struct triage_opts *t);
/*
 * The report while the models are still there: the diff as JSON (what
 * was compared in "old" and "new"), the accepted changes marked, and for
 * --html each change's definitions in both versions ("old_definition",
 * "new_definition").  New reference.
 */
json_t *triage_make(struct triage_opts *t, const struct ud_api_version *o,
		    const struct ud_api_version *n, const struct ud_api_diff *d);
/*
 * Prints the report (text, --summary, --json) and writes --html; returns
 * the exit status: 1 when a change selected by --header and --symbol is
 * still breaking, 2 when the page cannot be written, else 0.
 */
int triage_print(const struct triage_opts *t, json_t *report);
/* Does change c pass the filters (verdicts included when with_verdict)? */
bool triage_selects(const struct triage_opts *t, json_t *c, bool with_verdict);
/*
 * Counts by verdict of the selected changes, per header in path order:
 * [{"header", "changes", "breaking", "review", "compatible", "accepted"}]
 * (new reference).
 */
json_t *triage_rollup(const struct triage_opts *t, json_t *changes);
/* One change as the text report shows it ("HEADER:LINE: VERDICT: SYMBOL: REASON"), to b. */
struct ud_buf;
void triage_change_line(struct ud_buf *b, json_t *c);
/* A change's symbol without its condition (malloc'd; "" for the header's own). */
char *triage_bare_symbol(json_t *c);

/* report-html.c: the page of an API diff, written atomically; -1 with *cause. */
int report_html_diff(const char *path, json_t *report, const struct triage_opts *t, char **cause);
/* The page of api-log's answers (a timeline per symbol); -1 with *cause. */
int report_html_log(const char *path, const char *repo, json_t *answers, char **cause);

#endif /* UAPID_API_TRIAGE_H */
