"""A tiny library for the harness's self-test (see ../../callers_test.py)."""


def helper(x):
    return x


def total(xs):
    return sum(xs)


def traced(f):
    return f


class Box:
    def __init__(self, v):
        self.v = v

    def open(self):
        return self.check() + self.check()

    def check(self):
        return helper(self.v)

    @traced
    def close(self):
        return 0


class Crate(Box):
    def __init__(self, v):
        super().__init__(v)


class Ctx:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Other:
    def __enter__(self):
        return self
