#!/usr/bin/env python3
"""Site-level call accuracy of a synaptic graph.json on Python, against jedi's
static resolution. See README.md.

  python3 callers.py -src DIR -graph OUT/graph.json [-only a,b.py] [-j N] [-v] [-json FILE]

-j N resolves N files at a time (default 2). -only restricts the call sites checked to these top-level packages or
modules of -src (every file still resolves against the whole of -src). jedi
is imported from python3's path (apt-get install python3-jedi, or pip install
jedi). Plain Python 3, standard library + jedi.
"""
import ast
import json
import os
import sys
from collections import OrderedDict

NO_JEDI = ('jedi is not installed for %s: apt-get install python3-jedi, '
           'or pip install jedi' % sys.executable)


def import_jedi():
    try:
        import jedi
    except ImportError:
        return None
    return jedi


# ---------------------------------------------------------------- graph side

def bare_name(label):
    """A node label as a declaration name ("parse()", ".get()", "Request" ->
    "parse", "get", "request")."""
    s = str(label or '').lower()
    if s.endswith('()'):
        s = s[:-2]
    if s.startswith('.'):
        s = s[1:]
    return s


def load_graph(file):
    with open(file, encoding='utf-8') as f:
        g = json.load(f)
    nodes = {}
    by_line = {}  # (file, line) -> [node]
    for n in g.get('nodes', []):
        nodes[n['id']] = n
        if not n.get('source_file') or not n.get('span') or n.get('kind') == 'file':
            continue
        by_line.setdefault((n['source_file'], n['span']['start_line']), []).append(n)
    # parent: a method's class (relation "method"), so a site linked to
    # .__init__() can be matched to the call of its class by name.
    parent = {}
    for l in g.get('links', []):
        if l.get('relation') == 'method':
            parent[l['target']] = l['source']
    # Every calls link gives its primary site and each of its "sites"; a
    # (file, line, target) triple counts once.
    sites = OrderedDict()
    for l in g.get('links', []):
        if l.get('relation') != 'calls':
            continue
        for s in [{'source_file': l.get('source_file'), 'source_location': l.get('source_location')}] + list(l.get('sites') or []):
            loc = str(s.get('source_location') or '')
            line = int(loc[1:]) if loc.startswith('L') and loc[1:].isdigit() else 0
            if not s.get('source_file') or not line:
                continue
            key = (s['source_file'], line, l['target'])
            if key not in sites:
                sites[key] = {'file': s['source_file'], 'line': line, 'target': l['target'], 'source': l.get('source')}
    return {'nodes': nodes, 'by_line': by_line, 'parent': parent, 'sites': list(sites.values())}


# ---------------------------------------------------------------- jedi side

def list_py(src, only=None):
    out = []
    for d, dirs, files in os.walk(src):
        dirs[:] = sorted(x for x in dirs if not x.startswith('.') and x != '__pycache__')
        for f in files:
            if f.endswith('.py'):
                out.append(os.path.join(d, f))
    out.sort()
    if only:
        keep = []
        for f in out:
            top = os.path.relpath(f, src).split(os.sep)[0]
            if top in only or (top.endswith('.py') and top[:-3] in only):
                keep.append(f)
        out = keep
    return out


class Defs:
    """ast of corpus files, parsed once: where decorators start and which
    __init__ a class has."""

    def __init__(self):
        self.cache = {}

    def get(self, path):
        if path not in self.cache:
            info = {}
            try:
                with open(path, encoding='utf-8') as f:
                    tree = ast.parse(f.read(), path)
            except (OSError, SyntaxError, ValueError):
                tree = None
            for n in ast.walk(tree) if tree else ():
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    info[n.lineno] = n
            self.cache[path] = info
        return self.cache[path]


def def_lines(node, line):
    """The lines a graph node of this definition may start on: the def/class
    line, and the first decorator's."""
    lines = {line}
    if node is not None and node.decorator_list:
        # "@" sits on its expression's first line.
        lines.add(min(d.lineno for d in node.decorator_list))
    return lines


