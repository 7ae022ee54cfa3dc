// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uapid api-diff --arch all OLD NEW: the verdicts of every architecture,
 * each read at its ABIs (abi.h's table), in one report.  A change that is
 * the same on every ABI compared is said once; one that is not says where
 * ("on i386 arm powerpc", or "all but x86_64 arm64" when that is
 * shorter); the summary is per architecture.
 *
 * OLD and NEW are kernel trees or REPO:REV (installed in memory for each
 * architecture, as `uapid install --arch ARCH` would), or directories
 * that `uapid install --arch all` wrote (ARCH/include/ for each).  An
 * architecture one of them lacks is named as not compared (one neither
 * has, of older or newer trees, is not named).  Each
 * architecture is read once; its other ABIs read a copy of the models.
 * The ABIs are resolved and diffed on two worker threads while this one
 * reads the next architecture and merges what is done, in table order:
 * the report is the same bytes as one made an ABI after the other.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "cmd.h"
#include "uapid/api/abi.h"
#include "uapid/api/api.h"
#include "uapid/api/load.h"
#include "uapid/io/fsutil.h"
#include "uapid/proto/json.h"
#include "uapid/util/buf.h"
#include "uapid/util/map.h"
#include "uapid/util/xmalloc.h"

#define MAX_ABIS 64

/* One change as a report line, and the ABIs it was found on. */
struct merged {
	json_t *json; /* the change as --json gives it for one ABI (the key) */
	char *line;   /* the same as a text line */
	char *header, *symbol;
	bool on[MAX_ABIS];
};

struct all_run {
	const struct ud_abi *abis[MAX_ABIS]; /* compared, in table order */
	size_t nabis;
	struct ud_map by_key; /* compact JSON of a change -> struct merged */
	struct merged **v;
	size_t n, alloc;
	json_t *archs, *skipped;     /* per architecture: its ABIs and summaries; not compared */
	struct ud_buf summary;	     /* the text of the per-architecture lines */
	struct ud_api_models *known; /* every text parsed once, whatever its architectures */
};

/*
 * Where arch's headers of spec are read from: spec itself (a kernel tree
 * with arch/ARCH, or REPO:REV), spec/ARCH (an install --arch all), or NULL
 * (*why says why).
 */
static char *
spec_for(const char *spec, const char *arch, const char **why)
{
	char *p;

	if (!ud_is_dir(spec))
		return ud_xstrdup(spec); /* REPO:REV: its install says */
	p = ud_xasprintf("%s/%s/include", spec, arch);
	if (ud_is_dir(p)) {
		free(p);
		return ud_xasprintf("%s/%s", spec, arch);
	}
	free(p);
	p = ud_xasprintf("%s/arch/%s", spec, arch);
	if (ud_is_dir(p)) {
		free(p);
		return ud_xstrdup(spec);
	}
	free(p);
	*why = "no such architecture";
	return NULL;
}

/* The text line of a change: its place, verdict, symbol, reason and, unless compatible, axes. */
static char *
change_line(const struct ud_api_change *c)
{
	unsigned line = c->new_line != 0 ? c->new_line : c->old_line;
	const char *kind = ud_api_kind_shown(ud_api_kind_name(c->kind), c->symbol);
	struct ud_buf b = UD_BUF_INIT;

	ud_buf_addf(&b, "%s:%u: %s: ", c->header, line, ud_api_verdict_name(c->verdict));
	if (c->symbol[0] != '\0')
		ud_buf_addf(&b, "%s%s%s: ", kind, kind[0] ? " " : "", c->symbol);
	ud_buf_addstr(&b, c->reason);
	if (c->verdict != UD_API_COMPATIBLE)
		ud_buf_addf(&b, " [binary: %s, source: %s]",
			    c->axis[UD_API_BINARY] != UD_API_COMPATIBLE
				    ? ud_api_verdict_name(c->axis[UD_API_BINARY])
				    : "ok",
			    c->axis[UD_API_SOURCE] != UD_API_COMPATIBLE
				    ? ud_api_verdict_name(c->axis[UD_API_SOURCE])
				    : "ok");
	return ud_buf_detach(&b, NULL);
}

/* One ABI's diff, made on a worker thread and merged by the main one, in ABI order. */
struct abi_job {
	const struct ud_abi *abi;
	struct arch_set *set; /* its architecture's two versions */
	struct ud_api_diff d;
	bool done;
};

/* An architecture's two versions, read once, and its ABIs' jobs. */
struct arch_set {
	struct ud_api_version o, n;
	char *arch, *old_what, *new_what;
	size_t first, njobs;	/* its jobs: pool.jobs[first ... first + njobs) */
	size_t pending;		/* its jobs not finished: the versions are freed at 0 */
	size_t started, copied; /* its jobs started; those that copied the versions */
	size_t nmerged;		/* its jobs merged into the report */
	json_t *summaries;	/* theirs, as merged */
};

static void
set_free(struct arch_set *s)
{
	json_decref(s->summaries);
	free(s->arch);
	free(s->old_what);
	free(s->new_what);
	free(s);
}

/*
 * The ABIs of every architecture, on two worker threads while the main
 * thread reads the next architecture's headers: wall time on two cores,
 * and at most two architectures' versions in memory at once.
 */
#define WORKERS 2
#define SETS_AHEAD 2

struct pool {
	uv_mutex_t lock;
	uv_cond_t work, done; /* a job queued (or the end); a job finished */
	struct abi_job jobs[MAX_ABIS];
	struct arch_set *sets[MAX_ABIS];
	size_t njobs, next, nsets, live; /* queued; started; architectures; their versions held */
	size_t merged;			 /* sets merged (merge_sets) */
	bool closed;
};

/* Resolves and diffs one ABI: a copy of its set's versions, or the versions themselves. */
static void
job_run(struct pool *p, struct abi_job *j)
{
	struct arch_set *s = j->set;
	struct ud_api_version oc, nc, *ov = &s->o, *nv = &s->n;
	bool last;

	/*
	 * Resolving reads the models for one ABI, in place: a copy, but for
	 * the last of its set to start, which waits until the others have
	 * theirs (a tenth of the run's CPU was copies).  The others started
	 * before it, on other workers or this one: none waits for it.
	 */
	uv_mutex_lock(&p->lock);
	last = ++s->started == s->njobs;
	while (last && s->copied < s->njobs - 1)
		uv_cond_wait(&p->done, &p->lock);
	uv_mutex_unlock(&p->lock);
	if (!last) {
		ud_api_version_copy(&oc, &s->o);
		ud_api_version_copy(&nc, &s->n);
		ov = &oc;
		nv = &nc;
		uv_mutex_lock(&p->lock);
		s->copied++;
		uv_cond_broadcast(&p->done);
		uv_mutex_unlock(&p->lock);
	}
	ud_api_versions_resolve(ov, nv, j->abi, api_thread_start);
	memset(&j->d, 0, sizeof(j->d));
	ud_api_versions_diff(ov, nv, &j->d);
	if (ov == &oc)
		ud_api_versions_free(&oc, &nc, NULL, NULL);
}

static void
worker_cb(void *arg)
{
	struct pool *p = arg;

	uv_mutex_lock(&p->lock);
	for (;;) {
		struct abi_job *j;
		struct arch_set *s;

		while (p->next == p->njobs && !p->closed)
			uv_cond_wait(&p->work, &p->lock);
		if (p->next == p->njobs)
			break;
		j = &p->jobs[p->next++];
		uv_mutex_unlock(&p->lock);
		/* its heap once a version is read: whether of huge pages is decided then */
		api_thread_start(UD_API_THREAD_RESOLVE);
		job_run(p, j);
		uv_mutex_lock(&p->lock);
		s = j->set;
		if (--s->pending == 0) {
			/* the last of its set: done once the versions are gone (then s may be) */
			uv_mutex_unlock(&p->lock);
			ud_api_versions_free(&s->o, &s->n, NULL, NULL);
			uv_mutex_lock(&p->lock);
			p->live--;
		}
		j->done = true;
		uv_cond_broadcast(&p->done);
	}
	uv_mutex_unlock(&p->lock);
}

/* Adds string p to a change's key: its length, then its bytes (no two keys alike). */
static void
key_add(struct ud_buf *b, const char *p)
{
	char n[24];
	size_t len = p != NULL ? strlen(p) : 0;

	if (p == NULL) {
		ud_buf_addch(b, '-'); /* absent, as JSON leaves the key out */
		return;
	}
	snprintf(n, sizeof(n), "%zu:", len);
	ud_buf_addstr(b, n);
	ud_buf_add(b, p, len);
}

/*
 * What a change's JSON (ud_json_api_diff's) says, as a key: two changes
 * have the same key when their JSON is the same.  Made from the change,
 * not from its JSON: 126,000 changes of 28 ABIs are looked up, 6,000 of
 * them distinct, and JSON is made for these only.
 */
static void
change_key(const struct ud_api_change *c, struct ud_buf *b)
{
	char lines[48];
	size_t x;

	ud_buf_reset(b);
	key_add(b, c->header);
	key_add(b, c->symbol[0] ? c->symbol : NULL);
	key_add(b, c->symbol[0] ? ud_api_kind_name(c->kind) : NULL);
	key_add(b, ud_api_what_name(c->what));
	key_add(b, ud_api_verdict_name(c->verdict));
	key_add(b, ud_api_rule_name(c->rule));
	key_add(b, c->reason);
	for (x = 0; x < UD_API__AXES; x++) {
		key_add(b, ud_api_verdict_name(c->axis[x]));
		key_add(b, ud_api_rule_name(c->axis_rule[x]));
	}
	snprintf(lines, sizeof(lines), "%u,%u", c->old_line, c->new_line);
	ud_buf_addstr(b, lines);
}

/* Change c as --json gives it (an element of ud_json_api_diff's "changes"). */
static json_t *
change_json(const struct ud_api_change *c)
{
	struct ud_api_diff one;
	json_t *j, *ch;

	memset(&one, 0, sizeof(one));
	one.v = (struct ud_api_change *)(uintptr_t)c; /* read only */
	one.n = 1;
	j = ud_json_api_diff(&one);
	ch = json_incref(json_array_get(json_object_get(j, "changes"), 0));
	json_decref(j);
	return ch;
}

/* Adds the changes of d, found on ABI number k, to the report. */
static void
merge(struct all_run *r, const struct ud_api_diff *d, size_t k)
{
	struct ud_buf key = UD_BUF_INIT;
	size_t i;

	for (i = 0; i < d->n; i++) {
		struct merged *m;

		change_key(&d->v[i], &key);
		m = ud_map_get(&r->by_key, ud_buf_str(&key));
		if (m == NULL) {
			m = ud_xcalloc(1, sizeof(*m));
			m->json = change_json(&d->v[i]);
			m->line = change_line(&d->v[i]);
			m->header = ud_xstrdup(d->v[i].header);
			m->symbol = ud_xstrdup(d->v[i].symbol);
			ud_map_put(&r->by_key, ud_buf_str(&key), m);
			r->v = ud_xgrow(r->v, &r->alloc, r->n + 1, sizeof(*r->v));
			r->v[r->n++] = m;
		}
		m->on[k] = true;
	}
	ud_buf_free(&key);
}

/* The summary of one ABI's diff, as a line and as JSON. */
static json_t *
abi_summary(struct all_run *r, const char *arch, const struct ud_abi *abi,
	    const struct ud_api_diff *d)
{
	ud_buf_addf(&r->summary,
		    "%s (%s): headers %u changed, %u added, %u removed; %u breaking, %u review, "
		    "%u compatible\n",
		    arch, abi->name, d->headers_changed, d->headers_added, d->headers_removed,
		    d->verdicts[UD_API_BREAKING], d->verdicts[UD_API_REVIEW],
		    d->verdicts[UD_API_COMPATIBLE]);
	return json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:i}", "abi", abi->name, "headers_changed",
			 d->headers_changed, "headers_added", d->headers_added, "headers_removed",
			 d->headers_removed, "breaking", d->verdicts[UD_API_BREAKING], "review",
			 d->verdicts[UD_API_REVIEW], "compatible", d->verdicts[UD_API_COMPATIBLE]);
}

