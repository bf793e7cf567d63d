"""python3 -m unittest eval/callers-py/callers_test.py: the harness on a
two-module fixture (testdata/src) and a hand-written graph
(testdata/graph.json) whose every hit, miss, wrong link and unverifiable site
is known."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callers  # noqa: E402

jedi = callers.import_jedi()
HERE = os.path.dirname(os.path.abspath(__file__))


def at(items):
    return sorted('%s:%d' % (x['file'], x['line']) for x in items)


class BareName(unittest.TestCase):
    def test(self):
        self.assertEqual(callers.bare_name('parse()'), 'parse')
        self.assertEqual(callers.bare_name('.get()'), 'get')
        self.assertEqual(callers.bare_name('Request'), 'request')


@unittest.skipIf(jedi is None, callers.NO_JEDI)
class Fixture(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        d = os.path.join(HERE, 'testdata')
        cls.r = callers.evaluate(jedi, os.path.join(d, 'src'), os.path.join(d, 'graph.json'))

    def test_truth(self):
        r = self.r
        self.assertEqual(r['files'], 3)
        # sum, super, len and the local helper (main.py:17) resolve outside
        # the graph; anything.open() does not resolve (a bare parameter).
        self.assertEqual(r['counts']['calls'], 16)
        self.assertEqual(r['counts']['external'], 4)
        self.assertEqual(r['counts']['unresolved'], 1)
        # self.check() twice on lib.py:21 is one site.
        self.assertEqual(at(r['truth_sites']), [
            'main.py:10', 'main.py:21', 'main.py:5', 'main.py:6', 'main.py:7', 'main.py:8', 'main.py:9',
            'pkg/lib.py:21', 'pkg/lib.py:24', 'pkg/lib.py:33'])
        by = {'%s:%d' % (t['file'], t['line']): t for t in r['truth_sites']}
        # A class call accepts the class and its __init__; super().__init__
        # the base's __init__; a decorated method starts on its decorator.
        self.assertEqual(by['main.py:5']['targets'], ['pkg_lib_box', 'pkg_lib_box_init'])
        self.assertEqual(by['pkg/lib.py:33']['targets'], ['pkg_lib_box_init'])
        self.assertEqual(by['main.py:7']['targets'], ['pkg_lib_box_close'])

    def test_recall(self):
        # 9 of 10: total([]) on main.py:9 has no link.
        self.assertEqual(self.r['found'], 9)
        self.assertEqual(at(self.r['misses']), ['main.py:9'])

    def test_precision(self):
        r = self.r
        # 11 of 13: main.py:17 links the shadowed helper; main.py:11 is on a
        # parameter jedi cannot type (unverifiable); gen/other.py is not a
        # checked file; the repeated lib.py:21 site counts once. `with
        # Ctx() as c` (main.py:21) runs Ctx.__enter__ and Ctx.__exit__,
        # right as jedi resolves Ctx(); Other.__enter__ there is wrong.
        self.assertEqual(r['graph_sites'], 15)
        self.assertEqual(len(r['correct']), 11)
        self.assertEqual(sorted(s['target'] for s in r['correct'] if s['line'] == 21 and s['file'] == 'main.py'),
                         ['pkg_lib_ctx', 'pkg_lib_ctx_enter', 'pkg_lib_ctx_exit'])
        self.assertEqual(at(r['wrong']), ['main.py:17', 'main.py:21'])
        self.assertEqual(r['wrong'][1]['target'], 'pkg_lib_other_enter')
        self.assertEqual(at(r['unverifiable']), ['main.py:11'])
        self.assertEqual(at(r['unchecked']), ['gen/other.py:1'])

    def test_kinds(self):
        r = self.r
        kinds = ['f()', 'self.m()', 'x.m()', 'C()']
        self.assertEqual([sum(1 for t in r['truth_sites'] if t['kind'] == k) for k in kinds], [3, 2, 2, 3])
        self.assertEqual([sum(1 for t in r['truth_sites'] if t['kind'] == k and t['found']) for k in kinds], [2, 2, 2, 3])
        self.assertEqual(r['wrong'][0]['kind'], 'f()')
        self.assertEqual(r['wrong'][0]['tkind'], 'variable, field or parameter')
        self.assertIn('| **all calls** | 10 | 9 | **0.90** | 14 | 11 | 2 | 1 | **0.85** |', callers.table(r))

    def test_jobs(self):
        # Files resolved in two worker processes give the same report.
        d = os.path.join(HERE, 'testdata')
        r2 = callers.evaluate(jedi, os.path.join(d, 'src'), os.path.join(d, 'graph.json'), jobs=2)
        self.assertEqual(callers.report(r2, True), callers.report(self.r, True))


if __name__ == '__main__':
    unittest.main()