def char_col(line_text, byte_col):
    """ast columns are UTF-8 byte offsets; jedi's are characters."""
    return len(line_text.encode('utf-8')[:byte_col].decode('utf-8', 'replace'))


def receiver_shape(r):
    if isinstance(r, ast.Name):
        return 'name'
    if isinstance(r, ast.Call):
        return 'call result'
    if isinstance(r, ast.Attribute):
        b = r.value
        while isinstance(b, ast.Attribute):
            b = b.value
        return 'self.field' if isinstance(b, ast.Name) and b.id in ('self', 'cls') else 'a.b chain'
    if isinstance(r, ast.Subscript):
        return 'a[i]'
    if isinstance(r, (ast.Constant, ast.JoinedStr)):
        return 'literal'
    return type(r).__name__


def target_kind(types):
    if any(t in ('function', 'class', 'property') for t in types):
        return 'function, method or class'
    return 'variable, field or parameter'


def from_stubs(ds):
    """goto keeps a typeshed stub's name for a method inherited from a class
    jedi reached through its stub (logging.Handler.acquire); jedi's own
    Name.goto(prefer_stubs=False) takes it to the Python source when there is
    one."""
    out = []
    for d in ds:
        conv = []
        if d.is_stub() and hasattr(d, 'goto'):
            try:
                conv = [x for x in d.goto(follow_imports=True, prefer_stubs=False) if not x.is_stub()]
            except Exception:
                conv = []
        out.extend(conv or [d])
    return out


def goto(script, line, col, counts):
    try:
        return from_stubs(script.goto(line, col, follow_imports=True))
    except Exception:  # jedi has internal errors on odd code
        counts['errors'] += 1
        return []


def where(d, src):
    p = str(d.module_path) if d.module_path else ''
    if p and os.path.realpath(p).startswith(src + os.sep):
        return os.path.relpath(os.path.realpath(p), src).replace(os.sep, '/')
    if not p:
        return 'builtins'
    return os.path.basename(p)