/*
 * Merges the architectures' jobs in table order as they finish (all of
 * them with wait, else those finished so far), each set's summary once
 * its last is; frees what is merged.  Called by the main thread between
 * reads, so that the changes of 28 ABIs are not all held at once.
 */
static void
merge_sets(struct all_run *r, struct pool *p, bool wait)
{
	for (; p->merged < p->nsets; p->merged++) {
		struct arch_set *s = p->sets[p->merged];

		if (s->summaries == NULL)
			s->summaries = json_array();
		for (; s->nmerged < s->njobs; s->nmerged++) {
			struct abi_job *j = &p->jobs[s->first + s->nmerged];
			bool done;

			uv_mutex_lock(&p->lock);
			while (wait && !j->done)
				uv_cond_wait(&p->done, &p->lock);
			done = j->done;
			uv_mutex_unlock(&p->lock);
			if (!done)
				return;
			r->abis[r->nabis] = j->abi;
			merge(r, &j->d, r->nabis++);
			json_array_append_new(s->summaries, abi_summary(r, s->arch, j->abi, &j->d));
			ud_api_diff_free(&j->d);
		}
		json_array_append_new(r->archs, json_pack("{s:s, s:s, s:s, s:o}", "arch", s->arch,
							  "old", s->old_what, "new", s->new_what,
							  "abis", s->summaries));
		s->summaries = NULL;
		set_free(s);
		p->sets[p->merged] = NULL;
	}
}

