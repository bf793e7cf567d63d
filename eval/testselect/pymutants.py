"""Lists the functions of a Python module that a mutant can break.

python3 pymutants.py FILE prints one JSON object per line:
{"name": "Class.method", "line": L, "col": C} where L is the 1-based line
of the body's first statement after any docstring and C its indentation.
Functions whose body starts on the def line, and nested functions, are
left out.
"""
import ast
import json
import sys


def body_start(fn):
    body = fn.body
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    if not body or body[0].lineno == fn.lineno:
        return None
    return body[0]


def main():
    src = open(sys.argv[1], encoding="utf-8").read()
    tree = ast.parse(src)
    for node in tree.body:
        scopes = [(node, "")]
        if isinstance(node, ast.ClassDef):
            scopes = [(n, node.name + ".") for n in node.body]
        for fn, owner in scopes:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            first = body_start(fn)
            if first is None:
                continue
            print(json.dumps({"name": owner + fn.name, "line": first.lineno, "col": first.col_offset}))


main()