class Resolver:
    """jedi over one corpus: the calls of a file, each with the graph nodes
    its callee resolves to."""

    def __init__(self, jedi, src, G):
        self.jedi, self.src, self.G = jedi, src, G
        self.project = jedi.Project(src)
        self.defs = Defs()

    def map_def(self, d, kind_new):
        """Graph nodes a jedi definition maps to: same file, start line is the
        def/class line or its first decorator's, same bare name; for a class
        called, also its __init__."""
        src, by_line = self.src, self.G['by_line']
        p = d.module_path and os.path.realpath(str(d.module_path))
        if not p or not p.startswith(src + os.sep) or not d.line:
            return []
        rel = os.path.relpath(p, src).replace(os.sep, '/')
        node = self.defs.get(p).get(d.line)
        out = []
        want = d.name.lower()
        for line in def_lines(node, d.line):
            for n in by_line.get((rel, line), []):
                if bare_name(n['label']) == want:
                    out.append(n['id'])
        if kind_new and isinstance(node, ast.ClassDef):
            for m in node.body:
                if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name == '__init__':
                    for line in def_lines(m, m.lineno):
                        for n in by_line.get((rel, line), []):
                            if bare_name(n['label']) == '__init__':
                                out.append(n['id'])
        return out

    def file(self, path):
        """(calls, counts) of one file, calls in source order."""
        jedi, src = self.jedi, self.src
        counts = dict.fromkeys(COUNTS, 0)
        recs = []
        rel = os.path.relpath(path, src).replace(os.sep, '/')
        with open(path, encoding='utf-8') as f:
            code = f.read()
        try:
            tree = ast.parse(code, path)
        except SyntaxError:
            counts['errors'] += 1
            return recs, counts
        text_lines = code.splitlines()
        script = jedi.Script(code, path=path, project=self.project)
        calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call)),
                       key=lambda n: (n.lineno, n.col_offset))
        # Calls a with item is made of (with C() as c:), whose class's
        # __enter__/__exit__ the statement runs (see WITH_METHODS).
        with_calls = {id(item.context_expr) for n in ast.walk(tree) if isinstance(n, (ast.With, ast.AsyncWith))
                      for item in n.items if isinstance(item.context_expr, ast.Call)}
        for call in calls:
            counts['calls'] += 1
            fn = call.func
            receiver = ''
            if isinstance(fn, ast.Name):
                kind, name, line, bcol = 'f()', fn.id, fn.lineno, fn.col_offset
            elif isinstance(fn, ast.Attribute):
                r = fn.value
                is_self = (isinstance(r, ast.Name) and r.id in ('self', 'cls')) or (
                    isinstance(r, ast.Call) and isinstance(r.func, ast.Name) and r.func.id == 'super')
                kind = 'self.m()' if is_self else 'x.m()'
                if not is_self:
                    receiver = receiver_shape(r)
                name, line, bcol = fn.attr, fn.end_lineno, fn.end_col_offset - len(fn.attr.encode('utf-8'))
            else:
                kind, name, line, bcol = 'other', '', call.lineno, call.col_offset
            text = ' '.join((ast.get_source_segment(code, fn) or '').split())
            if len(text) > 60:
                text = text[:57] + '...'
            rec = {'file': rel, 'line': line, 'kind': kind, 'receiver': receiver, 'text': text, 'name': name,
                   'targets': [], 'types': [], 'tkind': '', 'jedi': '', 'found': False, 'resolved': False,
                   'with': id(call) in with_calls}
            recs.append(rec)
            if not name:
                counts['no_name'] += 1
                counts['unresolved'] += 1
                continue
            col = char_col(text_lines[line - 1], bcol)
            rec['col'] = col
            ds = goto(script, line, col, counts)
            if not ds:
                # One Script for the whole file is fast, but jedi memoizes
                # inferences cut short by its recursion limits, and later
                # calls in a long file stop resolving (http/server.py
                # self.send_header). A call it misses is asked again of a
                # fresh Script, as an editor would ask (one Script per call
                # would be 4x slower; one per class resolves no more).
                ds = goto(jedi.Script(code, path=path, project=self.project), line, col, counts)
                if ds:
                    counts['retried'] += 1
            if not ds:
                counts['unresolved'] += 1
                continue
            rec['resolved'] = True
            rec['types'] = sorted(set(d.type for d in ds))
            if any(d.type == 'class' for d in ds) and kind in ('f()', 'x.m()'):
                rec['kind'] = kind = 'C()'
            d0 = ds[0]
            rec['jedi'] = '%s (%s, %s:%s)' % (d0.name, d0.type, where(d0, src), d0.line)
            targets = set()
            for d in ds:
                targets.update(self.map_def(d, d.type == 'class' and kind == 'C()'))
            rec['tkind'] = target_kind(rec['types'])
            if not targets:
                counts['external'] += 1
                continue
            rec['targets'] = sorted(targets)
        return recs, counts

    def infer(self, path, line, col):
        """What jedi infers at a callee (goto stops at an assignment; infer
        follows it): a hint for the reader of a wrong link."""
        with open(path, encoding='utf-8') as f:
            code = f.read()
        try:
            ds = self.jedi.Script(code, path=path, project=self.project).infer(line, col)
        except Exception:
            ds = []
        return ['%s (%s, %s:%s)' % (d.name, d.type, where(d, self.src), d.line) for d in ds[:3]]


COUNTS = ('calls', 'unresolved', 'external', 'errors', 'no_name', 'retried')
_resolver = None  # a -j worker's own Resolver


def _init(src, G):
    global _resolver
    _resolver = Resolver(import_jedi(), src, G)


def _work(path):
    return _resolver.file(path)