/*
 * Reads arch's two versions once and queues a job per ABI of it; waits
 * first while SETS_AHEAD architectures are held.  -1 when a version
 * cannot be read (its error said).
 */
static int
queue_arch(struct all_run *r, struct pool *p, const char *old_spec, const char *new_spec,
	   const char *arch)
{
	const char *why = NULL, *failed = NULL;
	char *os = spec_for(old_spec, arch, &why), *ns = NULL;
	struct ud_progress *none[2] = {NULL, NULL};
	struct arch_set *s;
	size_t i;

	ns = spec_for(new_spec, arch, &why);
	if (os == NULL && ns == NULL)
		return 0; /* an architecture of older or newer trees than these */
	if (os == NULL || ns == NULL) {
		json_array_append_new(r->skipped, json_pack("{s:s, s:s, s:s}", "arch", arch, "why",
							    why, "in", os == NULL ? "old" : "new"));
		free(os);
		free(ns);
		return 0;
	}
	uv_mutex_lock(&p->lock);
	while (p->live >= SETS_AHEAD) {
		uv_cond_wait(&p->done, &p->lock);
		uv_mutex_unlock(&p->lock);
		merge_sets(r, p, false); /* what finished meanwhile */
		uv_mutex_lock(&p->lock);
	}
	uv_mutex_unlock(&p->lock);
	s = ud_xcalloc(1, sizeof(*s));
	if (api_side_load_pair(&s->o, os, &s->n, ns, arch, none, r->known, &failed) < 0) {
		ud_api_version_free(&s->o);
		ud_api_version_free(&s->n);
		free(s);
		free(os);
		free(ns);
		return -1;
	}
	free(os);
	free(ns);
	s->arch = ud_xstrdup(arch);
	s->old_what = ud_xstrdup(s->o.what);
	s->new_what = ud_xstrdup(s->n.what);
	uv_mutex_lock(&p->lock);
	s->first = p->njobs;
	for (i = 0; ud_abi_at(i) != NULL; i++)
		if (strcmp(ud_abi_at(i)->arch, arch) == 0 && s->first + s->njobs < MAX_ABIS) {
			p->jobs[s->first + s->njobs].abi = ud_abi_at(i);
			p->jobs[s->first + s->njobs++].set = s;
		}
	s->pending = s->njobs;
	p->sets[p->nsets++] = s;
	if (s->njobs > 0) {
		p->live++;
		p->njobs += s->njobs;
		uv_cond_broadcast(&p->work);
	}
	uv_mutex_unlock(&p->lock);
	if (s->njobs == 0)
		ud_api_versions_free(&s->o, &s->n, NULL, NULL);
	return 0;
}

