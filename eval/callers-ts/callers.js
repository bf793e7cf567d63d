#!/usr/bin/env node
// Site-level call accuracy of a synaptic graph.json on TypeScript, against the
// TypeScript compiler's own resolution. See README.md.
//
//   node callers.js -src DIR -graph DIR/synaptic-out/graph.json [-v] [-json FILE]
//
// `typescript` is required from NODE_PATH (.ci/eval-callers-ts.sh installs a
// pinned one). Plain CommonJS, no build step.
'use strict';

const fs = require('fs');
const path = require('path');

// ---------------------------------------------------------------- graph side

// bareName: a node label as a declaration name ("map()", ".subscribe()",
// "Observable" -> "map", "subscribe", "observable").
function bareName(label) {
  let s = String(label || '').toLowerCase();
  if (s.endsWith('()')) s = s.slice(0, -2);
  if (s.startsWith('.')) s = s.slice(1);
  return s;
}

function loadGraph(file) {
  const g = JSON.parse(fs.readFileSync(file, 'utf8'));
  const nodes = new Map(); // id -> node
  const byLine = new Map(); // "file:line" -> [node]
  for (const n of g.nodes || []) {
    nodes.set(n.id, n);
    if (!n.source_file || !n.span || n.kind === 'file') continue;
    const k = n.source_file + ':' + n.span.start_line;
    if (!byLine.has(k)) byLine.set(k, []);
    byLine.get(k).push(n);
  }
  // Every calls link gives its primary site and each of its "sites"; a
  // (file, line, target) triple counts once.
  const sites = new Map();
  for (const l of g.links || []) {
    if (l.relation !== 'calls') continue;
    const all = [{ source_file: l.source_file, source_location: l.source_location }, ...(l.sites || [])];
    for (const s of all) {
      const line = Number(String(s.source_location || '').replace(/^L/, ''));
      if (!s.source_file || !line) continue;
      const key = s.source_file + ':' + line + '\0' + l.target;
      if (!sites.has(key)) sites.set(key, { file: s.source_file, line, target: l.target, source: l.source });
    }
  }
  return { nodes, byLine, sites: [...sites.values()] };
}

// ---------------------------------------------------------------- TS side

function listTS(dir) {
  const out = [];
  (function walk(d) {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx|mts|cts)$/.test(e.name) && !/\.d\.[mc]?ts$/.test(e.name)) out.push(p);
    }
  })(dir);
  return out.sort();
}

// compilerOptions: the ones rxjs's own tsconfig.base.json implies (its
// `extends ../tsconfig.json` is not in the npm package), written out.
function compilerOptions(ts, src) {
  return {
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Node10 !== undefined ? ts.ModuleResolutionKind.Node10 : ts.ModuleResolutionKind.NodeJs,
    lib: ['lib.es2020.d.ts', 'lib.dom.d.ts'],
    strict: false,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    baseUrl: src,
    paths: { rxjs: ['./'], 'rxjs/*': ['./*'] },
    allowJs: false,
  };
}

function unwrap(ts, e) {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e) ||
    ts.isTypeAssertionExpression(e) || (ts.isSatisfiesExpression && ts.isSatisfiesExpression(e))) e = e.expression;
  return e;
}

function declName(ts, d) {
  if (ts.isConstructorDeclaration(d)) return 'constructor';
  const n = ts.getNameOfDeclaration(d);
  if (!n) return null;
  if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n)) return n.text;
  return n.getText();
}

// targetKind: what the callee is declared as, coarsely.
function targetKind(kinds) {
  if (kinds.some((k) => /^(Function|Method|Class|Constructor)\b|\(function\)/.test(k))) return 'function, method or class';
  if (kinds.every((k) => /Signature$/.test(k))) return 'interface member';
  return 'variable, field or parameter';
}