def resolve_all(R, files, jobs):
    """Resolver.file over every file, in jobs processes when jobs > 1. Each
    file is resolved alone, so the results do not depend on jobs. The
    workers are spawned, not forked: a forked jedi would share its parent's
    pipes to jedi's compiled-module subprocess, and hang."""
    if jobs <= 1 or len(files) < 2:
        return [R.file(p) for p in files]
    import multiprocessing
    # Largest first, so the pool ends together; results in file order.
    order = sorted(files, key=lambda p: -os.path.getsize(p))
    ctx = multiprocessing.get_context('spawn')
    with ctx.Pool(min(jobs, len(files)), _init, (R.src, R.G)) as pool:
        got = dict(zip(order, pool.imap(_work, order, chunksize=1)))
    return [got[p] for p in files]


# The methods a with statement runs implicitly on its item's value: a
# graph site linking one of them is judged by the class the item's call
# constructs, as jedi resolves it (its own method; an inherited one stays
# unjudged by this rule).
WITH_METHODS = {'__enter__', '__exit__', '__aenter__', '__aexit__'}


def evaluate(jedi, src, graph, only=None, jobs=1):
    """Every number and list the report prints."""
    src = os.path.realpath(src)
    G = graph if isinstance(graph, dict) else load_graph(graph)
    files = list_py(src, only)
    R = Resolver(jedi, src, G)

    truth = []
    lines = {}  # (file, line) -> {'calls': [...], 'resolvable': bool}
    counts = dict.fromkeys(COUNTS, 0)
    for recs, c in resolve_all(R, files, jobs):
        for k in COUNTS:
            counts[k] += c[k]
        for rec in recs:
            L = lines.setdefault((rec['file'], rec['line']), {'calls': [], 'resolvable': False})
            L['calls'].append(rec)
            L['resolvable'] = L['resolvable'] or rec['resolved']
            if rec['targets']:
                truth.append(rec)

    # A truth site counts once per (file, line, target set): f(f(x)) is one site.
    seen = set()
    truth_sites = []
    for t in truth:
        k = (t['file'], t['line'], tuple(t['targets']))
        if k not in seen:
            seen.add(k)
            truth_sites.append(t)

    checked = set(os.path.relpath(f, src).replace(os.sep, '/') for f in files)
    graph_by_line = {}
    for s in G['sites']:
        graph_by_line.setdefault((s['file'], s['line']), []).append(s)

    # Recall.
    misses, found = [], 0
    for t in truth_sites:
        gs = graph_by_line.get((t['file'], t['line']), [])
        t['found'] = any(s['target'] in t['targets'] for s in gs)
        if t['found']:
            found += 1
            continue
        t['graph_here'] = [s['target'] for s in gs]
        # Linked a few lines off: a line-numbering disagreement, not a miss
        # of the resolver.
        t['near'] = any(s['target'] in t['targets'] for d in range(-3, 4) if d
                        for s in graph_by_line.get((t['file'], t['line'] + d), []))
        misses.append(t)

    # Precision.
    correct, wrong, unverifiable, unchecked = [], [], [], []
    for s in G['sites']:
        s = dict(s)
        if s['file'] not in checked:
            unchecked.append(s)
            continue
        L = lines.get((s['file'], s['line']))
        calls = L['calls'] if L else []
        tn = G['nodes'].get(s['target'])
        names = {bare_name(tn['label'] if tn else s['target'])}
        if tn and bare_name(tn['label']) == '__init__' and s['target'] in G['parent']:
            cls = G['nodes'].get(G['parent'][s['target']])
            if cls:
                names.add(bare_name(cls['label']))
        hit = next((c for c in calls if s['target'] in c['targets']), None)
        if not hit and tn and bare_name(tn['label']) in WITH_METHODS:
            # No call is written for it: right when a with item on the
            # line is a call jedi resolves to the class declaring it.
            cls = G['parent'].get(s['target'])
            hit = next((c for c in calls if c.get('with') and cls in c['targets']), None)
        named = [c for c in calls if c['name'].lower() in names]
        # The call the site stands for: the one that resolves to the target,
        # else the one whose callee name is the target's, else the only one.
        c = hit or (named[0] if named else (calls[0] if len(calls) == 1 else None))
        s['call'] = c
        s['kind'] = c['kind'] if c else ('mixed' if calls else 'no call')
        s['tkind'] = c['tkind'] if c else ''
        if hit:
            correct.append(s)
        elif L and L['resolvable'] and not (named and not any(x.get('resolved') for x in named)):
            wrong.append(s)
        else:
            unverifiable.append(s)

    # What jedi infers for the calls on a wrong link's line, as a hint.
    for s in wrong:
        for c in lines[(s['file'], s['line'])]['calls']:
            if 'col' in c and 'infer' not in c:
                c['infer'] = R.infer(os.path.join(src, c['file']), c['line'], c['col'])

    return {'files': len(files), 'counts': counts, 'truth_sites': truth_sites, 'found': found,
            'misses': misses, 'graph_sites': len(G['sites']), 'correct': correct, 'wrong': wrong,
            'unverifiable': unverifiable, 'unchecked': unchecked, 'lines': lines, 'nodes': G['nodes']}


