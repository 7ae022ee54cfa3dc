#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The api-diff report of 6.1 -> 6.12 in each form (text, --summary, --json,
# --html: the size and time of each printed, figures never asserted), and
# its HTML page in a real browser (the full tier; not part of make check):
# Debian's chromium, headless, loads the page from a file with the network
# services off, takes a screenshot, and dumps the DOM after the page's
# script ran, whose counts must be --json's.  UD_SCREENSHOT=FILE keeps the
# screenshot (doc/api-report.png is one).
. "${top_srcdir:-.}/tests/lib/lib.sh"

K61=${UD_KERNEL_61:?the 6.1 tree: UD_KERNEL_61}
K612=${UD_KERNEL_612:?the 6.12 tree: UD_KERNEL_612}
command -v chromium >/dev/null || { fail "chromium not installed"; finish; }

# each form, its size and time
for form in text summary json html; do
	case $form in
	text) set -- ;;
	summary) set -- --summary ;;
	json) set -- --json ;;
	html) set -- --html "$WORK/report.html" ;;
	esac
	set +e
	t0=$(date +%s%N)
	"$UAPID" api-diff --quiet --arch x86 "$@" "$K61" "$K612" >"$WORK/report.$form" 2>"$WORK/err.$form"
	rc=$?
	t1=$(date +%s%N)
	set -e
	[ "$rc" = 1 ] && pass || { fail "api-diff ($form) exit $rc"; cat "$WORK/err.$form" >&2; }
	f=$WORK/report.$form
	[ "$form" = html ] && f=$WORK/report.html
	printf 'api-diff 6.1 -> 6.12, %-8s %8d bytes %6d lines %6d ms\n' "$form:" "$(wc -c <"$f")" \
		"$(wc -l <"$f")" "$(((t1 - t0) / 1000000))"
done
"$UAPID" api-diff --quiet --arch x86 --json --html "$WORK/page.html" "$K61" "$K612" >"$WORK/page.json" || true

# the browser: a fresh profile, nothing fetched, no sandbox (root in CI)
browse() {
	chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$WORK/profile" \
		--window-size=1280,1500 "$@" "file://$WORK/page.html" 2>>"$WORK/chromium.log"
}
set +e
browse --screenshot="$WORK/page.png" >/dev/null
s1=$?
rm -rf "$WORK/profile"
browse --dump-dom >"$WORK/dom.html"
s2=$?
set -e
[ "$s1" = 0 ] && [ "$s2" = 0 ] && pass || { fail "chromium exit $s1, $s2"; tail -5 "$WORK/chromium.log" >&2; }
python3 - "$WORK/dom.html" "$WORK/page.json" "$WORK/page.png" <<'PY' && pass || fail "the page in chromium"
import json, struct, sys
from html.parser import HTMLParser

class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.rows, self.body, self.headers = {}, [], {}, 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        if "id" in a:
            self.ids[a["id"]] = a
        if tag == "tr" and "change" in (a.get("class") or "").split():
            self.rows.append(a["data-verdict"])
        if tag == "a" and (a.get("href") or "").startswith("#h-"):
            self.headers += 1

d = Dom()
d.feed(open(sys.argv[1]).read())
j = json.load(open(sys.argv[2]))
s = j["summary"]
assert d.body.get("data-js") == "ok", d.body       # the inline script ran to its end
for v in ("breaking", "review", "compatible"):
    shown = int(d.ids["n-" + v]["data-n"])
    assert shown == s[v], (v, shown, s[v])
    assert d.rows.count(v) == s[v], (v, d.rows.count(v), s[v])
assert len(d.rows) == len(j["changes"])
assert d.headers == len({c["header"] for c in j["changes"]}), d.headers
png = open(sys.argv[3], "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", png[16:24])
assert (w, h) == (1280, 1500), (w, h)
print("chromium: %d changes, %d headers shown; breaking %d, review %d, compatible %d: as --json"
      % (len(d.rows), d.headers, s["breaking"], s["review"], s["compatible"]))
PY
[ -n "${UD_SCREENSHOT:-}" ] && cp "$WORK/page.png" "$UD_SCREENSHOT"
finish
