// node --test eval/callers-ts/callers.test.js: the harness on a two-file
// fixture (testdata/src) and a hand-written graph (testdata/graph.json)
// whose every hit, miss, wrong link and unverifiable site is known.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const os = require('os');
const path = require('path');
const { evaluate, bareName } = require('./callers.js');

// typescript from NODE_PATH, else where .ci/eval-callers-ts.sh installs it.
function loadTS() {
  const cache = process.env.SYNAPTIC_EVAL_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'synaptic-eval');
  for (const m of ['typescript', path.join(cache, 'callers-ts/npm/node_modules/typescript')]) {
    try { return require(m); } catch (e) { /* next */ }
  }
  return null;
}
const ts = loadTS();

test('bareName', () => {
  assert.strictEqual(bareName('map()'), 'map');
  assert.strictEqual(bareName('.subscribe()'), 'subscribe');
  assert.strictEqual(bareName('Observable'), 'observable');
});

test('fixture', { skip: ts ? false : 'typescript not installed (bash .ci/eval-callers-ts.sh installs it)' }, () => {
  const dir = path.join(__dirname, 'testdata');
  const r = evaluate({ ts, src: dir, graph: path.join(dir, 'graph.json') });
  const at = (l) => l.map((x) => `${x.file}:${x.line}`).sort();
  const count = (l, kind) => l.filter((x) => x.kind === kind).length;

  assert.strictEqual(r.files, 2);
  assert.strictEqual(r.diagnostics.length, 0);
  // this.open() twice on lib.ts:11 is one site; cb() and the local greet()
  // resolve outside the graph; anyv.open() does not resolve.
  assert.strictEqual(r.callExprs, 11);
  assert.strictEqual(r.external, 2);
  assert.strictEqual(r.unresolved, 1);
  assert.deepStrictEqual(at(r.truthSites), ['src/lib.ts:11', 'src/lib.ts:21', 'src/main.ts:5', 'src/main.ts:6', 'src/main.ts:7', 'src/main.ts:8', 'src/main.ts:9']);
  assert.deepStrictEqual(r.truthSites.find((t) => t.line === 6).targets, ['lib_box', 'lib_box_constructor']);

  // Recall 5/7: total([]) and the interface method s.area() have no link.
  assert.strictEqual(r.found, 5);
  assert.deepStrictEqual(at(r.misses), ['src/lib.ts:21', 'src/main.ts:9']);

  // Precision 5/6: main.ts:17 links the shadowed greet; main.ts:12 is on
  // `any` (unverifiable); other.js is outside the program; the repeated L7
  // site counts once.
  assert.strictEqual(r.graphSites, 8);
  assert.strictEqual(r.correct.length, 5);
  assert.deepStrictEqual(at(r.wrong), ['src/main.ts:17']);
  assert.deepStrictEqual(at(r.unverifiable), ['src/main.ts:12']);
  assert.deepStrictEqual(at(r.unchecked), ['src/other.js:1']);

  // By call kind.
  assert.deepStrictEqual(['f()', 'this.m()', 'x.m()', 'new X()'].map((k) => count(r.truthSites, k)), [2, 1, 3, 1]);
  assert.deepStrictEqual(['f()', 'this.m()', 'x.m()', 'new X()'].map((k) => count(r.truthSites.filter((t) => t.found), k)), [1, 1, 2, 1]);
  assert.strictEqual(r.wrong[0].kind, 'f()');
  assert.strictEqual(r.truthSites.find((t) => t.line === 21).tkind, 'interface member');
});