/* " [on A B]" or " [all but A B]", whichever is shorter; "" on every ABI. */
static void
where(const struct all_run *r, const struct merged *m, struct ud_buf *out, json_t **json)
{
	size_t k, on = 0;
	bool all_but;

	*json = json_array();
	for (k = 0; k < r->nabis; k++)
		if (m->on[k]) {
			on++;
			json_array_append_new(*json, json_string(r->abis[k]->name));
		}
	ud_buf_reset(out);
	if (on == r->nabis)
		return;
	all_but = r->nabis - on < on;
	ud_buf_addstr(out, all_but ? " [all but" : " [on");
	for (k = 0; k < r->nabis; k++)
		if (m->on[k] != all_but)
			ud_buf_addf(out, " %s", r->abis[k]->name);
	ud_buf_addch(out, ']');
}

static int
merged_cmp(const void *a, const void *b)
{
	const struct merged *x = *(const struct merged *const *)a;
	const struct merged *y = *(const struct merged *const *)b;
	int c = strcmp(x->header, y->header);

	if (c == 0)
		c = strcmp(x->symbol, y->symbol);
	return c != 0 ? c : strcmp(x->line, y->line);
}

/* Prints the report; returns the number of breaking changes. */
static size_t
report(struct all_run *r, const char *old_spec, const char *new_spec, bool json)
{
	struct ud_buf at = UD_BUF_INIT;
	json_t *changes = json ? json_array() : NULL;
	size_t i, counts[UD_API__VERDICTS] = {0};

	qsort(r->v, r->n, sizeof(*r->v), merged_cmp);
	for (i = 0; i < r->n; i++) {
		const char *verdict = json_string_value(json_object_get(r->v[i]->json, "verdict"));
		size_t v;

		for (v = 0; v < UD_API__VERDICTS; v++)
			if (strcmp(verdict, ud_api_verdict_name((enum ud_api_verdict)v)) == 0)
				counts[v]++;
	}
	if (!json) {
		printf("old: %s\nnew: %s\n", old_spec, new_spec);
		printf("compared: %zu ABIs; distinct changes: %zu breaking, %zu review, %zu "
		       "compatible\n",
		       r->nabis, counts[UD_API_BREAKING], counts[UD_API_REVIEW],
		       counts[UD_API_COMPATIBLE]);
		fputs(ud_buf_str(&r->summary), stdout);
		for (i = 0; i < json_array_size(r->skipped); i++) {
			json_t *s = json_array_get(r->skipped, i);

			printf("%s: not compared: %s has %s\n",
			       json_string_value(json_object_get(s, "arch")),
			       json_string_value(json_object_get(s, "in")),
			       json_string_value(json_object_get(s, "why")));
		}
	}
	for (i = 0; i < r->n; i++) {
		json_t *abis;

		where(r, r->v[i], &at, &abis);
		if (json) {
			json_t *c = json_deep_copy(r->v[i]->json);

			json_object_set_new(c, "abis", abis);
			json_array_append_new(changes, c);
		} else {
			printf("%s%s\n", r->v[i]->line, ud_buf_str(&at));
			json_decref(abis);
		}
	}
	if (json) {
		json_t *top = json_pack("{s:s, s:s, s:{s:I, s:I, s:I}, s:O, s:O, s:o}", "old",
					old_spec, "new", new_spec, "summary", "breaking",
					(json_int_t)counts[UD_API_BREAKING], "review",
					(json_int_t)counts[UD_API_REVIEW], "compatible",
					(json_int_t)counts[UD_API_COMPATIBLE], "architectures",
					r->archs, "not_compared", r->skipped, "changes", changes);
		char *s = json_dumps(top, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

		puts(s);
		free(s);
		json_decref(top);
	}
	ud_buf_free(&at);
	return counts[UD_API_BREAKING];
}

static void
merged_free(void *v)
{
	struct merged *m = v;

	json_decref(m->json);
	free(m->line);
	free(m->header);
	free(m->symbol);
	free(m);
}

/* Frees what a run that stopped left unmerged: its jobs' results, its sets. */
static void
pool_drop(struct pool *p)
{
	size_t k, i;

	for (k = p->merged; k < p->nsets; k++) {
		struct arch_set *s = p->sets[k];

		for (i = s->first + s->nmerged; i < s->first + s->njobs; i++) {
			ud_api_diff_free(&p->jobs[i].d);
		}
		set_free(s);
	}
	p->nsets = p->merged = 0;
}

int
api_diff_all(const char *old_spec, const char *new_spec, bool json)
{
	struct all_run r;
	struct pool *p = ud_xcalloc(1, sizeof(*p));
	uv_thread_t tids[WORKERS];
	size_t i, k, breaking, started = 0;
	int rc = 0;

	memset(&r, 0, sizeof(r));
	r.archs = json_array();
	r.skipped = json_array();
	r.known = ud_api_models_new();
	uv_mutex_init(&p->lock);
	uv_cond_init(&p->work);
	uv_cond_init(&p->done);
	for (i = 0; i < WORKERS; i++)
		if (uv_thread_create(&tids[started], worker_cb, p) == 0)
			started++;
	for (i = 0; ud_abi_at(i) != NULL && rc == 0; i++) {
		const char *arch = ud_abi_at(i)->arch;

		/* each architecture once, at its first ABI of the table */
		for (k = 0; k < i && strcmp(ud_abi_at(k)->arch, arch) != 0; k++)
			;
		if (k == i)
			rc = queue_arch(&r, p, old_spec, new_spec, arch);
		if (rc == 0)
			merge_sets(&r, p, false);
		if (started == 0) {
			/* no thread could start: this one runs the jobs queued */
			uv_mutex_lock(&p->lock);
			p->closed = true;
			uv_mutex_unlock(&p->lock);
			worker_cb(p);
			p->closed = false;
		}
	}
	uv_mutex_lock(&p->lock);
	p->closed = true;
	uv_cond_broadcast(&p->work);
	uv_mutex_unlock(&p->lock);
	if (rc == 0)
		merge_sets(&r, p, true);
	for (i = 0; i < started; i++)
		uv_thread_join(&tids[i]);
	pool_drop(p);
	uv_cond_destroy(&p->work);
	uv_cond_destroy(&p->done);
	uv_mutex_destroy(&p->lock);
	free(p);
	if (rc == 0 && r.nabis == 0) {
		report_error("%s, %s: no architecture in both (kernel trees, REPO:REV, or what "
			     "uapid install --arch all writes)",
			     old_spec, new_spec);
		rc = -1;
	}
	breaking = rc == 0 ? report(&r, old_spec, new_spec, json) : 0;
	ud_api_models_free(r.known);
	ud_map_free(&r.by_key, merged_free);
	free(r.v);
	json_decref(r.archs);
	json_decref(r.skipped);
	ud_buf_free(&r.summary);
	if (rc < 0)
		return EXIT_USAGE;
	return breaking > 0 ? EXIT_FINDINGS : EXIT_OK;
}
