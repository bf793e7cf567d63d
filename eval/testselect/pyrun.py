"""Runs one unittest module and prints its outcome as JSON.

Used by eval/testselect's Python mode: python3 pyrun.py tests.test_textwrap textwrap
prints {"passed": [...], "failed": [...], "init_crash": bool}, one entry
per test method as DefiningClass.method (subtests, and the runs of an
inherited method in each subclass, fold into that method: it fails if
any of them fails).
"""
import json
import os
import sys

sys.path.insert(0, os.getcwd())  # the repository's copy of the module wins

import unittest


class Collect(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.outcome = {}

    def _name(self, test):
        # The class that defines the method, not the one running it: a
        # test method inherited by several TestCase subclasses is one
        # function in the source, and one node in the graph.
        method = test._testMethodName
        for cls in type(test).__mro__:
            if method in vars(cls):
                return cls.__qualname__ + "." + method
        return type(test).__qualname__ + "." + method

    def _set(self, test, ok):
        if not hasattr(test, "_testMethodName"):
            return  # a module or class fixture error: no method to name
        name = self._name(test)
        self.outcome[name] = self.outcome.get(name, True) and ok

    def addSuccess(self, test):
        self._set(test, True)

    def addSkip(self, test, reason):
        self._set(test, True)

    def addExpectedFailure(self, test, err):
        self._set(test, True)

    def addUnexpectedSuccess(self, test):
        self._set(test, False)

    def addFailure(self, test, err):
        self._set(test, False)

    def addError(self, test, err):
        if hasattr(test, "_testMethodName"):
            self._set(test, False)
        else:
            self.fixture_errors = getattr(self, "fixture_errors", 0) + 1

    def addSubTest(self, test, subtest, err):
        self._set(test, err is None)


def main():
    name, module = sys.argv[1], sys.argv[2]
    try:
        suite = unittest.defaultTestLoader.loadTestsFromName(name)
    except Exception:
        print(json.dumps({"passed": [], "failed": [], "init_crash": True}))
        return
    loaded = sys.modules.get(module)
    if loaded is not None and not os.path.abspath(loaded.__file__).startswith(os.getcwd() + os.sep):
        sys.exit("pyrun: %s was imported from %s, not from the repository" % (module, loaded.__file__))
    result = Collect()
    suite.run(result)
    loader_errors = [t for t in result.outcome if t.startswith("_FailedTest.")]
    passed = sorted(t for t, ok in result.outcome.items() if ok)
    failed = sorted(t for t, ok in result.outcome.items() if not ok)
    crash = not passed and (bool(loader_errors) or not failed)
    print(json.dumps({"passed": passed, "failed": failed, "init_crash": crash}))


main()
