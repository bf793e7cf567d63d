package abi

import "fmt"

// Callback parameter types (ABI v2). A parameter whose type is a function
// type declares what a function literal passed there receives:
// operate(init: (source: Observable<T>, subscriber: Subscriber<R>) => void)
// gives the literal's parameter 1 the type Subscriber. The plugin parses
// that function type and reports its parameters' types in
// Param.Callback, so the resolver can type a callback_param step
// ([callback_param operate 0 1]) without reading type syntax.

// callbackSectionTag starts the callback-parameter section, written after
// the v2 section and only when some parameter has callback types, so
// facts without them encode exactly as before.
const callbackSectionTag = 'k'

// MaxCallbackParams bounds the callback parameter types of one parameter.
const MaxCallbackParams = 64

func hasCallbacks(f *Facts) bool {
	for i := range f.Symbols {
		if sig := f.Symbols[i].Signature; sig != nil {
			for j := range sig.Params {
				if len(sig.Params[j].Callback) > 0 {
					return true
				}
			}
		}
	}
	return false
}

// appendCallbackSection appends (symbol, parameter, types) triples in
// index order.
func appendCallbackSection(b []byte, f *Facts) []byte {
	if !hasCallbacks(f) {
		return b
	}
	b = append(b, callbackSectionTag)
	n := 0
	for i := range f.Symbols {
		if sig := f.Symbols[i].Signature; sig != nil {
			for j := range sig.Params {
				if len(sig.Params[j].Callback) > 0 {
					n++
				}
			}
		}
	}
	b = appendUvarint(b, uint64(n))
	for i := range f.Symbols {
		sig := f.Symbols[i].Signature
		if sig == nil {
			continue
		}
		for j := range sig.Params {
			cb := sig.Params[j].Callback
			if len(cb) == 0 {
				continue
			}
			b = appendUvarint(appendUvarint(b, uint64(i)), uint64(j))
			b = appendUvarint(b, uint64(len(cb)))
			for _, r := range cb {
				b = appendOptTypeRef(b, r)
			}
		}
	}
	return b
}

// decodeCallbackSection reads the section when it is next; (symbol,
// parameter) pairs must rise strictly and name a parameter.
func decodeCallbackSection(d *Decoder, f *Facts) {
	if !d.openSection(callbackSectionTag) {
		return
	}
	lastSym, lastParam := -1, -1
	for range d.Len(3) {
		i, j := int(d.Uvarint()), int(d.Uvarint())
		if d.err != nil {
			return
		}
		if i < lastSym || i == lastSym && j <= lastParam || i >= len(f.Symbols) || f.Symbols[i].Signature == nil || j >= len(f.Symbols[i].Signature.Params) {
			d.fail(fmt.Errorf("abi: callback types for symbol %d parameter %d: out of order or no such parameter", i, j))
			return
		}
		lastSym, lastParam = i, j
		n := d.Len(1)
		if n == 0 || n > MaxCallbackParams {
			d.fail(fmt.Errorf("abi: %d callback types for symbol %d parameter %d (want 1 to %d)", n, i, j, MaxCallbackParams))
			return
		}
		cb := make([]*TypeRef, n)
		for k := range cb {
			cb[k] = getOptTypeRef(d)
		}
		if d.err != nil {
			return
		}
		f.Symbols[i].Signature.Params[j].Callback = cb
	}
}

// validateCallbacks checks every callback type reference.
func (f *Facts) validateCallbacks() error {
	for i := range f.Symbols {
		sig := f.Symbols[i].Signature
		if sig == nil {
			continue
		}
		for j, p := range sig.Params {
			if len(p.Callback) > MaxCallbackParams {
				return fmt.Errorf("abi: symbol %d (%q) parameter %d has %d callback types (at most %d)", i, f.Symbols[i].Name, j, len(p.Callback), MaxCallbackParams)
			}
			for k, r := range p.Callback {
				if err := validOptRef(r); err != nil {
					return fmt.Errorf("symbol %d (%q) parameter %d callback parameter %d: %w", i, f.Symbols[i].Name, j, k, err)
				}
			}
		}
	}
	return nil
}
