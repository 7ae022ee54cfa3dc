// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HTML reports (api-triage.h): one self-contained page each, as ABI
 * Compliance Checker writes one per library version pair: no network, no
 * external script, style sheet or font; a few lines of inline script sort
 * the headers table and filter by verdict, and the page reads whole
 * without them.  Written atomically (a temporary file, then rename), so a
 * web server or a CI artifact never shows half a page.
 *
 * The elements a test reads: #n-VERDICT (data-n: that verdict's count in
 * the whole diff), tr.change (data-verdict) per change shown, and, when
 * the changes carry a second verdict axis ("binary" and "source"), #axes
 * with #n-binary-VALUE and #n-source-VALUE; body's data-js="ok" once the
 * script has run to its end (a browser test reads that).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api-triage.h"
#include "cmd.h"
#include "uapid/api/api.h"
#include "uapid/io/fsutil.h"
#include "uapid/util/buf.h"
#include "uapid/util/xmalloc.h"

static const char *
str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "";
}

static long long
num(json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

/* s, with what HTML reads as markup escaped */
static void
esc(struct ud_buf *b, const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&':
			ud_buf_addstr(b, "&amp;");
			break;
		case '<':
			ud_buf_addstr(b, "&lt;");
			break;
		case '>':
			ud_buf_addstr(b, "&gt;");
			break;
		case '"':
			ud_buf_addstr(b, "&quot;");
			break;
		default:
			ud_buf_addch(b, *s);
		}
	}
}

