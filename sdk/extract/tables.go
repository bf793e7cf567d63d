package extract

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// Tables caches one value per grammar: the kind and field ids an
// extractor resolves once (g.Kind("class_declaration"), …) and then
// compares against on every node. A plugin keeps one package-level
// Tables and calls For at the start of each file; tests may extract
// concurrently, so For is safe for concurrent use (uncontended in wasm).
type Tables[T any] struct {
	mu sync.Mutex
	m  map[*Grammar]*T
}

// For returns the value for g, calling build on first use.
func (c *Tables[T]) For(g *Grammar, build func(*Grammar) *T) *T {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v := c.m[g]; v != nil {
		return v
	}
	if c.m == nil {
		c.m = make(map[*Grammar]*T)
	}
	v := build(g)
	c.m[g] = v
	return v
}

// Bind fills the KindID and FieldID fields of the struct dst points to
// from their tags, so a plugin's table is declared once, next to the
// grammar names it uses:
//
//	type ids struct {
//		Class extract.KindID  `kind:"class_declaration"`
//		Get   extract.KindID  `anon:"get"`      // a keyword or punctuation
//		Name  extract.FieldID `field:"name"`
//		Rec   extract.KindID  `kind:"record_declaration,optional"`
//	}
//
// It returns an error naming every tagged name the grammar lacks (a typo,
// or a grammar version without it) except those marked optional, whose
// ids stay 0 and so never match a node. Untagged fields are left alone.
func Bind(g *Grammar, dst any) error {
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("extract.Bind: want a pointer to a struct, got %T", dst)
	}
	v = v.Elem()
	var missing []string
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		for _, tag := range []string{"kind", "anon", "field"} {
			spec, ok := f.Tag.Lookup(tag)
			if !ok {
				continue
			}
			name, opt, _ := strings.Cut(spec, ",")
			id, err := bindOne(g, v.Field(i), tag, name)
			if err != nil {
				return fmt.Errorf("extract.Bind: field %s: %w", f.Name, err)
			}
			if id == 0 && opt != "optional" {
				missing = append(missing, tag+" "+name)
			}
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("grammar %s has no %s (mark a name `,optional` if that is expected)", g.Language, strings.Join(missing, ", "))
	}
	return nil
}

var (
	kindIDType  = reflect.TypeFor[KindID]()
	fieldIDType = reflect.TypeFor[FieldID]()
)

func bindOne(g *Grammar, f reflect.Value, tag, name string) (uint64, error) {
	var id uint64
	var want reflect.Type
	switch tag {
	case "kind":
		id, want = uint64(g.Kind(name)), kindIDType
	case "anon":
		id, want = uint64(g.Anon(name)), kindIDType
	default:
		id, want = uint64(g.Field(name)), fieldIDType
	}
	if f.Type() != want || !f.CanSet() {
		return 0, fmt.Errorf("tag %s needs an exported %s field, not %s", tag, want, f.Type())
	}
	f.SetUint(id)
	return id, nil
}

// MustBind is Bind that panics on a missing name: for a Tables build
// function, where the plugin cannot work without its ids. The panic
// becomes the file's extraction error, naming the grammar and the names.
func MustBind[T any](g *Grammar) *T {
	v := new(T)
	if err := Bind(g, v); err != nil {
		panic(err)
	}
	return v
}

// KindsOf builds a KindTable from kind names (what a walk does at each
// kind); names the grammar does not have are left out, and the zero value
// stands for every other kind.
func KindsOf[V ~uint8](g *Grammar, byName map[string]V) *KindTable {
	t := new(KindTable)
	for name, v := range byName {
		if id := g.Kind(name); id != 0 {
			t[id] = uint8(v)
		}
	}
	return t
}
