package query

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokenize splits an identifier, path or question into lowercase search
// tokens. It splits on non-alphanumerics, on lower→Upper camel boundaries,
// before the last capital of an acronym run ("HTTPServer" → http, server)
// and on letter/digit boundaries. A single trailing digit stays attached
// ("utf8", "md5", "sha1"): alone it would be dropped as too short and the
// name would lose what distinguishes it. Tokens shorter than 2 characters
// are dropped, so the same rules apply to labels and to questions.
func Tokenize(s string) []string {
	return appendTokens(nil, s)
}

func appendTokens(out []string, s string) []string {
	var cur []rune
	flush := func() {
		if len(cur) == 0 {
			return
		}
		if len(cur) >= 2 {
			out = append(out, strings.ToLower(string(cur)))
		}
		cur = cur[:0]
	}
	runes := []rune(s)
	for i, r := range runes {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 {
			prev := cur[len(cur)-1]
			var next rune
			if i+1 < len(runes) {
				next = runes[i+1]
			}
			switch {
			case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
				flush()
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && unicode.IsLower(next):
				flush() // acronym end: HTTP|Server
			case unicode.IsDigit(r) && unicode.IsLetter(prev):
				// A single digit or a one-letter prefix stays attached
				// (utf8, md5, x509); longer digit runs stand alone (int|64).
				if !endsDigitRun(runes, i) && len(cur) > 1 {
					flush()
				}
			case unicode.IsLetter(r) && unicode.IsDigit(prev):
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// endsDigitRun reports that runes[i] is a single digit: the next rune is not
// a digit.
func endsDigitRun(runes []rune, i int) bool {
	return i+1 >= len(runes) || !unicode.IsDigit(runes[i+1])
}

// symbolShaped reports a question that names a symbol rather than asking
// in prose: no whitespace, and a camel boundary or identifier punctuation.
// All of its tokens are kept, scaffolding-looking or not ("GetHandler").
func symbolShaped(q string) bool {
	q = strings.TrimSpace(q)
	if q == "" || strings.ContainsFunc(q, unicode.IsSpace) {
		return false
	}
	if strings.ContainsAny(q, "_.():#$@/\\") {
		return true
	}
	prev, _ := utf8.DecodeRuneInString(q)
	for _, r := range q {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			return true
		}
		prev = r
	}
	return false
}

// scaffolding is question framing that names no code concept. It is dropped
// from natural-language questions as long as something substantive remains.
var scaffolding = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about an and any are as at be been being by can could code codebase
		did do does done during for from happen happens has have how i implemented implementation
		in into is it its me my of on or our should show tell that the their there these this those to
		via was we were what whats when where which who why will with work works would you`) {
		scaffolding[w] = true
	}
}

// questionFrame words start a question; with 3+ substantive terms in such a
// frame, "handle" is scaffolding too ("how does X handle Y").
var questionFrame = map[string]bool{"how": true, "what": true, "where": true, "which": true, "why": true}

// term is one weighted query token; mask holds the concepts (bit per
// substantive question word) it stands for: one for a word and its
// inflections, two for a compound joined from adjacent words.
type term struct {
	tok    string
	weight float64
	mask   uint64
}

// inflectionWeight is the weight of a graph-confirmed inflection: lower than
// the word the user typed, so an exact form still wins.
const inflectionWeight = 0.65

// parsed is a processed question.
type parsed struct {
	terms    []term
	concepts []string // substantive words; concept c is bit 1<<c
	symbol   bool     // the whole question is one identifier
	names    []string // exact keys of identifier-shaped words ("json.Unmarshal")
}

// variants selects the graph-confirmed word variants parseQuestion adds
// beside inflections (see Tuning: Abbrev, Synonyms).
type variants struct {
	abbrev, synonyms bool
}

// parseQuestion turns a question into weighted terms. known reports whether
// a token occurs in the graph, so only variants the graph confirms are
// added: inflections, abbreviations ("connection" → conn) and compounds
// of adjacent words ("copy tree" → copytree, as Python and C names are
// often written).
func parseQuestion(q string, known func(string) bool, vs variants) parsed {
	var p parsed
	p.symbol = symbolShaped(q)
	// Identifier-shaped words in prose keep every token and name a symbol.
	keepTok := map[string]bool{}
	for _, w := range strings.Fields(q) {
		w = strings.Trim(w, "?!,;:\"'`()[]{}")
		w = strings.TrimSuffix(w, ".")
		if symbolShaped(w) && len(p.names) < maxConcepts {
			p.names = append(p.names, exactKey(w))
			for _, t := range Tokenize(w) {
				keepTok[t] = true
			}
		}
	}
	raw := Tokenize(q)
	var toks []string
	seen := map[string]bool{}
	for _, t := range raw {
		if !seen[t] {
			seen[t] = true
			toks = append(toks, t)
		}
	}
	if !p.symbol {
		var subst []string
		for _, t := range toks {
			if !scaffolding[t] || keepTok[t] {
				subst = append(subst, t)
			}
		}
		if len(raw) > 0 && questionFrame[raw[0]] && len(subst) >= 4 && !keepTok["handle"] {
			// "how does the server handle timeouts": handle is framing.
			subst = deleteString(subst, "handle")
		}
		if len(subst) > 0 {
			toks = subst
		}
	}
	if len(toks) > maxConcepts {
		toks = toks[:maxConcepts]
	}
	for c, t := range toks {
		bit := uint64(1) << c
		p.concepts = append(p.concepts, t)
		p.terms = append(p.terms, term{tok: t, weight: 1, mask: bit})
		forms := inflections(t)
		if vs.abbrev {
			for _, b := range append([]string{t}, forms...) {
				forms = append(forms, abbreviations[b]...)
			}
		}
		for _, v := range forms {
			if v != t && !seen[v] && known(v) {
				seen[v] = true
				p.terms = append(p.terms, term{tok: v, weight: inflectionWeight, mask: bit})
			}
		}
		if vs.synonyms {
			// The word's base forms reach the table too ("failures" →
			// failure → error), and a synonym counts in the forms code
			// writes it ("monitor" → watch → WatchedFileHandler).
			for _, b := range append([]string{t}, inflections(t)...) {
				for _, syn := range synonymTable[b] {
					for _, v := range append(append([]string{syn}, inflections(syn)...), surfaceForms(syn)...) {
						if !seen[v] && known(v) {
							seen[v] = true
							p.terms = append(p.terms, term{tok: v, weight: synonymWeight, mask: bit})
						}
					}
				}
			}
		}
	}
	// Compounds of words one or two apart ("copy a directory tree" →
	// copytree), in question order.
	for gap := 1; gap <= 2; gap++ {
		for c := 0; c+gap < len(toks); c++ {
			if j := toks[c] + toks[c+gap]; !seen[j] && known(j) {
				seen[j] = true
				p.terms = append(p.terms, term{tok: j, weight: 1, mask: 1<<c | 1<<(c+gap)})
			}
		}
	}
	return p
}

func deleteString(s []string, x string) []string {
	out := s[:0]
	for _, v := range s {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}

// inflections proposes base forms of t ("caches" → cache, "parsing" →
// parse/pars, "retries" → retry, "cookies" → cookie, "tags" → tag) and the forms code names usually take
// ("parse" → parser). Callers keep only the ones the graph contains.
func inflections(t string) []string {
	var out []string
	add := func(v string) {
		if len(v) >= 3 {
			out = append(out, v)
		}
	}
	n := len(t)
	switch {
	case strings.HasSuffix(t, "ies") && n > 4:
		add(t[:n-3] + "y") // retries → retry
		add(t[:n-1])       // cookies → cookie (the graph keeps the one it has)
	case strings.HasSuffix(t, "ing") && n > 5:
		stemVariants(t[:n-3], add)
	case strings.HasSuffix(t, "ed") && n > 3:
		stemVariants(t[:n-2], add)
	case strings.HasSuffix(t, "es") && n > 3:
		add(t[:n-2])
		add(t[:n-1])
	case strings.HasSuffix(t, "s") && n > 3 && !strings.HasSuffix(t, "ss") && !strings.HasSuffix(t, "us") && !strings.HasSuffix(t, "is"):
		add(t[:n-1])
	}
	derivations(t, add)
	return out
}

// derivations adds the base of a derived word, so a question's noun finds
// the verb code is named by: extraction → extract, canonicalization →
// canonicalize, canonicalize → canonical, recorder → record, management →
// manage, rotation → rotate.
func derivations(t string, add func(string)) {
	n := len(t)
	switch {
	case strings.HasSuffix(t, "ization") && n > 9:
		add(t[:n-5] + "e") // canonicalization → canonicalize
		add(t[:n-7])       // → canonical
	case strings.HasSuffix(t, "ation") && n > 7:
		add(t[:n-3] + "e") // rotation → rotate, validation → validate
		add(t[:n-5])       // information → inform
		if undoubled(t[:n-5]) != t[:n-5] {
			add(undoubled(t[:n-5])) // cancellation → cancel
		}
	case strings.HasSuffix(t, "tion") && n > 6:
		add(t[:n-3])       // extraction → extract
		add(t[:n-3] + "e") // completion → complete
	case strings.HasSuffix(t, "ment") && n > 6:
		add(t[:n-4]) // management → manage
	case strings.HasSuffix(t, "ize") && n > 6:
		add(t[:n-3]) // canonicalize → canonical
	case strings.HasSuffix(t, "izer") && n > 7:
		add(t[:n-1]) // tokenizer → tokenize
	case strings.HasSuffix(t, "er") && n > 5:
		add(t[:n-2]) // recorder → record
	case strings.HasSuffix(t, "or") && n > 5:
		add(t[:n-2]) // extractor → extract
	}
}

// undoubled drops a doubled final consonant: "cancell" → "cancel".
func undoubled(stem string) string {
	if k := len(stem); k >= 2 && stem[k-1] == stem[k-2] && !strings.ContainsRune("aeiou", rune(stem[k-1])) {
		return stem[:k-1]
	}
	return stem
}

// stemVariants adds a stripped stem, the stem plus "e" (pars-ing → parse),
// and the stem with a doubled final consonant undone (stopp-ed → stop).
func stemVariants(stem string, add func(string)) {
	add(stem)
	add(stem + "e")
	if u := undoubled(stem); u != stem {
		add(u)
	}
}

// surfaceForms are the inflected forms identifiers write a word in
// ("watch" → watches, watched, watching), the other way from inflections.
// Agent nouns (watcher) are left out: they name interfaces and types
// (Marshaler, Decoder) far more often than the act. Callers keep only the
// ones the graph contains.
func surfaceForms(w string) []string {
	if strings.HasSuffix(w, "e") {
		return []string{w + "s", w + "d", w[:len(w)-1] + "ing"}
	}
	return []string{w + "s", w + "es", w + "ed", w + "ing"}
}

// abbreviations pairs words with the short forms identifiers use, both
// ways: a question says "connection", the code says conn. Like every
// variant they are added only when the graph has them.
var abbreviations = map[string][]string{}

func init() {
	for _, pair := range strings.Fields(`conn:connection req:request resp:response res:response ctx:context
		err:error buf:buffer msg:message addr:address cfg:config conf:config auth:authentication
		auth:authorization init:initialize env:environment dir:directory str:string num:number
		fn:function func:function arg:argument args:arguments param:parameter val:value idx:index
		len:length pkg:package tmp:temporary temp:temporary impl:implementation alloc:allocate
		proc:process info:information db:database repo:repository sync:synchronize
		cb:callback doc:document elem:element attr:attribute opts:options opt:option
		dst:destination src:source hdr:header srv:server svc:service`) {
		short, long, _ := strings.Cut(pair, ":")
		abbreviations[long] = append(abbreviations[long], short)
		abbreviations[short] = append(abbreviations[short], long)
	}
}

// synonymWeight is the weight of a graph-confirmed synonym: below an
// inflection, since "remove" for "delete" is a guess about intent.
const synonymWeight = 0.5

// synonymTable maps a question word to the words code often uses for the
// same thing (both directions are listed where both are common). A synonym
// counts only when the graph has it (known), so it cannot invent matches.
var synonymTable = map[string][]string{}

func init() {
	groups := [][]string{
		{"login", "signin", "logon", "authenticate", "auth"},
		{"logout", "signout", "logoff"},
		{"signup", "register", "enroll"},
		{"delete", "remove", "destroy", "erase", "unlink", "drop"},
		{"config", "configuration", "settings", "options", "preferences", "conf"},
		{"start", "begin", "launch", "boot", "spawn"},
		{"stop", "halt", "terminate", "shutdown", "kill"},
		{"fetch", "retrieve", "download", "load"},
		{"save", "store", "persist"},
		{"user", "account", "member"},
		{"error", "failure", "exception", "fault"},
		{"parse", "decode", "unmarshal", "deserialize"},
		{"serialize", "encode", "marshal"},
		{"send", "emit", "dispatch", "publish", "post"},
		{"receive", "recv", "consume"},
		{"cache", "memo", "memoize"},
		{"permission", "authorize", "authorization", "acl", "access"},
		{"password", "passwd", "credential", "secret"},
		{"reload", "refresh", "reread"},
		{"watch", "observe", "monitor", "poll"},
		{"retry", "backoff", "reattempt"},
		{"timeout", "deadline"},
		{"log", "logger", "logging", "trace"},
	}
	for _, g := range groups {
		for _, w := range g {
			for _, o := range g {
				if o != w {
					synonymTable[w] = append(synonymTable[w], o)
				}
			}
		}
	}
}