# ---------------------------------------------------------------- report

KINDS = [('f()', '`f()`'), ('self.m()', '`self.m()` / `cls.m()` / `super().m()`'),
         ('x.m()', '`x.m()`'), ('C()', '`C()` (class)'), ('other', 'other (`a[i]()`, `f()()`)')]
TKINDS = ['function, method or class', 'variable, field or parameter']


def ratio(a, b):
    return '%.2f' % (a / b) if b else '–'


def table(r):
    rows = [('**all calls**', lambda x: True)]
    rows += [('↳ ' + label, (lambda k: lambda x: x['kind'] == k)(k)) for k, label in KINDS]
    rows += [('↳ callee: ' + k, (lambda k: lambda x: x['tkind'] == k)(k)) for k in TKINDS]
    out = ['| call kind | truth sites | found | recall | graph sites | correct | wrong | unverifiable | precision |',
           '|---|---:|---:|---:|---:|---:|---:|---:|---:|']
    for name, f in rows:
        t = [x for x in r['truth_sites'] if f(x)]
        fd = sum(1 for x in t if x['found'])
        c = sum(1 for x in r['correct'] if f(x))
        w = sum(1 for x in r['wrong'] if f(x))
        u = sum(1 for x in r['unverifiable'] if f(x))
        if not t and not c and not w and not u:
            continue
        b = '**' if name.startswith('**') else ''
        out.append('| %s | %d | %d | %s%s%s | %d | %d | %d | %d | %s%s%s |' % (
            name, len(t), fd, b, ratio(fd, len(t)), b, c + w + u, c, w, u, b, ratio(c, c + w), b))
    return '\n'.join(out)


def group(items, keyf):
    m = OrderedDict()
    for x in items:
        m.setdefault(keyf(x), []).append(x)
    return sorted(m.items(), key=lambda kv: -len(kv[1]))