static const char style[] =
	"<style>\n"
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
	"margin:0;color:#1d2330;background:#f6f7f9}\n"
	"header{background:#24304a;color:#fff;padding:14px 24px}\n"
	"header h1{margin:0 0 6px;font-size:21px}header .pair{margin:0;font-size:13px;opacity:.9}\n"
	"main{padding:8px 24px 40px}h2{font-size:17px;margin:22px 0 8px}\n"
	"h3{font-size:15px;margin:20px 0 6px;font-family:'DejaVu Sans Mono',monospace}\n"
	"table{border-collapse:collapse;background:#fff;box-shadow:0 1px 2px rgba(0,0,0,.08)}\n"
	"th,td{border:1px solid #dde1e8;padding:4px 8px;vertical-align:top;text-align:left}\n"
	"th{background:#eef1f6;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"table.sortable th{cursor:pointer;user-select:none}table.sortable th:after{content:' \\2195';"
	"color:#99a}\n"
	".cards{display:flex;gap:12px;flex-wrap:wrap}.card{background:#fff;border-radius:6px;"
	"padding:10px 16px;min-width:130px;box-shadow:0 1px 2px rgba(0,0,0,.1);border-top:4px solid "
	"#999}\n"
	".card .big{font-size:26px;font-weight:700}.card .pct{font-size:12px;color:#667}\n"
	".card.v-breaking{border-color:#c62828}.card.v-review{border-color:#ef8f00}"
	".card.v-compatible{border-color:#2e7d32}.card.v-accepted{border-color:#5c6bc0}\n"
	".badge{display:inline-block;border-radius:3px;padding:0 6px;color:#fff;font-size:12px;"
	"font-weight:600}\n"
	".b-breaking{background:#c62828}.b-review{background:#ef8f00}"
	".b-compatible,.b-ok{background:#2e7d32}.b-accepted{background:#5c6bc0}\n"
	"td.z{color:#bbb}pre{margin:0;white-space:pre-wrap;word-break:break-word;"
	"font:12px/1.35 'DejaVu Sans Mono',monospace}\n"
	"table.changes{width:100%;table-layout:fixed}table.changes td{overflow-wrap:anywhere}\n"
	"table.changes td.sym{font-family:'DejaVu Sans Mono',monospace}\n"
	"col.c-sym{width:17%}col.c-v{width:10%}col.c-rule{width:8%}col.c-why{width:21%}"
	"col.c-def{width:22%}\n"
	".scroll{max-height:360px;overflow:auto;display:inline-block}\n"
	"small{color:#667}.filters label{margin-right:14px}\n"
	".hide-breaking .v-breaking,.hide-review .v-review,.hide-compatible .v-compatible,"
	".hide-accepted .v-accepted{display:none}\n"
	"ol.timeline{list-style:none;padding-left:18px;border-left:3px solid #c9cfdb}\n"
	"ol.timeline li{position:relative;margin:0 0 10px;padding:6px 10px;background:#fff;"
	"border-radius:5px;box-shadow:0 1px 2px rgba(0,0,0,.08)}\n"
	"ol.timeline li:before{content:'';position:absolute;left:-26px;top:11px;width:11px;"
	"height:11px;border-radius:50%;background:#24304a}\n"
	".rel{font-weight:700;margin-right:8px}code{font-family:'DejaVu Sans Mono',monospace}\n"
	"</style>\n";

/* sorting a table by a header cell; hiding the rows of a verdict */
static const char script[] =
	"<script>\n"
	"document.querySelectorAll('table.sortable').forEach(function(t){\n"
	" t.querySelectorAll('th').forEach(function(th,col){\n"
	"  th.addEventListener('click',function(){\n"
	"   var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows),num=th.dataset.type==='n';\n"
	"   var dir=th.dataset.dir==='1'?-1:1;th.dataset.dir=dir===1?'1':'0';\n"
	"   rows.sort(function(x,y){var a=x.cells[col].textContent,c=y.cells[col].textContent;\n"
	"    return dir*(num?(+a)-(+c):a.localeCompare(c));});\n"
	"   rows.forEach(function(r){b.appendChild(r);});});});});\n"
	"document.querySelectorAll('.filters input').forEach(function(cb){\n"
	" cb.addEventListener('change',function(){\n"
	"  document.body.classList.toggle('hide-'+cb.dataset.v,!cb.checked);});});\n"
	"document.body.dataset.js='ok';\n"
	"</script>\n";

static void
page_start(struct ud_buf *b, const char *title, const char *pair)
{
	ud_buf_addstr(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			 "<meta name=\"viewport\" content=\"width=device-width\">\n<title>");
	esc(b, title);
	ud_buf_addstr(b, "</title>\n");
	ud_buf_addstr(b, style);
	ud_buf_addstr(b, "</head>\n<body>\n<header><h1>");
	esc(b, title);
	ud_buf_addstr(b, "</h1><p class=\"pair\">");
	ud_buf_addstr(b, pair);
	ud_buf_addstr(b, "</p></header>\n<main>\n");
}

static int
page_end(struct ud_buf *b, const char *path, char **cause)
{
	char when[64];
	time_t now = time(NULL);
	struct tm tm;
	int rc;

	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", gmtime_r(&now, &tm));
	ud_buf_addf(b, "<p><small>made by uapid %s, %s</small></p>\n</main>\n", PACKAGE_VERSION,
		    when);
	ud_buf_addstr(b, script);
	ud_buf_addstr(b, "</body>\n</html>\n");
	rc = ud_write_file(path, b->data, b->len, 0, cause);
	ud_buf_free(b);
	return rc < 0 ? -1 : 0;
}

/* the verdicts as the page lists them, worst first */
static const char *const shown[] = {"breaking", "review", "compatible", "accepted"};

/* The changes' counts on one axis ("binary": "breaking", ...), or NULL without one. */
static json_t *
axis_counts(json_t *changes, const char *axis)
{
	json_t *counts = json_object(), *c;
	size_t i;
	bool any = false;

	json_array_foreach(changes, i, c)
	{
		const char *v = json_string_value(json_object_get(c, axis));

		if (v == NULL)
			continue;
		any = true;
		json_object_set_new(counts, v, json_integer(num(counts, v) + 1));
	}
	if (!any) {
		json_decref(counts);
		return NULL;
	}
	return counts;
}

static void
summary_section(struct ud_buf *b, json_t *r, json_t *heads)
{
	json_t *s = json_object_get(r, "summary"), *changes = json_object_get(r, "changes");
	json_t *bin = axis_counts(changes, "binary"), *src = axis_counts(changes, "source"), *h;
	long long total = 0, nh = (long long)json_array_size(heads);
	size_t v, i;

	for (v = 0; v < 4; v++)
		total += num(s, shown[v]);
	ud_buf_addstr(b, "<section id=\"summary\"><h2>Summary</h2>\n<div class=\"cards\">\n");
	for (v = 0; v < 4; v++) {
		const char *name = shown[v];
		long long affected = 0;

		if (v == 3 && json_object_get(s, "accepted") == NULL)
			continue;
		json_array_foreach(heads, i, h) affected += num(h, name) > 0;
		ud_buf_addf(b,
			    "<div class=\"card v-%s\"><div>%s</div><div class=\"big\" id=\"n-%s\" "
			    "data-n=\"%lld\">%lld</div><div class=\"pct\">%.1f%% of changes; %lld "
			    "header%s</div></div>\n",
			    name, name, name, num(s, name), num(s, name),
			    total > 0 ? 100.0 * (double)num(s, name) / (double)total : 0.0,
			    affected, affected == 1 ? "" : "s");
	}
	ud_buf_addstr(b, "</div>\n");
	if (bin != NULL || src != NULL) {
		static const char *const values[] = {"breaking", "review", "ok"};
		static const char *const axes[] = {"binary", "source"};
		json_t *ax[2] = {bin, src};
		size_t a, k;

		ud_buf_addstr(b, "<h2>By axis</h2>\n<table id=\"axes\"><tr><th>axis</th>");
		for (k = 0; k < 3; k++)
			ud_buf_addf(b, "<th>%s</th>", values[k]);
		ud_buf_addstr(b, "</tr>\n");
		for (a = 0; a < 2; a++) {
			ud_buf_addf(b, "<tr><th>%s</th>", axes[a]);
			for (k = 0; k < 3; k++)
				ud_buf_addf(
					b,
					"<td class=\"n\" id=\"n-%s-%s\" data-n=\"%lld\">%lld</td>",
					axes[a], values[k], num(ax[a], values[k]),
					num(ax[a], values[k]));
			ud_buf_addstr(b, "</tr>\n");
		}
		ud_buf_addstr(b, "</table>\n");
	}
	ud_buf_addf(b,
		    "<p>headers: %lld changed, %lld added, %lld removed; symbols: %lld added, %lld "
		    "removed, %lld changed; %lld headers with changes shown.</p>\n",
		    num(s, "headers_changed"), num(s, "headers_added"), num(s, "headers_removed"),
		    num(s, "symbols_added"), num(s, "symbols_removed"), num(s, "symbols_changed"),
		    nh);
	ud_buf_addstr(b, "</section>\n");
	json_decref(bin);
	json_decref(src);
}

static void
headers_section(struct ud_buf *b, json_t *heads)
{
	json_t *h;
	size_t i, v;

	ud_buf_addstr(b, "<section id=\"headers\"><h2>Headers</h2>\n<p class=\"filters\">show: ");
	for (v = 0; v < 4; v++)
		ud_buf_addf(b, "<label><input type=\"checkbox\" data-v=\"%s\" checked> %s</label>",
			    shown[v], shown[v]);
	ud_buf_addstr(
		b, "</p>\n<div class=\"scroll\"><table class=\"sortable\" id=\"htable\"><thead><tr>"
		   "<th data-type=\"s\">header</th>");
	for (v = 0; v < 4; v++)
		ud_buf_addf(b, "<th data-type=\"n\">%s</th>", shown[v]);
	ud_buf_addstr(b, "<th data-type=\"n\">changes</th></tr></thead>\n<tbody>\n");
	json_array_foreach(heads, i, h)
	{
		ud_buf_addf(b, "<tr><td><a href=\"#h-%zu\">", i);
		esc(b, str(h, "header"));
		ud_buf_addstr(b, "</a></td>");
		for (v = 0; v < 4; v++)
			ud_buf_addf(b, "<td class=\"n%s\">%lld</td>",
				    num(h, shown[v]) == 0 ? " z" : "", num(h, shown[v]));
		ud_buf_addf(b, "<td class=\"n\">%lld</td></tr>\n", num(h, "changes"));
	}
	ud_buf_addstr(b, "</tbody></table></div>\n</section>\n");
}

static void
change_row(struct ud_buf *b, json_t *c)
{
	const char *v = str(c, "verdict"),
		   *cond = json_string_value(json_object_get(c, "condition"));
	char *sym = triage_bare_symbol(c);
	long long ol = num(c, "old_line"), nl = num(c, "new_line");
	const char *kind = ud_api_kind_shown(str(c, "kind"), sym);

	ud_buf_addf(b, "<tr class=\"change v-%s\" data-verdict=\"%s\"><td class=\"sym\">", v, v);
	if (sym[0] == '\0') {
		ud_buf_addstr(b, "<i>the header</i>");
	} else {
		if (kind[0] != '\0')
			ud_buf_addf(b, "<small>%s</small> ", kind);
		esc(b, sym);
	}
	if (cond != NULL) {
		ud_buf_addstr(b, "<br><small>if ");
		esc(b, cond);
		ud_buf_addstr(b, "</small>");
	}
	ud_buf_addstr(b, "<br><small>");
	if (ol > 0)
		ud_buf_addf(b, "old :%lld ", ol);
	if (nl > 0)
		ud_buf_addf(b, "new :%lld", nl);
	ud_buf_addf(b, "</small></td><td><span class=\"badge b-%s\">%s</span>", v, v);
	if (json_is_string(json_object_get(c, "binary")))
		ud_buf_addf(b, "<br><small>binary</small> <span class=\"badge b-%s\">%s</span>",
			    str(c, "binary"), str(c, "binary"));
	if (json_is_string(json_object_get(c, "source")))
		ud_buf_addf(b, "<br><small>source</small> <span class=\"badge b-%s\">%s</span>",
			    str(c, "source"), str(c, "source"));
	ud_buf_addf(b, "</td><td><code>%s</code><br><small>%s</small></td><td>", str(c, "rule"),
		    str(c, "what"));
	esc(b, str(c, "reason"));
	if (json_object_get(c, "accepted_from") != NULL) {
		ud_buf_addf(b, "<br><small>accepted (was %s) at ", str(c, "accepted_from"));
		esc(b, str(c, "accepted_at"));
		ud_buf_addstr(b, ": ");
		esc(b, str(c, "accepted_because"));
		ud_buf_addstr(b, "</small>");
	}
	ud_buf_addstr(b, "</td><td><pre>");
	esc(b, str(c, "old_definition"));
	ud_buf_addstr(b, "</pre></td><td><pre>");
	esc(b, str(c, "new_definition"));
	ud_buf_addstr(b, "</pre></td></tr>\n");
	free(sym);
}

static void
changes_section(struct ud_buf *b, const struct triage_opts *t, json_t *changes, json_t *heads)
{
	static const char *const order[] = {"breaking", "review", "accepted", "compatible"};
	json_t *h, *c;
	size_t i, k, v;

	ud_buf_addstr(b, "<section id=\"changes\"><h2>Changes by header</h2>\n");
	json_array_foreach(heads, i, h)
	{
		const char *name = str(h, "header");

		ud_buf_addf(b, "<h3 id=\"h-%zu\">", i);
		esc(b, name);
		ud_buf_addstr(b, "</h3>\n<table class=\"changes\"><colgroup><col class=\"c-sym\">"
				 "<col class=\"c-v\"><col class=\"c-rule\"><col class=\"c-why\">"
				 "<col class=\"c-def\"><col class=\"c-def\"></colgroup>"
				 "<thead><tr><th>symbol</th>"
				 "<th>verdict</th><th>rule</th><th>what changed</th>"
				 "<th>old definition</th><th>new definition</th></tr></thead>\n"
				 "<tbody>\n");
		/* worst first; a change through a type may sit apart from its header's */
		for (v = 0; v < 4; v++)
			json_array_foreach(changes, k, c)
			{
				if (strcmp(str(c, "verdict"), order[v]) == 0 &&
				    strcmp(str(c, "header"), name) == 0 &&
				    triage_selects(t, c, true))
					change_row(b, c);
			}
		ud_buf_addstr(b, "</tbody></table>\n");
	}
	ud_buf_addstr(b, "</section>\n");
}

int
report_html_diff(const char *path, json_t *r, const struct triage_opts *t, char **cause)
{
	struct ud_buf b = UD_BUF_INIT, pair = UD_BUF_INIT;
	json_t *changes = json_object_get(r, "changes");
	json_t *heads = triage_rollup(t, changes);
	int rc;

	ud_buf_addstr(&pair, "<b>old</b> ");
	esc(&pair, str(r, "old"));
	ud_buf_addstr(&pair, "<br><b>new</b> ");
	esc(&pair, str(r, "new"));
	page_start(&b, "Userspace API compatibility report", pair.data);
	ud_buf_free(&pair);
	summary_section(&b, r, heads);
	headers_section(&b, heads);
	changes_section(&b, t, changes, heads);
	json_decref(heads);
	rc = page_end(&b, path, cause);
	return rc;
}

int
report_html_log(const char *path, const char *repo, json_t *answers, char **cause)
{
	struct ud_buf b = UD_BUF_INIT, pair = UD_BUF_INIT;
	json_t *a, *e;
	size_t i, k;

	ud_buf_addstr(&pair, "<b>repository</b> ");
	esc(&pair, repo);
	page_start(&b, "Userspace API history", pair.data);
	ud_buf_free(&pair);
	json_array_foreach(answers, i, a)
	{
		json_t *hist = json_object_get(a, "history");

		ud_buf_addf(&b, "<section class=\"symbol\" id=\"s-%zu\"><h2>", i);
		esc(&b, str(a, "symbol"));
		ud_buf_addstr(&b, "</h2>\n<p>");
		esc(&b, str(a, "summary"));
		ud_buf_addf(&b, "</p>\n<ol class=\"timeline\" data-n=\"%zu\">\n",
			    json_array_size(hist));
		json_array_foreach(hist, k, e)
		{
			const char *v = json_string_value(json_object_get(e, "verdict"));
			const char *rel = json_string_value(json_object_get(e, "release"));
			const char *sym = str(e, "symbol");

			ud_buf_addf(&b, "<li class=\"event v-%s\"><span class=\"rel\">",
				    v != NULL ? v : "none");
			esc(&b, rel != NULL ? rel : "unreleased");
			ud_buf_addstr(&b, "</span><small>");
			esc(&b, str(e, "date"));
			ud_buf_addf(&b, " <code>%.12s</code> ", str(e, "commit"));
			esc(&b, str(e, "header"));
			ud_buf_addf(&b, ":%lld</small> ", num(e, "line"));
			if (v != NULL)
				ud_buf_addf(&b, "<span class=\"badge b-%s\">%s</span> ", v, v);
			if (sym[0] != '\0' && strcmp(sym, str(a, "symbol")) != 0) {
				ud_buf_addstr(&b, "<code>");
				esc(&b, sym);
				ud_buf_addstr(&b, "</code>: ");
			}
			esc(&b, str(e, "change"));
			ud_buf_addstr(&b, "</li>\n");
		}
		ud_buf_addstr(&b, "</ol>\n</section>\n");
	}
	return page_end(&b, path, cause);
}
