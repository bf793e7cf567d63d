from pkg.lib import Box, Crate, Ctx, helper, total


def run(anything):
    b = Box(1)
    b.open()
    b.close()
    helper(2)
    total([])
    Crate(3)
    anything.open()
    return len([])


def shadow():
    helper = lambda x: x
    return helper(1)


def managed():
    with Ctx() as c:
        return c