def report(r, verbose=False):
    out = []
    p = out.append
    c = r['counts']
    p('jedi: %d files checked; %d calls: %d truth sites to graph nodes, %d resolved outside the graph '
      '(builtins, other stdlib, parameters, locals), %d unresolved (%d without a callee name); '
      '%d resolved only by a fresh Script; %d jedi errors.'
      % (r['files'], c['calls'], len(r['truth_sites']), c['external'], c['unresolved'], c['no_name'],
         c['retried'], c['errors']))
    p('graph: %d call sites (%d in files outside the checked set).' % (r['graph_sites'], len(r['unchecked'])))
    p('')
    p(table(r))
    p('')
    nodes = r['nodes']

    def lbl(i):
        n = nodes.get(i)
        return '%s [%s:%s]' % (n['label'], n.get('source_file'), n['span']['start_line'] if n.get('span') else '?') if n else i

    def miss_key(t):
        return '`%s`%s → %s' % (t['kind'], ' on ' + t['receiver'] if t['receiver'] else '', '+'.join(t['types']))

    p('Misses by call kind → jedi definition type (%d):' % len(r['misses']))
    p('')
    for k, l in group(r['misses'], miss_key):
        ex = l if verbose else l[:3]
        p('- %s: %d, e.g. %s' % (k, len(l), ', '.join('%s:%d `%s`' % (t['file'], t['line'], t['text']) for t in ex)))
    other = sum(1 for t in r['misses'] if t['graph_here'])
    near = sum(1 for t in r['misses'] if t['near'])
    p('')
    p('(%d of the misses are on a line where the graph links another call; %d have the right target linked within ±3 lines.)' % (other, near))
    p('')
    p('Wrong links (%d):' % len(r['wrong']))
    p('')
    for s in (r['wrong'] if verbose else r['wrong'][:25]):
        L = r['lines'][(s['file'], s['line'])]
        js = []
        for c in L['calls']:
            if not c.get('resolved'):
                continue
            t = ' | '.join(lbl(i) for i in c['targets']) if c['targets'] else c['jedi']
            inf = c.get('infer') or []
            note = '; infer: ' + ', '.join(inf) if inf and not c['targets'] and inf[0] != c['jedi'] else ''
            js.append('`%s` → %s%s' % (c['text'], t, note))
        p('- %s:%d: graph → %s; jedi: %s' % (s['file'], s['line'], lbl(s['target']), '; '.join(js)))
    if not verbose and len(r['wrong']) > 25:
        p('- … %d more (-v)' % (len(r['wrong']) - 25))
    p('')
    p('Unverifiable graph sites (jedi resolves no call on the line, or not the one of that name; not counted): %d'
      % len(r['unverifiable']))
    if verbose:
        for s in r['unverifiable']:
            L = r['lines'].get((s['file'], s['line']))
            calls = ', '.join('`%s`' % c['text'] for c in L['calls']) if L else 'none on the line'
            p('- %s:%d: graph → %s; calls: %s' % (s['file'], s['line'], lbl(s['target']), calls))
    return '\n'.join(out)


def main(argv):
    a = {'v': False}
    i = 0
    while i < len(argv):
        k = argv[i].lstrip('-')
        if k == 'v':
            a['v'] = True
        elif i + 1 < len(argv):
            a[k] = argv[i + 1]
            i += 1
        i += 1
    if not a.get('src') or not a.get('graph'):
        print('usage: python3 callers.py -src DIR -graph graph.json [-only a,b.py] [-j N] [-v] [-json FILE]', file=sys.stderr)
        return 2
    jedi = import_jedi()
    if jedi is None:
        print('callers-py: ' + NO_JEDI, file=sys.stderr)
        return 1
    only = [x.strip() for x in a['only'].split(',') if x.strip()] if a.get('only') else None
    r = evaluate(jedi, a['src'], a['graph'], only, int(a.get('j') or 2))
    print('jedi %s (%s), python %s; files: %s\n' % (
        jedi.__version__, os.path.dirname(jedi.__file__), sys.version.split()[0], ', '.join(only) if only else 'all'))
    print(report(r, a['v']))
    if a.get('json'):
        def strip(s):
            c = s.get('call') or {}
            return {'file': s['file'], 'line': s['line'], 'kind': s['kind'], 'target': s['target'], 'text': c.get('text')}
        with open(a['json'], 'w', encoding='utf-8') as f:
            json.dump({
                'jedi': jedi.__version__,
                'truth': [{k: t[k] for k in ('file', 'line', 'kind', 'text', 'targets', 'found', 'jedi')} for t in r['truth_sites']],
                'correct': [strip(s) for s in r['correct']], 'wrong': [strip(s) for s in r['wrong']],
                'unverifiable': [strip(s) for s in r['unverifiable']],
            }, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
