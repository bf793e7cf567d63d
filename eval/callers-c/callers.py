#!/usr/bin/env python3
"""Site-level accuracy of synaptic's C call links against clang.

Every translation unit of the corpus is compiled with
`clang -Xclang -ast-dump=json -fsyntax-only`; each CallExpr names the
declaration it calls, which is mapped to its definition (in the same unit
for a static function, else the one external definition of that name in
the corpus, as the linker would). A call whose definition is a graph node
is a truth site; our `calls` edges are then checked site by site (file,
line, callee name). See README.md.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import subprocess
import sys

CALLABLE_KINDS = {"function", "method", "constructor"}
FUNC_DECLS = {"FunctionDecl", "CXXMethodDecl", "CXXConstructorDecl", "CXXDestructorDecl", "CXXConversionDecl"}
VAR_DECLS = {"VarDecl", "ParmVarDecl", "FieldDecl"}
UNWRAP = {"ImplicitCastExpr", "ParenExpr", "UnaryOperator", "CStyleCastExpr"}
SOURCE_EXTS = {".c": "c", ".cc": "c++", ".cpp": "c++", ".cxx": "c++"}


class Locs:
    """clang's JSON writes a location's file and line only when they change
    from the previous location it printed; this replays that state in
    document order."""

    def __init__(self):
        self.file, self.line = None, None

    def read(self, loc):
        """Returns (file, line, col, in_macro_body) for a location dict."""
        if not loc:
            return None
        if "spellingLoc" in loc:
            sp = self.read(loc["spellingLoc"])
            ex = self.read(loc["expansionLoc"])
            if loc["expansionLoc"].get("isMacroArgExpansion"):
                return (sp[0], sp[1], sp[2], False)  # written in a macro's argument: in the source
            return (ex[0], ex[1], ex[2], True)
        if "offset" not in loc:
            return None
        if "file" in loc:
            self.file = loc["file"]
        if "line" in loc:
            self.line = loc["line"]
        return (self.file, self.line, loc.get("col"), False)


def clang_json(root, rel, clang, clangxx, incs):
    lang = SOURCE_EXTS[os.path.splitext(rel)[1]]
    cmd = [clangxx if lang == "c++" else clang, "-x", lang, "-w", "-fsyntax-only", "-Xclang", "-ast-dump=json", "-I", "."]
    for d in incs:
        cmd += ["-I", d]
    if lang == "c++":
        cmd.append("-std=c++17")
    cmd.append(rel)
    p = subprocess.run(cmd, cwd=root, capture_output=True, timeout=600)
    return rel, p.returncode, p.stdout, p.stderr.decode(errors="replace")[-2000:]


class Unit:
    """The declarations and call sites of one translation unit."""

    def __init__(self, root, tu):
        self.root = root
        self.locs = Locs()
        self.decls = {}  # id -> (kind, name, key, static, has_body, (file, line))
        self.calls = []  # (file, line, col, name, what, ref id or None)
        self.macro_calls = 0
        self.walk(tu, False)

    def norm(self, f):
        if f is None:
            return None
        p = os.path.normpath(os.path.join(self.root, f))
        rel = os.path.relpath(p, self.root)
        return None if rel.startswith("..") else rel

    def walk(self, n, in_func):
        if not isinstance(n, dict):
            return
        kind = n.get("kind")
        loc = self.locs.read(n.get("loc"))
        rng = n.get("range") or {}
        begin = self.locs.read(rng.get("begin"))
        end = self.locs.read(rng.get("end"))
        if kind in FUNC_DECLS and "name" in n:
            body = any(c.get("kind") == "CompoundStmt" for c in n.get("inner", []) if isinstance(c, dict))
            at = (self.norm(loc[0]), loc[1]) if loc else (None, None)
            key = n.get("mangledName") or n["name"]
            # static on a free function is internal linkage; on a C++
            # member function it only means "no this".
            internal = n.get("storageClass") == "static" and kind == "FunctionDecl"
            self.decls[n["id"]] = (kind, n["name"], key, internal, body, at)
        if kind in ("CallExpr", "CXXMemberCallExpr"):
            self.call(n)
        for c in n.get("inner", []):
            self.walk(c, in_func)
        _ = (begin, end)

    def call(self, n):
        inner = n.get("inner") or []
        if not inner:
            return
        callee = inner[0]
        # Read the callee's locations in order first: they come before
        # anything else the walk meets inside it.
        sub = Locs()
        sub.file, sub.line = self.locs.file, self.locs.line
        for _ in range(16):
            k = callee.get("kind")
            if k in UNWRAP and callee.get("inner"):
                callee = callee["inner"][0]
                continue
            break
        k = callee.get("kind")
        snapshot = (self.locs.file, self.locs.line)
        site = self.site_of(n, callee)
        self.locs.file, self.locs.line = snapshot
        if site is None:
            return
        f, line, col, macro = site
        if macro:
            self.macro_calls += 1
            return
        f = self.norm(f)
        if f is None:
            return
        if k == "DeclRefExpr":
            ref = callee.get("referencedDecl", {})
            what = "function" if ref.get("kind") in FUNC_DECLS else "pointer"
            self.calls.append((f, line, col, ref.get("name", ""), what, ref.get("id")))
        elif k == "MemberExpr":
            ref = callee.get("referencedMemberDecl")
            self.calls.append((f, line, col, callee.get("name", ""), "member", ref))
        else:
            self.calls.append((f, line, col, "", "other", None))

    def site_of(self, call, callee):
        """The callee name's location: replays the locations printed from
        the call down to the callee (they precede it in the document)."""
        st = Locs()
        st.file, st.line = self.locs.file, self.locs.line
        found = [None]

        def replay(n):
            if not isinstance(n, dict):
                return False
            loc = st.read(n.get("loc"))
            rng = n.get("range") or {}
            b = st.read(rng.get("begin"))
            e = st.read(rng.get("end"))
            if n is callee:
                found[0] = e if n.get("kind") == "MemberExpr" else (loc or b)
                return True
            for c in n.get("inner", []):
                if replay(c):
                    return True
            return False

        # The call node's own locations were read by walk() already; replay
        # from its first child.
        for c in call.get("inner", []):
            if replay(c):
                break
        return found[0]


class Saved:
    """A Unit read back from the cache: its declarations and calls."""

    def __init__(self, d):
        self.decls = {k: (v[0], v[1], v[2], v[3], v[4], tuple(v[5])) for k, v in d["decls"].items()}
        self.calls = [tuple(c) for c in d["calls"]]
        self.macro_calls = d["macro_calls"]


# TRUTH_VERSION names what Unit records; change it when that changes, so
# cached truth from an older harness is not reused.
TRUTH_VERSION = 2


def cache_path(cache, rel):
    return os.path.join(cache, f"{rel.replace('/', '__')}.v{TRUTH_VERSION}.json")


def load_unit(cache, rel):
    """The truth of one unit from the cache (it depends on the corpus and
    clang only, never on synaptic), or None."""
    if not cache:
        return None
    try:
        with open(cache_path(cache, rel)) as fh:
            return Saved(json.load(fh))
    except (OSError, ValueError, KeyError):
        return None


def save_unit(cache, rel, u):
    if not cache:
        return
    os.makedirs(cache, exist_ok=True)
    with open(cache_path(cache, rel), "w") as fh:
        json.dump({"decls": u.decls, "calls": u.calls, "macro_calls": u.macro_calls}, fh)


def load_graph(path):
    g = json.load(open(path))
    nodes = {n["id"]: n for n in g["nodes"]}
    by_file = collections.defaultdict(list)
    for n in g["nodes"]:
        if n.get("kind") in CALLABLE_KINDS and n.get("span"):
            by_file[n["source_file"]].append(n)
    edges = [e for e in g.get("links", g.get("edges", [])) if e.get("relation") == "calls"]
    return nodes, by_file, edges


def bare(label):
    label = label[:-2] if label.endswith("()") else label
    for sep in ("::", "."):
        if sep in label:
            label = label.rsplit(sep, 1)[1]
    return label


def node_at(by_file, f, line, name):
    for n in by_file.get(f, []):
        sp = n["span"]
        if sp["start_line"] <= line <= sp["end_line"] and bare(n["label"]) == name:
            return n["id"]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-src", required=True, help="the corpus root")
    ap.add_argument("-graph", required=True, help="graph.json of the corpus")
    ap.add_argument("-clang", default="clang")
    ap.add_argument("-clangxx", default="clang++")
    ap.add_argument("-j", type=int, default=2, help="clang processes at once")
    ap.add_argument("-tu", action="append", default=[], help="a translation unit to compile, relative to -src (repeatable; default every .c/.cc/.cpp)")
    ap.add_argument("-cache", help="keep each unit's truth here (clang output depends on the corpus and clang only)")
    ap.add_argument("-I", dest="incs", action="append", default=[], help="an include directory, relative to -src (repeatable)")
    ap.add_argument("-v", action="store_true", help="print every miss and wrong link")
    ap.add_argument("-json", help="write every truth site and graph site here")
    a = ap.parse_args()
    root = os.path.abspath(a.src)

    units = list(a.tu)
    for dp, dns, fns in ([] if units else os.walk(root)):
        dns.sort()
        for fn in sorted(fns):
            if os.path.splitext(fn)[1] in SOURCE_EXTS:
                units.append(os.path.relpath(os.path.join(dp, fn), root))
    ver = subprocess.run([a.clang, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    print(f"truth: {ver}, {len(units)} translation units", file=sys.stderr)

    parsed, failed = [], []
    todo = []
    for rel in units:
        u = load_unit(a.cache, rel)
        if u is not None:
            parsed.append((rel, u))
        else:
            todo.append(rel)
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as ex:
        for rel, rc, out, err in ex.map(lambda r: clang_json(root, r, a.clang, a.clangxx, a.incs), todo):
            if rc != 0 or not out:
                failed.append((rel, err))
                continue
            u = Unit(root, json.loads(out))
            del out
            save_unit(a.cache, rel, u)
            parsed.append((rel, u))
    parsed.sort(key=lambda p: p[0])
    for rel, err in failed:
        print(f"clang failed on {rel} (not counted): {err.strip().splitlines()[-1] if err.strip() else ''}", file=sys.stderr)

    # External definitions, as the linker sees them: key -> {(file, line)}.
    external = collections.defaultdict(set)
    for _, u in parsed:
        for kind, name, key, static, body, at in u.decls.values():
            if body and not static and at[0] is not None:
                external[key].add(at)

    nodes, by_file, edges = load_graph(a.graph)
    truth = {}  # (file, line, name) -> ("def", {node ids}) | (what, None)
    unmapped = 0
    macro_calls = 0
    seen = set()
    for _, u in parsed:
        macro_calls += u.macro_calls
        for f, line, col, name, what, ref in u.calls:
            if (f, line, col, name) in seen:
                continue  # a call in a header, met by every unit including it
            seen.add((f, line, col, name))
            key = (f, line, name)
            if what != "function":
                if what == "member" and ref in u.decls:
                    what = "function"  # a C++ method call
                else:
                    truth.setdefault(key, (what, None))
                    continue
            d = u.decls.get(ref)
            if d is None:
                truth.setdefault(key, ("external", None))
                continue
            _, dname, dkey, _, _, _ = d
            static = any(x[2] == dkey and x[3] for x in u.decls.values())
            defs = {x[5] for x in u.decls.values() if x[2] == dkey and x[4] and x[5][0] is not None}
            if not defs and not static:
                defs = external.get(dkey, set())
            if not defs:
                # No body anywhere: a pure virtual method, or a template
                # never instantiated with one here. A declaration of it in
                # the corpus that the graph holds as a node (the extractor
                # makes nodes of definitions and pure virtuals only) is the
                # target; a C prototype has no node and stays outside.
                decl_ids = {node_at(by_file, x[5][0], x[5][1], dname) for x in u.decls.values()
                            if x[2] == dkey and x[5][0] is not None}
                decl_ids.discard(None)
                if decl_ids:
                    truth[key] = ("def", decl_ids) if key not in truth or truth[key][0] != "def" else ("def", truth[key][1] | decl_ids)
                else:
                    truth.setdefault(key, ("external", None))
                continue
            ids = {node_at(by_file, df, dl, dname) for df, dl in defs}
            ids.discard(None)
            if not ids:
                unmapped += 1
                truth.setdefault(key, ("unmapped", None))
                continue
            prev = truth.get(key)
            if prev and prev[0] == "def":
                prev[1].update(ids)
            else:
                truth[key] = ("def", ids)

    checked = {f for _, u in parsed for (f, *_rest) in u.calls}
    # Declarations clang saw: a graph link at a site clang resolves, to a
    # same-named definition clang never saw declared at all, is a link to a
    # twin in an #if branch clang did not compile (atomic.h's atomic_inc
    # for __TINYC__ and _WIN32): a build-variant link, listed and counted
    # neither way. A target clang did see (a base class's pure virtual, a
    # function of another namespace) stays a wrong link.
    seen_decls = {node_at(by_file, x[5][0], x[5][1], x[1]) for _, u in parsed for x in u.decls.values()
                  if x[5][0] is not None}
    correct, wrong, unverifiable, variants = [], [], [], []
    found = set()
    graph_sites = set()  # (file, line, name, target): a link's primary site and its other sites
    for e in edges:
        tgt = nodes.get(e["target"])
        if tgt is None:
            continue
        for s in [e] + list(e.get("sites") or []):
            f = s.get("source_file")
            line = int(str(s.get("source_location", "L0")).lstrip("L") or 0)
            if f in checked:
                graph_sites.add((f, line, bare(tgt["label"]), e["target"]))
    for f, line, name, target in sorted(graph_sites):
        e = {"target": target}
        key = (f, line, name)
        t = truth.get(key)
        if t is None or t[0] == "unmapped":
            unverifiable.append((key, e["target"]))
        elif t[0] == "def" and e["target"] in t[1]:
            correct.append(key)
            found.add(key)
        elif t[0] == "def" and e["target"] not in seen_decls and bare(nodes[e["target"]]["label"]) == name:
            variants.append((key, e["target"]))
        else:
            wrong.append((key, e["target"], t))

    sites = {k: v for k, v in truth.items() if v[0] == "def"}
    kinds = collections.Counter(v[0] for v in truth.values())
    missed = sorted(k for k in sites if k not in found)
    n_ok, n_bad = len(correct), len(wrong)
    prec = n_ok / (n_ok + n_bad) if n_ok + n_bad else 1.0
    rec = len(found) / len(sites) if sites else 0.0
    print(f"clang call sites: {sum(kinds.values())} ({kinds['def']} to a corpus definition, {kinds['external']} outside the corpus, "
          f"{kinds['pointer']} through a pointer variable, {kinds['member']} through a struct member, {kinds['other']} other, "
          f"{kinds['unmapped']} to a definition with no graph node); {macro_calls} calls made by macro bodies not counted")
    print(f"graph call sites in those files: {len(correct) + len(wrong) + len(unverifiable) + len(variants)} "
          f"({len(unverifiable)} unverifiable: macro calls or code clang did not compile; "
          f"{len(variants)} to a build variant clang did not compile)")
    print(f"precision {prec:.3f} ({n_ok} right, {n_bad} wrong)   recall {rec:.3f} ({len(found)} of {len(sites)} truth sites)")
    for key, tgt, t in sorted(wrong):
        print(f"  wrong: {key[0]}:{key[1]} {key[2]} -> {tgt} (clang: {t[0]}{' ' + ','.join(sorted(t[1])) if t[1] else ''})")
    if a.v:
        for key in missed:
            print(f"  missed: {key[0]}:{key[1]} {key[2]} -> {','.join(sorted(sites[key][1]))}")
        for key, tgt in sorted(unverifiable):
            print(f"  unverifiable: {key[0]}:{key[1]} {key[2]} -> {tgt}")
        for key, tgt in sorted(variants):
            print(f"  variant: {key[0]}:{key[1]} {key[2]} -> {tgt}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"truth": [[*k, v[0], sorted(v[1] or [])] for k, v in sorted(truth.items())],
                       "correct": sorted(correct), "wrong": [[*k, t] for k, t, _ in sorted(wrong)],
                       "unverifiable": [[*k, t] for k, t in sorted(unverifiable)],
                       "variants": [[*k, t] for k, t in sorted(variants)]}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
