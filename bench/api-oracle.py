#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The comparison half of bench/api-oracle.sh: reads the work directory it
made (uapid's JSON, abidiff's per-header reports, abidw's type locations)
and prints how uapid's changes compare with abidiff's.

abidiff's report, per header object, lists changed ([C]), removed ([D]) and
added ([A]) types with their details.  Each is attributed to the header that
defines the type (from abidw's filepath) and merged across objects (a type
changes in every object that includes its header).  A changed type is

  direct    something in its own definition changed: a member added, removed,
            renamed or retyped (type name, typedef name or array bound), a
            member of an inline anonymous type changed, an enumerator added,
            removed or renumbered, a typedef pointing at another type;
  indirect  only through another named type: a member whose struct/union/
            typedef type changed, a pointed-to type, an array element type,
            the type a typedef names (and the offsets that follow).

Which of the two a change is comes from libabigail's own reading of both
objects (abidw XML): the definition's "shape" (members by name, those of
anonymous members flattened, with their types spelled by name; enumerators
and values; a typedef's target) is compared; the same shape means the change
came through other types, whose names are the causes (followed through other
indirect changes to the root ones).  abidiff's report is the fallback.

A removed or added type whose own header still defines it (or did already)
went with an #include the reporting header dropped or gained.

abidiff pairs anonymous enums (and inline anonymous structs and unions) by
their position in the object, so an anonymous enum added early shows as
every later one "changed".  Anonymous enums are therefore compared as sets of
enumerators (name -> value) per object, from the abidw XML of both versions,
and anonymous struct/union entries are left to their parents' member changes.

uapid's changes are matched by header and symbol ("struct NAME", "union NAME",
"enum NAME", a typedef or enum constant name, its condition stripped); a type
whose only changes are in a type it uses counts as reported when uapid reports
that root cause.  uapid changes with no abidiff counterpart are counted by
kind and by why (macros: DWARF has none; headers the oracle could not
compile; symbols under conditions; removed and re-added under another
condition; moved; abidiff saw no change).
"""
import argparse
import collections
import json
import os
import re
import sys

KINDS = ("struct", "union", "enum", "typedef")


# --------------------------------------------------------------------------
# abidiff report parsing

class Node:
    __slots__ = ("text", "indent", "children", "parent")

    def __init__(self, text, indent, parent=None):
        self.text = text
        self.indent = indent
        self.children = []
        self.parent = parent

    def dump(self, base=0, limit=None):
        out = []

        def rec(n, d):
            out.append("  " * d + n.text)
            for c in n.children:
                rec(c, d + 1)
        rec(self, base)
        if limit is not None and len(out) > limit:
            out = out[:limit] + ["  " * base + "  ... (%d more lines)" % (len(out) - limit)]
        return out


def parse_tree(text):
    root = Node("", -1)
    stack = [root]
    for line in text.split("\n"):
        if not line.strip():
            continue
        ind = len(line) - len(line.lstrip(" "))
        while stack[-1].indent >= ind:
            stack.pop()
        n = Node(line.strip(), ind, stack[-1])
        stack[-1].children.append(n)
        stack.append(n)
    return root


def split_typename(q):
    """'struct foo' -> ('struct', 'foo'); 'typedef foo_t' -> ('typedef', 'foo_t');
    anonymous ones -> (kind, None)."""
    m = re.match(r"^(struct|union|enum|typedef)\s+(.*)$", q)
    if not m:
        return ("type", q)
    k, n = m.group(1), m.group(2)
    if "{" in n or n.startswith("__anonymous_"):
        return (k, None)
    return (k, n)


def decl_parts(decl):
    """'__u8 pad[3]' -> ('__u8', 'pad'); 'drm_version* version' -> ('drm_version', 'version');
    'union {...} m' -> ('union {...}', 'm')."""
    d = decl.strip()
    m = re.search(r"(\w+)\s*((?:\[[^\]]*\])*)$", d)
    if not m:
        return (d, d)
    name = m.group(1)
    typ = d[:m.start()].strip()
    if "{" in typ or "__anonymous_" in typ:
        return (typ, name)
    # function pointers: 'int (*)(void) fn' -> no named base type
    if "(" in typ:
        return ("(function)", name)
    base = re.sub(r"[*&\s]+$", "", typ)
    base = re.sub(r"\b(const|volatile)\b", "", base).strip()
    toks = base.split()
    return (toks[-1] if toks else base, name)


def is_anon(typ):
    return "{" in typ or "__anonymous_" in typ


BUILTIN = set("void char short int long float double signed unsigned _Bool bool __int128".split())

RETYPE_MARKERS = ("type name changed from", "typedef name changed from", "entity changed from")


def anon_name_change(t):
    m = re.match(r"^type name changed from '([^']*)' to '([^']*)'", t)
    return bool(m) and m.group(1).startswith("__anonymous_") and m.group(2).startswith("__anonymous_")


class Analysis:
    """Items and causes of one changed type, from its detail nodes."""

    def __init__(self):
        self.items = []  # (what, name, text)
        self.causes = []  # (name, how, text)
        self.size = None
        self.refer = False  # "details were reported earlier"
        self.enumerators = set()


def register_details(node_children, details, name):
    if name and name not in details:
        if not (len(node_children) == 1 and node_children[0].text == "details were reported earlier"):
            details[name] = node_children


def analyse(children, details, a=None):
    a = a or Analysis()
    for n in children:
        t = n.text
        if re.match(r"^(\d+ data member insertions?|there are data member insertions):?", t):
            for c in n.children:
                m = re.match(r"^'(.*?)',? at", c.text) or re.match(r"^'(.*)'", c.text)
                decl = m.group(1) if m else c.text
                a.items.append(("member added", decl_parts(decl)[1], c.text))
        elif re.match(r"^(\d+ data member deletions?|there are data member deletions):?", t):
            for c in n.children:
                m = re.match(r"^'(.*?)',? at", c.text) or re.match(r"^'(.*)'", c.text)
                decl = m.group(1) if m else c.text
                a.items.append(("member removed", decl_parts(decl)[1], c.text))
        elif re.match(r"^(\d+ data member changes?|there are data member changes)", t):
            member_changes(n.children, details, a)
        elif re.match(r"^\d+ enumerator (insertions?|deletions?|changes?):", t):
            what = {"i": "enumerator added", "d": "enumerator removed", "c": "enumerator value"}[
                re.match(r"^\d+ enumerator (.)", t).group(1)]
            for c in n.children:
                m = re.match(r"^'(?:[^':]*::)?([^']*)'", c.text)
                if m:
                    a.items.append((what, m.group(1), c.text))
                    a.enumerators.add(m.group(1))
        elif t.startswith("type size changed from"):
            a.size = t
        elif t.startswith("type size hasn't changed") or t.startswith("no data member change"):
            pass
        elif t.startswith("type name changed from"):
            if not anon_name_change(t):
                a.items.append(("type renamed", "", t))
        elif t.startswith("underlying type"):
            m = re.match(r"^underlying type '([^']*)'", t)
            under = m.group(1) if m else ""
            k, nm = split_typename(under)
            kids = n.children
            if any(c.text.startswith(RETYPE_MARKERS) and not anon_name_change(c.text) for c in kids):
                a.items.append(("typedef retargeted", "", t + ": " + "; ".join(c.text for c in kids)))
            elif nm and k in KINDS:
                a.causes.append((nm, "typedef of", t))
                register_details(kids, details, nm)
            elif "as reported earlier" in t and nm:
                a.causes.append((nm, "typedef of", t))
            else:
                # a typedef of an anonymous type (or a builtin) that changed inside
                sub = analyse(kids, details)
                if sub.items or not sub.causes:
                    a.items.append(("typedef target changed", "", t + ": " + "; ".join(x[2] for x in sub.items[:3])))
                else:
                    a.causes.extend(sub.causes)
        elif t == "details were reported earlier":
            a.refer = True
        elif t.startswith("type changed from:") or t == "to:" or t.startswith("type changed from"):
            pass
        elif t.startswith("in pointed to type") or t.startswith("array element type"):
            m = re.search(r"type '([^']*)'", t)
            k, nm = split_typename(m.group(1)) if m else ("type", None)
            if nm:
                a.causes.append((nm, "points to" if "pointed" in t else "array of", t))
                register_details(n.children, details, nm)
            else:
                analyse(n.children, details, a)
        elif t.startswith("array type size changed") or t.startswith("array type subrange"):
            pass
        else:
            a.items.append(("other", "", t))
    return a


def member_changes(children, details, a):
    for c in children:
        t = c.text
        m = re.match(r"^'(.*)' offset changed", t)
        if m:
            if ", size changed" in t or "size changed from" in t:
                typ, nm = decl_parts(m.group(1))
                if not is_anon(typ) and typ not in BUILTIN:
                    a.causes.append((typ, "member %s of type" % nm, t))
            continue
        if re.match(r"^anonymous data member .*offset changed", t) and "changed from:" not in t:
            continue
        if t.startswith("anonymous data member"):
            a.items.append(("anonymous member changed", "", t + " " + " ".join(x.text for x in c.children)))
            continue
        if t.startswith("and offset changed") or t.startswith("and size changed"):
            continue
        m = re.match(r"^(?:and )?name of '([^']*)' changed to '([^']*)'", t)
        if m:
            old = m.group(1).split("::")[-1]
            new = m.group(2).split("::")[-1]
            if old != new:
                a.items.append(("member renamed", old, t))
            continue
        m = re.match(r"^type of '(.*)' changed, as reported earlier", t)
        if m:
            typ, nm = decl_parts(m.group(1))
            if is_anon(typ):
                a.items.append(("member changed (inline anonymous type)", nm, t))
            else:
                a.causes.append((typ, "member %s of type" % nm, t))
            continue
        m = re.match(r"^type of '(.*)' changed:?$", t)
        if m:
            typ, nm = decl_parts(m.group(1))
            kids = c.children
            retype = [k for k in kids if k.text.startswith(RETYPE_MARKERS) and not anon_name_change(k.text)]
            if retype:
                a.items.append(("member retyped", nm, t + " " + "; ".join(k.text for k in retype)))
            elif is_anon(typ):
                # look inside the inline type: its own members, or named types in it
                sub = analyse(kids, details)
                if sub.items:
                    a.items.append(("member changed (inline anonymous type)", nm,
                                    t + " " + "; ".join(x[2] for x in sub.items[:3])))
                elif sub.causes:
                    for cn, how, txt in sub.causes:
                        a.causes.append((cn, "member %s (inline type): %s" % (nm, how), txt))
                else:
                    a.items.append(("member changed (inline anonymous type)", nm,
                                    t + " " + "; ".join(k.text for k in kids[:4])))
            else:
                how = "member %s of type" % nm
                sub = [k for k in kids if k.text.startswith(("in pointed to type", "array element type"))]
                if sub:
                    mm = re.search(r"type '([^']*)'", sub[0].text)
                    kk, tn = split_typename(mm.group(1)) if mm else ("type", None)
                    if tn:
                        a.causes.append((tn, how + (" (pointer)" if "pointed" in sub[0].text else " (array)"), t))
                        register_details(sub[0].children, details, tn)
                    else:
                        analyse(sub[0].children, details, a)
                elif any(k.text.startswith("underlying type") for k in kids):
                    a.causes.append((typ, how + " (typedef)", t))
                else:
                    a.causes.append((typ, how, t))
                    register_details(kids, details, typ)
            continue
        if "has *some* difference" in t:
            a.items.append(("other", "", t))
            continue
        a.items.append(("other", "", t))


def report_entries(text):
    """(section, entry node) for each [C]/[D]/[A] entry of one abidiff report."""
    root = parse_tree(text)
    out = []
    for sec in root.children:
        m = re.match(r"^\d+ (changed|removed|added) types? unreachable", sec.text)
        if m:
            for e in sec.children:
                out.append((m.group(1), e))
        else:
            # function/variable sections: not expected (the object only has f())
            pass
    return out


# --------------------------------------------------------------------------
# abidw: where types are defined, and their shallow shape

import xml.etree.ElementTree as ET

TYPE_TAGS = ("type-decl", "typedef-decl", "class-decl", "union-decl", "enum-decl", "pointer-type-def",
             "qualified-type-def", "array-type-def", "function-type", "reference-type-def")


class Abi:
    """libabigail's reading of one object (abidw --load-all-types XML).

    types: (kind, name) -> header of the definition ("<system>/usr/..." for libc);
    enums: enumerator -> (header, value, anonymous?, enum name);
    shape(kind, name): the type's own definition with the types it refers to
    spelled by name (inline anonymous types spelled out): members
    [(name, type)] for a struct or union, [(enumerator, value)] for an enum,
    the spelled target for a typedef.  Two versions with the same shape
    differ only through other named types."""

    def __init__(self, path, incdir):
        self.prefix = incdir.rstrip("/") + "/"
        self.by_id = {}
        self.defs = {}
        self.types = {}
        self.enums = {}
        root = ET.parse(path).getroot()
        for el in root.iter():
            i = el.get("id")
            if i and el.tag in TYPE_TAGS:
                self.by_id.setdefault(i, el)
        for el in root.iter():
            if el.tag not in ("class-decl", "union-decl", "enum-decl", "typedef-decl"):
                continue
            name = el.get("name") or ""
            kind = {"class-decl": "struct" if el.get("is-struct") == "yes" else "union",
                    "union-decl": "union", "enum-decl": "enum", "typedef-decl": "typedef"}[el.tag]
            hdr = self.header(el)
            anon = el.get("is-anonymous") == "yes" or name.startswith("__anonymous_")
            if kind == "enum" and hdr:
                for en in el.findall("enumerator"):
                    self.enums.setdefault(en.get("name"), (hdr, en.get("value"), anon, name))
            if anon or el.get("is-declaration-only") == "yes" or not hdr:
                continue
            self.types.setdefault((kind, name), hdr)
            self.defs.setdefault((kind, name), el)

    def header(self, el):
        p = el.get("filepath")
        if not p:
            return None
        return p[len(self.prefix):] if p.startswith(self.prefix) else "<system>" + p

    def spell(self, tid, depth=0):
        el = self.by_id.get(tid)
        if el is None:
            return "?"
        t = el.tag
        if t in ("type-decl", "typedef-decl"):
            return el.get("name")
        if t in ("class-decl", "union-decl", "enum-decl"):
            name = el.get("name") or ""
            kw = {"class-decl": "struct" if el.get("is-struct") == "yes" else "union",
                  "union-decl": "union", "enum-decl": "enum"}[t]
            if el.get("naming-typedef-id"):
                return self.spell(el.get("naming-typedef-id"), depth)
            if el.get("is-anonymous") == "yes" or name.startswith("__anonymous_"):
                if depth > 6:
                    return kw + " {...}"
                if t == "enum-decl":
                    return "enum {%s}" % ", ".join("%s=%s" % (e.get("name"), e.get("value"))
                                                   for e in el.findall("enumerator"))
                return "%s {%s}" % (kw, "; ".join("%s %s" % (self.spell(v.get("type-id"), depth + 1), v.get("name") or "")
                                                  for v in self.members(el)))
            return "%s %s" % (kw, name)
        if t == "pointer-type-def":
            return self.spell(el.get("type-id"), depth) + "*"
        if t == "reference-type-def":
            return self.spell(el.get("type-id"), depth) + "&"
        if t == "qualified-type-def":
            q = [k for k in ("const", "volatile", "restrict") if el.get(k) == "yes"]
            return " ".join(q + [self.spell(el.get("type-id"), depth)])
        if t == "array-type-def":
            dims = "".join("[%s]" % (s.get("length") or "") for s in el.findall("subrange"))
            return self.spell(el.get("type-id"), depth) + dims
        if t == "function-type":
            ret = el.find("return")
            params = [self.spell(p.get("type-id"), depth) for p in el.findall("parameter")]
            return "%s(%s)" % (self.spell(ret.get("type-id"), depth) if ret is not None else "void", ", ".join(params))
        return "?"

    def flat_members(self, el, depth):
        """Members by name, those of anonymous struct/union members included
        (C makes them members of the enclosing type)."""
        out = []
        for v in self.members(el):
            name = v.get("name") or ""
            t = self.by_id.get(v.get("type-id"))
            if not name and t is not None and t.tag in ("class-decl", "union-decl") and depth < 8 and \
                    (t.get("is-anonymous") == "yes" or (t.get("name") or "").startswith("__anonymous_")):
                out.extend(self.flat_members(t, depth + 1))
            else:
                out.append((name, self.spell(v.get("type-id"))))
        return out

    @staticmethod
    def members(el):
        out = []
        for dm in el.findall("data-member"):
            v = dm.find("var-decl")
            if v is not None:
                out.append(v)
        return out

    def shape(self, kind, name):
        el = self.defs.get((kind, name))
        if el is None:
            return None
        if kind in ("struct", "union"):
            return self.flat_members(el, 0)
        if kind == "enum":
            return [(e.get("name"), e.get("value")) for e in el.findall("enumerator")]
        return self.spell(el.get("type-id"))

    def refs(self, kind, name):
        """Named types the definition refers to (for the cause of an indirect change)."""
        sh = self.shape(kind, name)
        if sh is None or kind == "enum":
            return []
        texts = [sh] if isinstance(sh, str) else [t for _, t in sh]
        out = []
        for t in texts:
            for m in re.finditer(r"\b(?:struct |union |enum )?([A-Za-z_]\w*)", t):
                w = m.group(1)
                if w not in BUILTIN and w not in out and w not in ("const", "volatile", "struct", "union", "enum"):
                    out.append(w)
        return out


def shape_items(kind, old, new):
    """Items (what, name, text) of a change in shape."""
    items = []
    if kind == "typedef":
        if old != new:
            items.append(("typedef retargeted", "", "%s -> %s" % (old, new)))
        return items
    if kind == "enum":
        o, n = dict(old), dict(new)
        for e, v in new:
            if e not in o:
                items.append(("enumerator added", e, "%s = %s" % (e, v)))
            elif o[e] != v:
                items.append(("enumerator value", e, "%s: %s -> %s" % (e, o[e], v)))
        for e, v in old:
            if e not in n:
                items.append(("enumerator removed", e, "%s (was %s)" % (e, v)))
        return items
    o = [m for m in old if m[0]]
    n = [m for m in new if m[0]]
    od, nd = dict(o), dict(n)
    for nm, t in n:
        if nm not in od:
            items.append(("member added", nm, "%s %s" % (t, nm)))
        elif od[nm] != t:
            if "{" in t or "{" in od[nm]:
                items.append(("member changed (inline anonymous type)", nm, "%s: %s -> %s" % (nm, od[nm], t)))
            else:
                items.append(("member retyped", nm, "%s: %s -> %s" % (nm, od[nm], t)))
    for nm, t in o:
        if nm not in nd:
            items.append(("member removed", nm, "%s %s" % (t, nm)))
    common_o = [x for x, _ in o if x in nd]
    common_n = [x for x, _ in n if x in od]
    if common_o != common_n:
        items.append(("members reordered", "", "%s -> %s" % (",".join(common_o), ",".join(common_n))))
    ao = [t for nm, t in old if not nm]
    an = [t for nm, t in new if not nm]
    if ao != an:
        items.append(("anonymous member changed", "", "%s -> %s" % ("; ".join(ao), "; ".join(an))))
    return items


# --------------------------------------------------------------------------
# uapid

def base_symbol(s):
    return re.sub(r" \[if .*\]$", "", s or "")


class Uapid:
    def __init__(self, path):
        with open(path) as f:
            self.doc = json.load(f)
        self.changes = self.doc.get("changes", [])
        self.used = [False] * len(self.changes)
        self.by_key = collections.defaultdict(list)  # (header, k, name) -> [idx]
        self.by_name = collections.defaultdict(list)  # (k, name) -> [idx]
        self.header_changes = collections.defaultdict(list)
        for i, c in enumerate(self.changes):
            for k, n in self.keys(c):
                self.by_key[(c["header"], k, n)].append(i)
                self.by_name[(k, n)].append(i)
            self.header_changes[c["header"]].append(i)

    @staticmethod
    def keys(c):
        kind = c.get("kind")
        s = base_symbol(c.get("symbol"))
        if kind in ("struct", "union", "enum"):
            m = re.match(r"^(struct|union|enum) \(typedef (\w+)\)$", s)
            if m:
                return [(kind, "(typedef %s)" % m.group(2)), ("typedef", m.group(2))]
            m = re.match(r"^(struct|union|enum) (\w+)$", s)
            return [(kind, m.group(2))] if m else [(kind, s)]
        if kind == "typedef":
            return [("typedef", s)]
        if kind == "enum constant":
            return [("const", s)]
        if kind == "macro":
            return [("macro", s)]
        return [(kind or "header", s)]

    def find(self, header, k, name):
        """(indices in header, indices elsewhere).  abidiff names a struct or
        union by its DWARF tag and a typedef'd anonymous one by the typedef;
        uapid by the keyword, "struct (typedef NAME)" for the latter."""
        if k in ("struct", "union"):
            cands = [(k, name), ("union" if k == "struct" else "struct", name),
                     ("struct", "(typedef %s)" % name), ("union", "(typedef %s)" % name)]
        else:
            cands = [(k, name)]
        here = []
        if header:
            for kk, nn in cands:
                here += self.by_key.get((header, kk, nn), [])
        if here:
            return sorted(set(here)), []
        else_ = []
        for kk, nn in cands:
            else_ += self.by_name.get((kk, nn), [])
        return [], sorted(set(else_))


# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--uapid-time", type=float, required=True)
    ap.add_argument("--oracle-time", type=float, required=True)
    ap.add_argument("--attr-time", type=float, default=0.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--subsample", type=int, default=1)
    ap.add_argument("--uapid-exit", type=int, default=0)
    ap.add_argument("--planted")
    ap.add_argument("--json")
    ap.add_argument("--suppressions", action="store_true")
    ap.add_argument("--examples", type=int, default=int(os.environ.get("EXAMPLES", "10")))
    ap.add_argument("--max-list", type=int, default=int(os.environ.get("MAX_LIST", "60")))
    a = ap.parse_args()
    W = a.work
    oldinc = os.path.join(a.old, "include")
    newinc = os.path.join(a.new, "include")

    def readlist(n):
        with open(os.path.join(W, n)) as f:
            return [l.rstrip("\n") for l in f if l.strip()]
    old_list, new_list = readlist("old.list"), readlist("new.list")
    removed, added, checked = readlist("removed.list"), readlist("added.list"), readlist("check.list")
    U = Uapid(os.path.join(W, "uapid.json"))

    # per-header status
    status = {}
    for h in checked:
        key = h.replace("/", "%")
        p = os.path.join(W, "res", key + ".status")
        st = {}
        if os.path.exists(p):
            with open(p) as f:
                for tok in f.read().split():
                    k, _, v = tok.partition("=")
                    st[k] = v
        status[h] = st
    modes = collections.Counter(st.get("mode") for st in status.values() if st.get("mode"))
    fails = collections.defaultdict(list)
    for h, st in status.items():
        if "fail" in st:
            fails[st["fail"]].append(h)
        elif "mode" not in st:
            fails["missing"].append(h)
    abierr = [h for h, st in status.items() if st.get("abidiff") and int(st["abidiff"]) & 3]

    def span(v):
        try:
            a_, b_ = v.split("/")
            return max(0.0, float(b_.replace(",", ".")) - float(a_.replace(",", ".")))
        except (ValueError, AttributeError):
            return 0.0
    t_compile = sum(span(st.get("compile_s")) for st in status.values())
    t_abidiff = sum(span(st.get("abidiff_s")) for st in status.values())
    t_fallback = sum(span(st.get("compile_s")) for st in status.values() if st.get("tries", "1") != "1")
    compiled = set(h for h, st in status.items() if st.get("mode"))

    # abidiff reports and locations
    findings = {}  # (F, kind, name, cat) -> dict
    details_global = {}
    anon_facts = {}  # (F, enumerator) -> dict
    skipped = collections.Counter()
    reports = {}
    for h in sorted(compiled):
        st = status[h]
        if st.get("abidiff") in (None, "0") or int(st["abidiff"]) & 3:
            continue
        key = h.replace("/", "%")
        with open(os.path.join(W, "res", key + ".abidiff"), errors="replace") as f:
            reports[h] = f.read()
    changed_names = set()
    own_objects = {}
    for h in sorted(reports):
        key = h.replace("/", "%")

        def abi(side):
            p = os.path.join(W, "obj", side, key + ".so.abi")
            if not os.path.exists(p):
                return None
            try:
                return Abi(p, oldinc if side == "old" else newinc)
            except ET.ParseError:
                skipped["abidw output not readable"] += 1
                return None
        xo, xn = abi("old"), abi("new")
        entries = report_entries(reports[h])
        details = {}
        # first pass: details of every named type, wherever the report gives them
        for sec, e in entries:
            if sec == "changed":
                m = re.match(r"^\[C\] '(.*)' changed", e.text)
                if m:
                    k, nm = split_typename(m.group(1))
                    register_details(e.children, details, nm)
                    analyse(e.children, details)  # registers nested details
        for nm, ch in details.items():
            details_global.setdefault(nm, ch)
        for sec, e in entries:
            m = re.match(r"^\[(C|D|A)\] '(.*?)'( changed| at ([^:]+):(\d+):\d+)?", e.text)
            if not m:
                skipped["unparsed entry"] += 1
                continue
            tag, q = m.group(1), m.group(2)
            k, nm = split_typename(q)
            if k == "enum" and nm is None:
                skipped["anonymous enum entry (compared by enumerator instead)"] += 1
                continue
            if nm is None:
                skipped["anonymous struct/union entry (seen through its parent)"] += 1
                continue
            cat = {"C": "changed", "D": "removed", "A": "added"}[tag]
            order = (xo, xn) if tag == "D" else (xn, xo)
            F = None
            for kk in ([k, "union" if k == "struct" else "struct"] if k in ("struct", "union") else [k]):
                for X in order:
                    if X and (kk, nm) in X.types:
                        F = X.types[(kk, nm)]
                        break
                if F:
                    if kk != k:
                        k = kk
                    break
            if F and F.startswith("<system>"):
                skipped["system (libc) type"] += 1
                continue
            if cat == "changed":
                changed_names.add(nm)
            fk = (F or "?", k, nm, cat)
            f = findings.get(fk)
            if f is None:
                f = findings[fk] = {"header": F, "kind": k, "name": nm, "cat": cat, "objects": [],
                                    "node": e, "obj": None}
            f["objects"].append(h)
            if f["obj"] is None or (F == h and f["obj"] != h):
                f["node"], f["obj"] = e, h
                if cat == "changed" and xo and xn:
                    f["shape"] = (xo.shape(k, nm), xn.shape(k, nm))
                    f["refs"] = sorted(set(xo.refs(k, nm)) | set(xn.refs(k, nm)))
            if k == "enum" and tag in ("A", "D"):
                X = xn if tag == "A" else xo
                if X:
                    f.setdefault("enumerators", set()).update(
                        en for en, v in X.enums.items() if not v[2] and v[3] == nm)
        # anonymous enums of this object: enumerators by name, from libabigail's
        # reading of both objects (abidiff pairs anonymous enums by position)
        if xo and xn:
            eo, en_ = xo.enums, xn.enums
            for e in sorted(set(eo) | set(en_)):
                o, n = eo.get(e), en_.get(e)
                if not ((o and o[2]) or (n and n[2])):
                    continue  # only in named enums: abidiff's report covers it
                if o and n:
                    if o[1] == n[1]:
                        continue
                    what, detail, F = "value", "%s -> %s" % (o[1], n[1]), n[0]
                elif n:
                    what, detail, F = "added", "value %s" % n[1], n[0]
                else:
                    what, detail, F = "removed", "was %s" % o[1], o[0]
                if F.startswith("<system>"):
                    skipped["system (libc) enumerator"] += 1
                    continue
                ak = (F, e)
                if ak not in anon_facts or (F == h and anon_facts[ak]["obj"] != h):
                    anon_facts[ak] = {"header": F, "name": e, "what": what, "detail": detail, "obj": h}
                own_objects.setdefault(h, True)
        elif any("__anonymous_enum" in e.text for _, e in entries):
            skipped["object with anonymous enum changes but no abidw output"] += 1

    # an anonymous enumerator added to (removed from) another header's object
    # while its own header defined it in both versions came with an #include
    def defines_enumerator(inc, hdr, e):
        try:
            with open(os.path.join(inc, hdr), errors="replace") as fh:
                return re.search(r"\b%s\b\s*(=[^,}]*)?[,}]" % re.escape(e), fh.read()) is not None
        except OSError:
            return False
    for ak in list(anon_facts):
        x = anon_facts[ak]
        if x["what"] in ("added", "removed") and x["header"] and x["obj"] != x["header"] and \
                x["header"] not in added and x["header"] not in removed and \
                defines_enumerator(oldinc, x["header"], x["name"]) and \
                defines_enumerator(newinc, x["header"], x["name"]):
            del anon_facts[ak]
            skipped["anonymous enumerator reached through a changed #include"] += 1

    # a type removed from (added to) other headers' objects only, while its own
    # header compiles and does not lose (gain) it, went with an #include
    def defines(inc, hdr, k, nm):
        """Does inc/hdr define type k nm (textually: for headers the oracle does
        not compile on their own, such as asm-generic/)?"""
        try:
            with open(os.path.join(inc, hdr), errors="replace") as fh:
                txt = fh.read()
        except OSError:
            return False
        if k == "typedef":
            return re.search(r"\btypedef\b[^;]*\b%s\s*;" % re.escape(nm), txt) is not None or \
                re.search(r"\}\s*%s\s*;" % re.escape(nm), txt) is not None
        return re.search(r"\b%s\s+%s\s*\{" % (k, re.escape(nm)), txt) is not None or \
            re.search(r"\}\s*%s\s*;" % re.escape(nm), txt) is not None

    for fk, f in findings.items():
        if f["cat"] not in ("removed", "added") or not f["header"] or f["header"] in f["objects"]:
            continue
        if f["header"] in compiled:
            f["class"] = "include"
        elif f["header"] not in removed and f["header"] not in added and \
                defines(oldinc, f["header"], f["kind"], f["name"]) and \
                defines(newinc, f["header"], f["kind"], f["name"]):
            f["class"] = "include"
    # classify changed findings: by the shape of the definition in both objects
    # (abidw), else by abidiff's report
    for fk, f in findings.items():
        if f["cat"] != "changed":
            continue
        node = f["node"]
        a_ = analyse(node.children, details_global)
        if a_.refer and not a_.items and not a_.causes:
            ch = details_global.get(f["name"])
            if ch is not None:
                a_ = analyse(ch, details_global)
        f["analysis"] = a_
        sh = f.get("shape")
        if sh and sh[0] is not None and sh[1] is not None:
            f["xitems"] = shape_items(f["kind"], sh[0], sh[1])
            if f["xitems"]:
                f["class"] = "direct"
            else:
                f["class"] = "indirect"
                causes = [c for c in f.get("refs", []) if c in changed_names and c != f["name"]]
                if not causes:
                    causes = [c for c, _, _ in a_.causes]
                if not causes:
                    f["class"] = "layout only"
                f["causes"] = causes
        else:
            f["xitems"] = a_.items
            if a_.items:
                f["class"] = "direct"
            elif a_.causes:
                f["class"] = "indirect"
                f["causes"] = [c for c, _, _ in a_.causes]
            else:
                f["class"] = "unclassified"

    # matching
    def mark(idx):
        for i in idx:
            U.used[i] = True

    def verdicts(idx):
        return collections.Counter(U.changes[i]["verdict"] for i in idx)

    by_name = collections.defaultdict(list)
    for f in findings.values():
        if f["cat"] == "changed":
            by_name[f["name"]].append(f)

    def root_causes(f):
        """The causes of an indirect change, followed through other indirect
        changes to the types whose own definition changed."""
        out, seen, todo = [], set(), list(f.get("causes", []))
        while todo:
            c = todo.pop(0)
            if c in seen:
                continue
            seen.add(c)
            inds = [g for g in by_name.get(c, []) if g.get("class") == "indirect" and g is not f]
            if inds:
                for g in inds:
                    todo.extend(g.get("causes", []))
            else:
                out.append(c)
        return out

    for fk, f in findings.items():
        F, k, nm = f["header"], f["kind"], f["name"]
        here, elsewhere = U.find(F, k, nm)
        if f.get("class") == "include":
            # uapid reports a type an includer lost or gained in the includer
            for ob in f.get("objects", []):
                here = sorted(set(here + U.find(ob, k, nm)[0]))
            elsewhere = [] if here else elsewhere
        consts_here = []
        if k == "enum":
            ens = set(f.get("enumerators", ()))
            if f.get("analysis"):
                ens |= f["analysis"].enumerators
            ens |= set(n for w, n, _ in f.get("xitems", []) if w.startswith("enumerator"))
            for en in sorted(ens):
                ch, ce = U.find(F, "const", en)
                consts_here += ch or ce
        if f["cat"] == "added":
            here = [i for i in here if U.changes[i]["what"] == "added"] or here
        if not here and F and ((f["cat"] == "added" and F in added) or (f["cat"] == "removed" and F in removed)):
            here = [i for i in U.header_changes.get(F, []) if U.changes[i].get("kind") in (None, "header")
                    or not U.changes[i].get("symbol")]
            if here:
                f["via_header"] = True
        f["uapid"] = here + consts_here
        f["uapid_elsewhere"] = elsewhere
        if here or consts_here:
            f["match"] = "yes"
        elif elsewhere:
            f["match"] = "other header"
        else:
            f["match"] = "no"
        mark(here + consts_here + elsewhere)
        # causes of indirect changes
        if f.get("class") == "indirect":
            got = []
            for cn in root_causes(f):
                ids = []
                for kk in ("struct", "union", "enum", "typedef"):
                    ids += U.by_name.get((kk, cn), [])
                ids += U.by_name.get(("struct", "(typedef %s)" % cn), [])
                mark([i for i in ids if U.changes[i]["what"] == "changed"])  # the cause's report stands for this effect too
                got.append((cn, bool(ids)))
            f["causes_reported"] = got
        # items of direct changes
        if f.get("class") == "direct":
            res = []
            for what, iname, txt in f["xitems"]:
                ok = False
                if what.startswith("enumerator"):
                    ch, ce = U.find(F, "const", iname)
                    ok = bool(ch or ce)
                    mark(ch + ce)
                elif iname:
                    pool = f["uapid"] + f["uapid_elsewhere"]
                    ok = any(re.search(r"\b%s\b" % re.escape(iname), U.changes[i].get("reason") or "")
                             for i in pool)
                else:
                    ok = f["match"] != "no"
                res.append((what, iname, txt, ok))
            f["items"] = res

    for ak, x in anon_facts.items():
        ch, ce = U.find(x["header"], "const", x["name"])
        if not ch and not ce and x["header"] in added:
            ch = [i for i in U.header_changes.get(x["header"], []) if not U.changes[i].get("symbol")]
        x["match"] = "yes" if ch else ("other header" if ce else "no")
        x["uapid"] = ch + ce
        mark(ch + ce)

    # ---------------------------------------------------------------- output
    out = []
    P = out.append
    P("== uapid api-diff against abidiff (scripts/check-uapi.sh style) ==")
    P("old: %s" % a.old)
    P("new: %s" % a.new)
    common = len(set(old_list) & set(new_list))
    P("headers: old %d, new %d, in both %d; removed %d, added %d" % (
        len(old_list), len(new_list), common, len(removed), len(added)))
    if removed:
        P("  removed in new: " + ", ".join(removed[:20]) + (" ..." if len(removed) > 20 else ""))
    P("oracle checked %d headers (in both, asm-generic/ left out as check-uapi does%s)" % (
        len(checked), ", every %dth" % a.subsample if a.subsample > 1 else ""))
    P("  compiled as check-uapi does (-std=c90): %d; with fallbacks: gnu11 %d, libc headers first %d, +net headers %d" % (
        modes.get("c90", 0), modes.get("gnu11", 0), modes.get("libc", 0), modes.get("net", 0)))
    P("  not compiled: %d in neither version, %d only old compiles (new fails), %d only new compiles%s" % (
        len(fails.get("both", [])), len(fails.get("new", [])), len(fails.get("old", [])),
        ", %d missing results" % len(fails["missing"]) if fails.get("missing") else ""))
    if fails.get("new"):
        P("    new version does not compile: " + ", ".join(sorted(fails["new"])[:30]))
    if abierr:
        P("  abidiff errors: %d (%s)" % (len(abierr), ", ".join(abierr[:10])))
    P("  abidiff saw changes in %d header objects%s" % (
        len(reports), "; check-uapi's suppressions applied" if a.suppressions else
        " (--non-reachable-types --harmless --redundant, no suppressions)"))
    P("")
    P("times: uapid api-diff %.2f s (exit %d); oracle (compile + abidiff, %d jobs) %.1f s; "
      "ratio %.0fx" % (a.uapid_time, a.uapid_exit, a.jobs, a.oracle_time,
                       a.oracle_time / a.uapid_time if a.uapid_time > 0 else float("inf")))
    if a.subsample > 1:
        P("  (the oracle checked every %dth header: about %.0f s for all of them)" % (
            a.subsample, a.oracle_time * a.subsample))
    if t_compile:
        P("  worker time: compiling %.1f s (of which %.1f s in headers that needed a fallback or failed), "
          "abidiff %.1f s" % (t_compile, t_fallback, t_abidiff))
    P("  (attribution with abidw, not part of the oracle: %.1f s)" % a.attr_time)
    P("")

    def count(cat, cls=None):
        fs = [f for f in findings.values() if f["cat"] == cat and (
            f.get("class") == cls if cls else f.get("class") != "include")]
        return fs, sum(1 for f in fs if f["match"] == "yes"), sum(1 for f in fs if f["match"] == "other header")

    P("abidiff-reported type changes (distinct by defining header and type):")
    summary = {}
    for cat, cls, label in (("changed", "direct", "changed, in its own definition"),
                            ("changed", "indirect", "changed only through another named type"),
                            ("changed", "unclassified", "changed, details not parsed"),
                            ("changed", "layout only", "changed, same members, no changed type used"),
                            ("removed", None, "removed"),
                            ("added", None, "added"),
                            ("removed", "include", "removed from an includer (#include dropped)"),
                            ("added", "include", "added to an includer (#include added)")):
        fs, y, o = count(cat, cls)
        if not fs and cls in ("unclassified", "include", "layout only"):
            continue
        miss = len(fs) - y - o
        P("  %-45s %5d   uapid reports %d (+%d in another header), misses %d" % (label + ":", len(fs), y, o, miss))
        summary[label] = {"abidiff": len(fs), "uapid": y, "uapid_other_header": o, "missed": miss}
    ind = [f for f in findings.values() if f.get("class") == "indirect"]
    if ind:
        cause_ok = sum(1 for f in ind if f["match"] == "no" and any(ok for _, ok in f.get("causes_reported", [])))
        cause_no = sum(1 for f in ind if f["match"] == "no" and not any(ok for _, ok in f.get("causes_reported", [])))
        P("    of the indirect ones uapid does not report: %d have a root cause uapid reports, %d have none" % (
            cause_ok, cause_no))
        summary["indirect causes"] = {"cause_reported": cause_ok, "cause_not_reported": cause_no}
    af = list(anon_facts.values())
    ay = sum(1 for x in af if x["match"] == "yes")
    ao = sum(1 for x in af if x["match"] == "other header")
    P("  %-45s %5d   uapid reports %d (+%d in another header), misses %d" % (
        "anonymous-enum enumerators (from abidw):", len(af), ay, ao, len(af) - ay - ao))
    byw = collections.Counter(x["what"] for x in af)
    if af:
        P("    (%s)" % ", ".join("%s %d" % kv for kv in sorted(byw.items())))
    summary["anonymous enumerators"] = {"abidiff": len(af), "uapid": ay, "uapid_other_header": ao,
                                        "missed": len(af) - ay - ao}
    if skipped:
        P("  not compared: " + "; ".join("%s %d" % kv for kv in sorted(skipped.items())))
    # item level
    items = collections.Counter()
    items_ok = collections.Counter()
    for f in findings.values():
        for what, iname, txt, ok in f.get("items", []):
            items[what] += 1
            items_ok[what] += ok
    if items:
        P("  item level, in the direct changes (uapid's reason names the member / reports the constant):")
        for w in sorted(items):
            P("    %-42s %5d   uapid %d" % (w, items[w], items_ok[w]))
    odd = [f for f in findings.values() if f["cat"] == "changed" and f["match"] != "no" and
           all(U.changes[i]["what"] in ("added", "removed") for i in f["uapid"] + f["uapid_elsewhere"])
           and f["kind"] != "enum"]
    if odd:
        ov = collections.Counter()
        for f in odd:
            ov.update(verdicts(f["uapid"] + f["uapid_elsewhere"]))
        P("  changed types uapid reports only as removed/added/moved, not as changed (%d; uapid verdicts %s): %s" % (
            len(odd), ", ".join("%s %d" % kv for kv in sorted(ov.items())),
            ", ".join("%s %s (%s)" % (f["kind"], f["name"], f["header"]) for f in odd[:a.examples])))
    summary["changed, reported only as removed/added"] = len(odd)
    direct = [f for f in findings.values() if f.get("class") == "direct" and f["match"] != "no"]
    vc = collections.Counter()
    for f in direct:
        vc.update(verdicts(f["uapid"] + (f["uapid_elsewhere"] if f["match"] != "yes" else [])))
    if vc:
        P("  uapid's verdicts on the direct changes it reports: " +
          ", ".join("%s %d" % kv for kv in sorted(vc.items())))
    P("")

    # misses
    def oneline(f):
        a_ = f.get("analysis")
        if f["cat"] != "changed":
            return f["node"].text
        parts = []
        for what, iname, txt in f.get("xitems", [])[:4]:
            parts.append("%s %s" % (what, txt if len(txt) < 140 else txt[:137] + "..."))
        if not f.get("xitems") and a_:
            for cn, how, txt in a_.causes[:3]:
                parts.append("via %s %s" % (how, cn))
            if not a_.causes and f.get("causes"):
                parts.append("via " + ", ".join(f["causes"][:4]))
        if a_ and a_.size:
            parts.append(a_.size)
        return "; ".join(parts)

    def cat_of(f):
        if f.get("class") == "include":
            return "type %s in %s only" % (f["cat"], ", ".join(f["objects"][:3]) + (
                " ..." if len(f["objects"]) > 3 else ""))
        if f["cat"] != "changed":
            return "type " + f["cat"]
        if f["class"] == "direct":
            ws = sorted(set(w for w, _, _ in f["xitems"]))
            return "changed: " + "+".join(ws)
        return "changed " + f["class"]

    misses = sorted([f for f in findings.values() if f["match"] == "no"],
                    key=lambda f: (f["cat"], f.get("class", ""), f["header"] or "?", f["kind"], f["name"]))
    for group, sel in (("direct changes, removed and added types",
                        lambda f: f.get("class") not in ("indirect", "include")),
                       ("indirect changes", lambda f: f.get("class") == "indirect"),
                       ("types an includer lost or gained with an #include",
                        lambda f: f.get("class") == "include")):
        ms = [f for f in misses if sel(f)]
        P("uapid misses, %s: %d" % (group, len(ms)))
        if not ms:
            continue
        cats = collections.Counter(cat_of(f) for f in ms)
        for c, n in cats.most_common():
            P("  %4d  %s" % (n, c))
        lim = a.max_list if group.startswith("direct") else a.examples
        for f in ms[:lim]:
            hint = ""
            if f["header"]:
                macros = [i for i in U.header_changes.get(f["header"], [])
                          if U.changes[i]["kind"] == "macro" and U.changes[i]["what"] == "changed"]
                if macros and f.get("class") == "direct":
                    hint = " [uapid reports %d macro value change(s) in this header: %s]" % (
                        len(macros), ", ".join(base_symbol(U.changes[i]["symbol"]) for i in macros[:4]))
            P("  - %s: %s %s (%s)%s" % (f["header"] or "?", f["kind"], f["name"], cat_of(f), hint))
            P("      abidiff (%s): %s" % (f["obj"], oneline(f)))
            if f.get("class") == "indirect":
                P("      root causes: " + ", ".join("%s%s" % (cn, "" if ok else " (uapid: no change)")
                                             for cn, ok in f.get("causes_reported", [])))
        if len(ms) > lim:
            P("  ... %d more" % (len(ms) - lim))
    am = [x for x in af if x["match"] == "no"]
    P("uapid misses, anonymous-enum enumerators: %d" % len(am))
    for x in sorted(am, key=lambda x: (x["header"] or "?", x["name"]))[:a.max_list]:
        P("  - %s: %s %s (%s) [object %s]" % (x["header"] or "?", x["name"], x["what"], x["detail"], x["obj"]))
    # item-level misses inside matched direct changes
    im = []
    for f in findings.values():
        if f.get("class") == "direct" and f["match"] != "no":
            for what, iname, txt, ok in f["items"]:
                if not ok:
                    im.append((f, what, iname, txt))
    P("item-level misses inside direct changes uapid does report: %d" % len(im))
    for f, what, iname, txt in sorted(im, key=lambda x: (x[0]["header"] or "", x[0]["name"], x[2]))[:a.examples]:
        P("  - %s: %s %s: %s %s -- abidiff: %s" % (f["header"], f["kind"], f["name"], what, iname, txt[:160]))
    P("")

    # uapid extras
    def hstatus(h):
        if h in removed:
            return "header removed"
        if h in added:
            return "header added"
        if h.startswith("asm-generic/"):
            return "asm-generic (seen via asm/)"
        if h not in status:
            return "not checked (subsample)"
        if h in abierr:
            return "abidiff failed"
        if h in compiled:
            return "compiled"
        return "not compiled"
    extra = collections.Counter()
    extra_ex = collections.defaultdict(list)
    extra_list = []
    for i, c in enumerate(U.changes):
        if U.used[i]:
            continue
        kind = c.get("kind") or "header"
        cond = " [if" in (c.get("symbol") or "")
        hs = hstatus(c["header"])
        pair = [j for j in U.header_changes.get(c["header"], []) if j != i
                and base_symbol(U.changes[j].get("symbol")) == base_symbol(c.get("symbol"))
                and U.changes[j].get("kind") == c.get("kind")
                and {U.changes[j]["what"], c["what"]} == {"added", "removed"}]
        if kind == "macro":
            reason = "macro (DWARF has no macros)"
        elif (c.get("reason") or "").startswith("moved to "):
            reason = "moved to an included header (abidiff sees it through the include)"
        elif pair:
            reason = "removed and re-added under another condition"
        elif kind == "function" or kind == "variable":
            reason = "declaration"
        elif hs not in ("compiled", "asm-generic (seen via asm/)"):
            reason = hs if hs != "abidiff failed" else "abidiff failed on the header"
        elif cond:
            reason = "under a condition"
        else:
            reason = "abidiff saw no change"
        extra[(kind, c["what"], reason)] += 1
        extra_ex[(kind, reason)].append(c)
        extra_list.append(dict(c, oracle=reason))
    tot = sum(extra.values())
    P("uapid changes abidiff has no counterpart for: %d of %d" % (tot, len(U.changes)))
    bykind = collections.Counter()
    for (kind, what, reason), n in extra.items():
        bykind[(kind, what)] += n
    P("  by kind: " + ", ".join("%s %s %d" % (k, w, n) for (k, w), n in sorted(bykind.items())))
    byreason = collections.Counter()
    for (kind, what, reason), n in extra.items():
        byreason[(kind, reason)] += n
    for (kind, reason), n in sorted(byreason.items(), key=lambda x: (-x[1], x[0])):
        P("  %5d  %-14s %s" % (n, kind, reason))
    contra = [c for c in extra_list if c["verdict"] == "breaking" and c["oracle"] in (
        "abidiff saw no change", "removed and re-added under another condition", "under a condition")
        and hstatus(c["header"]) in ("compiled", "asm-generic (seen via asm/)")]
    P("  uapid 'breaking' changes (not macros) in compiled headers that abidiff has no change for: %d" % len(contra))
    for c in contra[:a.max_list]:
        P("    - %s: %s %s [%s]: %s" % (c["header"], c["symbol"], c["what"], c["oracle"],
                                     (c.get("reason") or "")[:150]))
    summary["uapid breaking without abidiff counterpart"] = len(contra)
    for (kind, reason), cs in sorted(extra_ex.items()):
        if reason != "abidiff saw no change":
            continue
        P("  examples, %s that abidiff saw no change in (compiled headers):" % kind)
        for c in cs[:a.examples]:
            P("    - %s: %s %s (%s): %s" % (c["header"], c["symbol"], c["what"], c["verdict"], c.get("reason")))
    P("")

    # planted ground truth
    plant_summary = None
    if a.planted:
        rows = []
        with open(a.planted) as f:
            for l in f:
                p = l.rstrip("\n").split("\t")
                if len(p) >= 4:
                    rows.append(p)
        table = collections.OrderedDict()
        missed_by = {"abidiff": [], "uapid": []}
        for hdr, kind, sym, detail in rows:
            t = table.setdefault(kind, collections.Counter())
            t["planted"] += 1
            hs = hstatus(hdr)
            seen_compiled = hs in ("compiled", "asm-generic (seen via asm/)")
            # uapid
            us = False
            hc = [U.changes[i] for i in U.header_changes.get(hdr, [])]
            if kind == "macro-value":
                us = any(c["kind"] == "macro" and base_symbol(c["symbol"]) == sym and c["what"] == "changed" for c in hc)
            elif kind == "enum-insert":
                cn = detail.split()[0]
                us = any(c["kind"] == "enum constant" and base_symbol(c["symbol"]) == cn for c in hc)
            elif kind == "typedef":
                us = any(c["kind"] == "typedef" and base_symbol(c["symbol"]) == sym for c in hc)
            elif kind == "new-struct":
                us = any(base_symbol(c["symbol"]) == sym and c["what"] == "added" for c in hc)
            else:
                mm = re.search(r"member (?:\S+ )?(planted_m\d+)|member (\w+)", detail)
                mn = mm.group(1) or mm.group(2)
                us = any(base_symbol(c["symbol"]) == sym and re.search(r"\b%s\b" % mn, c.get("reason") or "")
                         for c in hc)
            # abidiff
            ab = None
            sk, _, sn = sym.partition(" ")
            if kind == "macro-value":
                ab = None  # not visible as such
            elif kind == "enum-insert":
                cn = detail.split()[0]
                ab = any(any(w.startswith("enumerator") and n == cn for w, n, _ in f.get("xitems", []))
                         for f in findings.values()) or any(x["name"] == cn for x in af)
            elif kind == "typedef":
                ab = any((f["kind"] == "typedef" and f["name"] == sym) or
                         sym in f.get("causes", ())
                         for f in findings.values())
            elif kind == "new-struct":
                ab = any(f["cat"] == "added" and f["name"] == sn for f in findings.values())
            else:
                mm = re.search(r"member (?:\S+ )?(planted_m\d+)|member (\w+)", detail)
                mn = mm.group(1) or mm.group(2)
                ab = any(f["name"] == sn and f["kind"] in ("struct", "union") and f.get("class") == "direct"
                         and any(iname == mn or re.search(r"\b%s\b" % mn, txt) for _, iname, txt in f["xitems"])
                         for f in findings.values())
            t["in compiled header"] += seen_compiled
            t["uapid"] += us
            if ab is None:
                t["abidiff n/a"] += 1
            else:
                t["abidiff"] += ab
                if ab and not us:
                    t["abidiff only"] += 1
                    missed_by["uapid"].append((hdr, kind, sym, detail))
                if us and not ab:
                    t["uapid only"] += 1
                    if seen_compiled:
                        missed_by["abidiff"].append((hdr, kind, sym, detail))
            if not us:
                missed_by.setdefault("uapid-all", []).append((hdr, kind, sym, detail))
        P("planted edits (%s): %d" % (a.planted, len(rows)))
        P("  %-16s %7s %9s %7s %7s %9s %10s" % ("kind", "planted", "compiled", "abidiff", "uapid",
                                               "ab. only", "uapid only"))
        totc = collections.Counter()
        for kind, t in table.items():
            P("  %-16s %7d %9d %7s %7d %9d %10d" % (
                kind, t["planted"], t["in compiled header"],
                "n/a" if t["abidiff n/a"] else str(t["abidiff"]), t["uapid"], t["abidiff only"], t["uapid only"]))
            totc.update(t)
        P("  %-16s %7d %9d %7d %7d %9d %10d" % ("total", totc["planted"], totc["in compiled header"],
                                              totc["abidiff"], totc["uapid"], totc["abidiff only"],
                                              totc["uapid only"]))
        for hdr, kind, sym, detail in missed_by.get("uapid-all", [])[:a.max_list]:
            P("  uapid missed planted: %s %s %s: %s" % (hdr, kind, sym, detail))
        for hdr, kind, sym, detail in missed_by["abidiff"][:a.examples]:
            P("  abidiff missed planted (compiled header): %s %s %s: %s" % (hdr, kind, sym, detail))
        plant_summary = {k: dict(v) for k, v in table.items()}
        P("")

    print("\n".join(out))
    if a.json:
        def fjson(f):
            d = {k: f[k] for k in ("header", "kind", "name", "cat", "match", "obj")}
            d["class"] = f.get("class")
            d["objects"] = f["objects"]
            d["abidiff"] = f["node"].dump(limit=40)
            d["uapid"] = [U.changes[i] for i in f.get("uapid", [])]
            d["items"] = [{"what": w, "name": n, "text": t, "uapid": ok} for w, n, t, ok in f.get("items", [])]
            if f.get("causes_reported"):
                d["causes"] = [{"name": n, "uapid": ok} for n, ok in f["causes_reported"]]
            return d
        doc = {
            "old": a.old, "new": a.new,
            "times": {"uapid": a.uapid_time, "oracle": a.oracle_time, "attribution": a.attr_time,
                      "jobs": a.jobs},
            "coverage": {"checked": len(checked), "modes": dict(modes),
                         "not_compiled": {k: sorted(v) for k, v in fails.items()}},
            "removed_headers": removed, "added_headers": added,
            "summary": summary,
            "findings": [fjson(f) for f in sorted(findings.values(), key=lambda f: (
                f["header"] or "?", f["kind"], f["name"], f["cat"]))],
            "anonymous_enumerators": [{k: x[k] for k in ("header", "name", "what", "detail", "obj", "match")}
                                      for x in af],
            "uapid_unmatched_counts": [dict(kind=k, what=w, reason=r, count=n) for (k, w, r), n in sorted(extra.items())],
            "uapid_unmatched": extra_list,
            "planted": plant_summary,
        }
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
