package main_test

import (
	"strings"
	"testing"
)

// TestCLICrossLanguage: a polyglot repository through the real plugins.
// Python runs a repository script (invokes) and calls a C function
// through ctypes, Go through cgo and Java through a JNI native method
// (binds_native); a TypeScript client reaches a Spring route and a
// Django urls.py route. affected and find_callers cross every boundary
// and graph_stats counts the coupling.
func TestCLICrossLanguage(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, map[string]string{
		"tools/run.py": `import ctypes
import subprocess

_lib = ctypes.CDLL("./native/libfast.so")


def build():
    subprocess.run(["python3", "tools/gen.py"])
    return _lib.fast_sum(1, 2)
`,
		"tools/gen.py": "def main():\n    pass\n",
		"native/fast.c": `#include <jni.h>

int fast_sum(int a, int b) { return a + b; }

JNIEXPORT jint JNICALL Java_com_acme_Client_fastSum(JNIEnv *env, jobject self, jint a, jint b) {
    return fast_sum(a, b);
}
`,
		"gocgo/x.go": "package gocgo\n\n// int fast_sum(int, int);\nimport \"C\"\n\nfunc Sum() int { return int(C.fast_sum(1, 2)) }\n",
		"src/com/acme/Client.java": `package com.acme;

@RestController
@RequestMapping("/api/orders")
public class Client {
    static { System.loadLibrary("fast"); }

    native int fastSum(int a, int b);

    @GetMapping("/{id}")
    public Order order(long id) { return null; }
}
`,
		"shop/urls.py":  "from django.urls import path\nfrom . import views\n\nurlpatterns = [path(\"api/users/<int:id>/\", views.user_detail)]\n",
		"shop/views.py": "def user_detail(request, id):\n    return None\n",
		"web/api.ts": "export async function loadOrder(id: string) {\n  return fetch(`/api/orders/${id}`);\n}\n" +
			"export async function loadUser(id: string) {\n  return fetch(\"/api/users/\" + id);\n}\n",
	})
	run(t, root, false, "extract", "--quiet", ".")
	out := run(t, root, false, "call", "find_callers", "label=fast_sum")
	for _, want := range []string{"build()  [binds_native]  tools/run.py:L9", "Sum()  [binds_native]  gocgo/x.go:L6"} {
		if !strings.Contains(out, want) {
			t.Errorf("find_callers fast_sum lacks %q:\n%s", want, out)
		}
	}
	if out := run(t, root, false, "call", "affected", "label=fast_sum"); !strings.Contains(out, "binds_native  .fastSum()  (src/com/acme/Client.java)") {
		t.Errorf("affected fast_sum does not reach the JNI native method:\n%s", out)
	}
	if out := run(t, root, false, "call", "find_callers", "label=gen.py"); !strings.Contains(out, "build()  [invokes]") {
		t.Errorf("find_callers gen.py:\n%s", out)
	}
	if out := run(t, root, false, "call", "shortest_path", "source=loadOrder", "target=order"); !strings.Contains(out, "--calls_service--> route_get_api_orders_p") || !strings.Contains(out, "--handled_by--> Client.order()") {
		t.Errorf("shortest_path loadOrder -> order:\n%s", out)
	}
	if out := run(t, root, false, "call", "shortest_path", "source=loadUser", "target=user_detail"); !strings.Contains(out, "--handled_by--> user_detail()") {
		t.Errorf("shortest_path loadUser -> user_detail:\n%s", out)
	}
	if out := run(t, root, false, "call", "graph_stats"); !strings.Contains(out, "Cross-language: 10 coupling edge(s)") {
		t.Errorf("graph_stats:\n%s", out)
	}
}