// evaluate returns every number and list the report prints.
function evaluate({ ts, src, graph }) {
  src = path.resolve(src);
  const G = typeof graph === 'string' ? loadGraph(graph) : graph;
  const files = listTS(src);
  const program = ts.createProgram(files, compilerOptions(ts, src));
  const checker = program.getTypeChecker();
  const rel = (f) => path.relative(src, f).split(path.sep).join('/');
  const corpus = new Set(files.map((f) => path.resolve(f)));
  const lineOf = (sf, pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;

  // mapDecl: graph nodes a declaration maps to (same file, start line is the
  // declaration's or its name's, same bare name).
  const mapDecl = (d) => {
    const sf = d.getSourceFile();
    if (!corpus.has(path.resolve(sf.fileName))) return [];
    const name = declName(ts, d);
    if (!name) return [];
    const lines = new Set([lineOf(sf, d.getStart(sf))]);
    const nm = ts.getNameOfDeclaration(d);
    if (nm) lines.add(lineOf(sf, nm.getStart(sf)));
    if (ts.isVariableDeclaration(d) && d.parent && d.parent.parent && ts.isVariableStatement(d.parent.parent)) lines.add(lineOf(sf, d.parent.parent.getStart(sf)));
    const f = rel(sf.fileName), want = name.toLowerCase(), out = [];
    for (const line of lines) for (const n of G.byLine.get(f + ':' + line) || []) if (bareName(n.label) === want) out.push(n.id);
    return out;
  };
  // declKind: "Function", "Method", "PropertySignature", … ; a variable
  // initialized with an arrow function or function expression is
  // "Variable (function)"; ", nested" when declared inside a function.
  const declKind = (d) => {
    let k = ts.SyntaxKind[d.kind].replace(/Declaration$/, '');
    if (ts.isVariableDeclaration(d) && d.initializer) {
      const i = unwrap(ts, d.initializer);
      if (ts.isArrowFunction(i) || ts.isFunctionExpression(i)) k += ' (function)';
    }
    if (ts.isVariableDeclaration(d) || ts.isFunctionDeclaration(d)) {
      for (let p = d.parent; p; p = p.parent) if (ts.isFunctionLike(p)) { k += ', nested'; break; }
    }
    return k;
  };

  // receiverShape: how the receiver of x.m() is written, and for a name
  // whether its declaration spells a type (what a resolver has to infer).
  const receiverShape = (r) => {
    if (ts.isIdentifier(r)) {
      let sym = checker.getSymbolAtLocation(r);
      if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
      const d = sym && sym.declarations && sym.declarations[0];
      if (!d) return 'name';
      const k = declKind(d);
      if (ts.isParameter(d) || ts.isVariableDeclaration(d) || ts.isPropertyDeclaration(d)) return `${k}, ${d.type ? 'with a type' : 'without a type'}`;
      return k;
    }
    if (ts.isCallExpression(r) || ts.isNewExpression(r)) return 'call result';
    if (ts.isPropertyAccessExpression(r)) return unwrap(ts, r.expression).kind === ts.SyntaxKind.ThisKeyword ? 'this.field' : 'a.b chain';
    if (ts.isElementAccessExpression(r)) return 'a[i]';
    return ts.SyntaxKind[r.kind];
  };
  const truth = []; // sites with corpus-node targets
  const lines = new Map(); // "file:line" -> { calls: [...], resolvable: bool }
  let callExprs = 0, unresolved = 0, external = 0;
  const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.category === ts.DiagnosticCategory.Error);

  for (const sf of program.getSourceFiles()) {
    if (!corpus.has(path.resolve(sf.fileName))) continue;
    const file = rel(sf.fileName);
    const visit = (node) => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) site(node);
      ts.forEachChild(node, visit);
    };
    const site = (call) => {
      const callee = unwrap(ts, call.expression);
      if (callee.kind === ts.SyntaxKind.ImportKeyword) return;
      callExprs++;
      let kind, nameNode, receiver = '';
      if (ts.isNewExpression(call)) {
        kind = 'new X()';
        nameNode = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
      } else if (callee.kind === ts.SyntaxKind.SuperKeyword) {
        kind = 'super()';
        nameNode = callee;
      } else if (ts.isIdentifier(callee)) {
        kind = 'f()';
        nameNode = callee;
      } else if (ts.isPropertyAccessExpression(callee)) {
        const r = unwrap(ts, callee.expression);
        receiver = r.kind === ts.SyntaxKind.ThisKeyword || r.kind === ts.SyntaxKind.SuperKeyword ? 'this' : 'other';
        kind = receiver === 'this' ? 'this.m()' : 'x.m()';
        nameNode = callee.name;
      } else {
        kind = 'other';
        nameNode = callee;
      }
      const line = lineOf(sf, nameNode.getStart(sf));
      const text = callee.getText(sf).replace(/\s+/g, ' ');
      let sym = checker.getSymbolAtLocation(nameNode);
      if (!sym && kind === 'super()') {
        const t = checker.getTypeAtLocation(nameNode);
        sym = t && t.symbol;
      }
      if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
      if (kind === 'x.m()') receiver = receiverShape(unwrap(ts, callee.expression));
      const key = file + ':' + line;
      if (!lines.has(key)) lines.set(key, { calls: [], resolvable: false });
      const L = lines.get(key);
      const rec = { file, line, kind, receiver, text, name: nameNode.getText(sf), targets: [], declKinds: [], tkind: '', tsTarget: '' };
      L.calls.push(rec);
      if (!sym || !sym.declarations || sym.declarations.length === 0) { unresolved++; return; }
      L.resolvable = true;
      const decls = sym.declarations;
      const d0 = decls[0], sf0 = d0.getSourceFile();
      rec.tsTarget = `${checker.symbolToString(sym)} (${declKind(d0)}, ${corpus.has(path.resolve(sf0.fileName)) ? rel(sf0.fileName) : path.basename(sf0.fileName)}:${lineOf(sf0, d0.getStart(sf0))})`;
      const targets = new Set();
      for (const d of decls) {
        for (const id of mapDecl(d)) targets.add(id);
        rec.declKinds.push(declKind(d));
        // new X(): the class node, and its constructor node if the graph has one.
        if (kind !== 'f()' && kind !== 'this.m()' && kind !== 'x.m()' && (ts.isClassDeclaration(d) || ts.isClassExpression(d))) {
          for (const m of d.members) if (ts.isConstructorDeclaration(m)) for (const id of mapDecl(m)) targets.add(id);
        }
      }
      rec.tkind = targetKind(rec.declKinds);
      if (targets.size === 0) { external++; return; }
      rec.targets = [...targets].sort();
      truth.push(rec);
    };
    visit(sf);
  }

  // A truth site counts once per (file, line, target set): f(f(x)) is one site.
  const seen = new Set();
  const truthSites = truth.filter((t) => {
    const k = t.file + ':' + t.line + '\0' + t.targets.join(',');
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });

  const checked = new Set([...corpus].map(rel));
  const graphByLine = new Map();
  for (const s of G.sites) {
    const k = s.file + ':' + s.line;
    if (!graphByLine.has(k)) graphByLine.set(k, []);
    graphByLine.get(k).push(s);
  }

  // Recall.
  const misses = [];
  let found = 0;
  for (const t of truthSites) {
    const gs = graphByLine.get(t.file + ':' + t.line) || [];
    t.found = gs.some((s) => t.targets.includes(s.target));
    if (t.found) found++;
    else {
      t.graphHere = gs.map((s) => s.target);
      misses.push(t);
    }
  }

  // Precision.
  const correct = [], wrong = [], unverifiable = [], unchecked = [];
  for (const s of G.sites) {
    if (!checked.has(s.file)) { unchecked.push(s); continue; }
    const L = lines.get(s.file + ':' + s.line);
    const tn = G.nodes.get(s.target);
    const want = bareName(tn ? tn.label : s.target);
    const calls = L ? L.calls : [];
    const hit = calls.find((c) => c.targets.includes(s.target));
    // The call the site stands for: the one that resolves to the target,
    // else the one whose callee name is the target's, else the only one.
    s.call = hit || calls.find((c) => c.name.toLowerCase() === want) || (calls.length === 1 ? calls[0] : null);
    s.kind = s.call ? s.call.kind : calls.length ? 'mixed' : 'no call';
    s.tkind = s.call ? s.call.tkind : '';
    if (hit) correct.push(s);
    else if (L && L.resolvable) wrong.push(s);
    else unverifiable.push(s);
  }

  return { program, diagnostics, files: files.length, callExprs, unresolved, external, truthSites, found, misses, graphSites: G.sites.length, correct, wrong, unverifiable, unchecked, lines, nodes: G.nodes };
}

