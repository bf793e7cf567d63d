package main

import (
	"strconv"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// jniFamily is the plugin family of the C functions implementing JNI
// native methods.
const jniFamily = "c"

// springVerbs are Spring's request-mapping annotations and their method
// ("*": @RequestMapping without method = …).
var springVerbs = map[string]string{
	"GetMapping": "GET", "PostMapping": "POST", "PutMapping": "PUT", "DeleteMapping": "DELETE",
	"PatchMapping": "PATCH", "RequestMapping": "*",
}

// springRoutes records a Spring handler method's routes: @GetMapping("/x")
// and friends, @RequestMapping(value = "/x", method = RequestMethod.POST),
// each joined to the class's own @RequestMapping prefix.
func (w *walker) springRoutes(m mods, decl node, sym int32) {
	if m.node == extract.None {
		return
	}
	for c := range w.t.Children(m.node) {
		verb, paths := w.mapping(c)
		if verb == "" {
			continue
		}
		prefix := w.classPrefix(decl)
		for _, p := range paths {
			route := "/" + strings.Trim(strings.TrimSuffix(prefix, "/")+"/"+strings.TrimPrefix(p, "/"), "/")
			w.f.ChannelSite(abi.ChannelSite{From: sym, Kind: abi.ChannelHTTP, Role: abi.ChannelHandle, Name: verb + " " + route, Line: w.t.StartLine(c)})
		}
	}
}

// mapping reads one request-mapping annotation: its method and paths
// ("" for the path when it names none). verb is "" for any other node.
func (w *walker) mapping(a node) (verb string, paths []string) {
	t, g := w.t, w.g
	if k := t.Kind(a); k != g.markerAnnotation && k != g.annotation {
		return "", nil
	}
	verb = springVerbs[lastSegment(w.text(t.Child(a, g.fName)))]
	if verb == "" {
		return "", nil
	}
	args := t.Child(a, t.Grammar.Field("arguments"))
	if args == extract.None {
		return verb, []string{""}
	}
	for v := range t.NamedChildren(args) {
		switch t.KindName(v) {
		case "element_value_pair":
			key := w.text(t.Child(v, t.Grammar.Field("key")))
			val := t.Child(v, g.fValue)
			switch key {
			case "value", "path":
				paths = append(paths, w.stringValues(val)...)
			case "method":
				if verb == "*" {
					verb = strings.ToUpper(lastSegment(w.text(val)))
					if strings.ContainsAny(verb, "{,") {
						verb = "*" // several methods: any
					}
				}
			}
		default:
			paths = append(paths, w.stringValues(v)...)
		}
	}
	if len(paths) == 0 {
		paths = []string{""}
	}
	return verb, paths
}

// stringValues is a string literal or an array of them ({"/a", "/b"}).
func (w *walker) stringValues(v node) []string {
	t := w.t
	switch t.KindName(v) {
	case "string_literal":
		if s, err := strconv.Unquote(w.text(v)); err == nil {
			return []string{s}
		}
	case "element_value_array_initializer":
		var out []string
		for e := range t.NamedChildren(v) {
			out = append(out, w.stringValues(e)...)
		}
		return out
	}
	return nil
}

// classPrefix is the path of the @RequestMapping on the type declaring
// method decl, "" if none.
func (w *walker) classPrefix(decl node) string {
	t, g := w.t, w.g
	body := t.Parent(decl)
	if body == extract.None {
		return ""
	}
	typ := t.Parent(body)
	if typ == extract.None {
		return ""
	}
	mn := t.ChildOfKind(typ, g.modifiers)
	if mn == extract.None {
		return ""
	}
	for c := range t.Children(mn) {
		if verb, paths := w.mapping(c); verb != "" && len(paths) > 0 {
			return paths[0]
		}
	}
	return ""
}

// nativeMethod links a `native` method to the C function implementing it
// under JNI's naming: Java_pkg_Cls_m, with "_" written "_1" and a nested
// class's "$" written "_00024".
func (w *walker) nativeMethod(m mods, name string, sym int32) {
	t := w.t
	if m.node == extract.None || !strings.Contains(w.text(m.node), "native") {
		return
	}
	native := false
	for c := range t.Children(m.node) {
		if t.KindName(c) == "native" {
			native = true
		}
	}
	if !native {
		return
	}
	var cls []string
	for _, fr := range w.frames {
		if fr.kind == frameType {
			cls = append(cls, jniMangle(fr.name))
		}
	}
	if len(cls) == 0 {
		return
	}
	parts := []string{"Java"}
	if pkg := w.packageName(); pkg != "" {
		for _, p := range strings.Split(pkg, ".") {
			parts = append(parts, jniMangle(p))
		}
	}
	parts = append(parts, strings.Join(cls, "_00024"), jniMangle(name))
	w.f.ChannelSite(abi.ChannelSite{From: sym, Kind: abi.ChannelNative, Role: abi.ChannelSend,
		Name: jniFamily + ":" + strings.Join(parts, "_"), Line: t.StartLine(m.node)})
}

func jniMangle(s string) string { return strings.ReplaceAll(s, "_", "_1") }

// packageName is the file's package declaration, "" if none.
func (w *walker) packageName() string {
	t, g := w.t, w.g
	for c := range t.NamedChildren(0) {
		if t.KindName(c) != "package_declaration" {
			continue
		}
		for id := range t.NamedChildren(c) {
			if k := t.Kind(id); k == g.identifier || k == g.scopedIdentifier {
				return extract.OneLine(w.text(id))
			}
		}
	}
	return ""
}

// restVerbs are RestTemplate's request methods.
var restVerbs = map[string]string{
	"getForObject": "GET", "getForEntity": "GET", "postForObject": "POST", "postForEntity": "POST",
	"postForLocation": "POST", "patchForObject": "PATCH", "exchange": "*",
}

// crossLang records the calls that leave Java: System.loadLibrary("x")
// and System.load(path) (binds_native), Runtime.exec of a repository
// script (invokes), and HTTP clients with a literal URL: HttpClient's
// HttpRequest.newBuilder(URI.create(url)) with its .GET()/.POST(…), and
// RestTemplate's getForObject(url, …) and friends.
func (w *walker) crossLang(call node, name string) {
	t, g := w.t, w.g
	switch name {
	case "loadLibrary", "load", "exec", "create":
	default:
		if restVerbs[name] == "" {
			return // most calls: decided on the name alone
		}
	}
	obj := w.text(t.Child(call, g.fObject))
	site := abi.ChannelSite{From: w.parent(), Role: abi.ChannelSend, Line: t.StartLine(call)}
	switch {
	case (name == "loadLibrary" || name == "load") && obj == "System":
		site.Kind, site.Name = abi.ChannelLibrary, w.firstStringArg(call)
	case name == "exec" && strings.HasSuffix(obj, "getRuntime()"):
		site.Kind, site.Name = abi.ChannelExec, extract.ScriptOf(extract.SplitCommand(w.firstStringArg(call)))
	case name == "create" && obj == "URI":
		verb := w.httpRequestVerb(call)
		url := w.urlArg(call)
		if verb == "" || !strings.HasPrefix(url, "/") && !strings.Contains(url, "://") {
			return
		}
		site.Kind, site.Name = abi.ChannelHTTP, verb+" "+url
	case restVerbs[name] != "" && strings.Contains(strings.ToLower(obj), "resttemplate"):
		url := w.urlArg(call)
		if !strings.HasPrefix(url, "/") && !strings.Contains(url, "://") {
			return
		}
		site.Kind, site.Name = abi.ChannelHTTP, restVerbs[name]+" "+url
	}
	if site.Kind != "" && site.Name != "" {
		w.f.ChannelSite(site)
	}
}

// httpRequestVerb is the method of the HttpRequest builder chain that
// URI.create(…) is an argument of: GET unless .POST(…), .PUT(…),
// .DELETE() or .method("X", …) says otherwise; "" when the URI is not
// given to HttpRequest.newBuilder(…) or .uri(…).
func (w *walker) httpRequestVerb(uriCall node) string {
	t, g := w.t, w.g
	verb, builder := "GET", false
	for n := t.Parent(uriCall); n != extract.None; n = t.Parent(n) {
		switch t.KindName(n) {
		case "argument_list":
			continue
		case "method_invocation":
		default:
			if builder {
				return verb
			}
			return ""
		}
		switch m := w.text(t.Child(n, g.fName)); m {
		case "newBuilder":
			builder = builder || strings.HasSuffix(w.text(t.Child(n, g.fObject)), "HttpRequest")
		case "uri":
			builder = true
		case "GET", "POST", "PUT", "DELETE", "HEAD":
			verb = m
		case "method":
			if s := w.firstStringArg(n); s != "" {
				verb = strings.ToUpper(s)
			}
		}
	}
	if builder {
		return verb
	}
	return ""
}

// urlArg renders a call's first argument as a URL: a string literal or a
// + concatenation, computed parts written "{}".
func (w *walker) urlArg(call node) string {
	t := w.t
	for c := range t.NamedChildren(call) {
		if t.KindName(c) != "argument_list" {
			continue
		}
		for a := range t.NamedChildren(c) {
			return w.urlExpr(a, 0)
		}
	}
	return ""
}

func (w *walker) urlExpr(n node, depth int) string {
	t := w.t
	switch t.KindName(n) {
	case "string_literal":
		if s, err := strconv.Unquote(w.text(n)); err == nil {
			return s
		}
	case "binary_expression":
		if depth < 16 {
			gr := t.Grammar
			return w.urlExpr(t.Child(n, gr.Field("left")), depth+1) + w.urlExpr(t.Child(n, gr.Field("right")), depth+1)
		}
	}
	return "{}"
}