// ---------------------------------------------------------------- report

const KINDS = ['f()', 'this.m()', 'x.m()', 'new X()', 'super()', 'other'];
const ratio = (a, b) => (b ? (a / b).toFixed(2) : '–');

const TKINDS = ['function, method or class', 'interface member', 'variable, field or parameter'];

function table(r) {
  const rows = [['**all calls**', () => true],
    ...KINDS.map((k) => [k === 'this.m()' ? '↳ `this.m()` / `super.m()`' : '↳ `' + k + '`', (x) => x.kind === k]),
    ...TKINDS.map((k) => ['↳ callee: ' + k, (x) => x.tkind === k])];
  const out = [];
  out.push('| call kind | truth sites | found | recall | graph sites | correct | wrong | unverifiable | precision |');
  out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [name, f] of rows) {
    const t = r.truthSites.filter(f), fd = t.filter((x) => x.found).length;
    const c = r.correct.filter(f).length, w = r.wrong.filter(f).length, u = r.unverifiable.filter(f).length;
    if (!t.length && !c && !w && !u) continue;
    const b = name.startsWith('**') ? '**' : '';
    out.push(`| ${name} | ${t.length} | ${fd} | ${b}${ratio(fd, t.length)}${b} | ${c + w + u} | ${c} | ${w} | ${u} | ${b}${ratio(c, c + w)}${b} |`);
  }
  return out.join('\n');
}

function group(list, keyf) {
  const m = new Map();
  for (const x of list) {
    const k = keyf(x);
    if (!m.has(k)) m.set(k, []);
    m.get(k).push(x);
  }
  return [...m.entries()].sort((a, b) => b[1].length - a[1].length);
}

function report(r, verbose) {
  const lines = [];
  const p = (s = '') => lines.push(s);
  p(`TypeScript program: ${r.files} corpus files, ${r.diagnostics.length} type errors; ` +
    `${r.callExprs} call/new expressions: ${r.truthSites.length} truth sites to graph nodes, ` +
    `${r.external} resolved outside the graph (lib, parameters, locals), ${r.unresolved} unresolved.`);
  p(`graph: ${r.graphSites} call sites (${r.unchecked.length} in files the program did not check).`);
  p();
  p(table(r));
  p();
  const lbl = (id) => { const n = r.nodes.get(id); return n ? `${n.label} [${n.source_file}:${n.span ? n.span.start_line : '?'}]` : id; };
  const missKey = (t) => `\`${t.kind}\`${t.receiver ? ' on ' + t.receiver : ''} → ${[...new Set(t.declKinds)].join('+')}`;
  p(`Misses by call kind → declaration kind (${r.misses.length}):`);
  p();
  for (const [k, l] of group(r.misses, missKey)) {
    p(`- ${k}: ${l.length}, e.g. ` + l.slice(0, verbose ? l.length : 3).map((t) => `${t.file}:${t.line} \`${t.text}\``).join(', '));
  }
  const other = r.misses.filter((t) => t.graphHere.length).length;
  p();
  p(`(${other} of the misses are on a line where the graph links another call.)`);
  p();
  p(`Wrong links (${r.wrong.length}):`);
  p();
  for (const s of r.wrong.slice(0, verbose ? r.wrong.length : 15)) {
    const L = r.lines.get(s.file + ':' + s.line);
    const ts = L.calls.filter((c) => c.tsTarget).map((c) => `\`${c.text}\` → ${c.targets.length ? c.targets.map(lbl).join(' | ') : c.tsTarget}`);
    p(`- ${s.file}:${s.line}: graph → ${lbl(s.target)}; TS: ${ts.join('; ')}`);
  }
  if (!verbose && r.wrong.length > 15) p(`- … ${r.wrong.length - 15} more (-v)`);
  p();
  p(`Unverifiable graph sites (no resolvable call on the line, not counted): ${r.unverifiable.length}`);
  if (verbose) {
    for (const s of r.unverifiable) {
      const L = r.lines.get(s.file + ':' + s.line);
      p(`- ${s.file}:${s.line}: graph → ${lbl(s.target)}; calls: ${L ? L.calls.map((c) => '`' + c.text + '`').join(', ') : 'none on the line'}`);
    }
  }
  return lines.join('\n');
}

function main(argv) {
  const a = { v: false };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i].replace(/^--?/, '');
    if (k === 'v') a.v = true;
    else a[k] = argv[++i];
  }
  if (!a.src || !a.graph) {
    console.error('usage: node callers.js -src DIR -graph graph.json [-v] [-json FILE]');
    process.exit(2);
  }
  const ts = require('typescript');
  const r = evaluate({ ts, src: a.src, graph: a.graph });
  console.log(`typescript ${ts.version}\n`);
  console.log(report(r, a.v));
  if (a.json) {
    const strip = (s) => ({ file: s.file, line: s.line, kind: s.kind, target: s.target, text: s.call && s.call.text });
    fs.writeFileSync(a.json, JSON.stringify({
      truth: r.truthSites.map(({ file, line, kind, text, targets, found, tsTarget }) => ({ file, line, kind, text, targets, found, tsTarget })),
      correct: r.correct.map(strip), wrong: r.wrong.map(strip), unverifiable: r.unverifiable.map(strip),
    }, null, 1));
  }
}

module.exports = { evaluate, report, table, bareName, loadGraph };
if (require.main === module) main(process.argv.slice(2));
