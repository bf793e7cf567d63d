package query

// Tuning holds the ranking constants. DefaultTuning is what ships; the
// evaluation (eval/, `-tune`) overrides fields to measure alternatives, so
// every constant's value is backed by a figure rather than a guess.
type Tuning struct {
	// Channel weights. Labels lead; the owning type's name ("conn" for
	// conn.serve — method labels carry no receiver) and extractor aliases
	// help; path tokens only tell parallel implementations apart. The
	// original's label/path/alias weights are 1.0 / 0.35 / 0.55 and it
	// has no owner channel.
	Label, Owner, Path, Alias float64
	// Doc weighs the doc-comment channel: a doc says what code does in
	// the words questions use ("limiting the size of incoming request
	// bodies"), but it is prose, so it ranks below names. Doc tokens have
	// their own document frequency and do not change the other channels'
	// IDF; a doc's words that repeat its own name are not indexed. 0 turns
	// the channel off. 0.5 was measured best of 0.05–0.7; with the size
	// prior, 0.7 (recall flat from 0.7 to 0.8) gains on every corpus
	// (eval/RESULTS.md, session 7).
	Doc float64
	// TestPrior multiplies test nodes (original 0.85): questions ask how
	// code works, and tests repeat the words of what they test.
	TestPrior float64
	// TestDemote multiplies test and benchmark nodes once more, in
	// matching and in expansion, when the question is not about tests (no
	// test/bench/spec word, no context_filter naming tests): otherwise
	// TestServeHotReload outranks the reload code for "how does hot
	// reload work". Exact label matches are exempt. 1 turns it off.
	TestDemote float64
	// Synonyms adds graph-confirmed programming synonyms (login →
	// authenticate, delete → remove, config → settings) at
	// synonymWeight.
	Synonyms bool
	// MemberPrior multiplies fields, variables and constants (original
	// 1.0): a struct field named "timer" rarely answers "how does the
	// deadline timer work" better than the function that sets it.
	MemberPrior float64
	// VarPrior multiplies top-level variables and constants. In
	// TypeScript many functions are constants ("export const ajax = ...").
	VarPrior float64
	// FilePrior multiplies file nodes: a file is context, rarely the
	// symbol a question is after. 0.5 (was 1) with ContainerShow 0.5
	// raised recall@10 on every corpus (eval/RESULTS.md, session 6).
	FilePrior float64
	// ExactBoost multiplies a node whose bare label is the whole question.
	ExactBoost float64
	// Decay is the relevance a node passes to a neighbour per hop.
	Decay float64
	// Abbrev adds graph-confirmed identifier abbreviations ("connection"
	// → conn, "ctx" → context) at the inflection weight.
	Abbrev bool
	// OwnedMembers lets a type pass full relevance to its own members:
	// the neighbour prior that fades repeated labels (".Do()" exists in
	// every package) does not apply when the owner identifies them.
	OwnedMembers bool
	// Raise lets a node settled early (seeds settle first, at their own
	// lexical score) take the better score a later path gives it.
	Raise bool
	// RefDecay scales relevance passed along type references and imports
	// (calls and ownership pass it whole). Original: 1.
	RefDecay float64
	// HubExp is the exponent of the hub penalty 1/(1+ln(1+d/avg)):
	// 1 is the original, 0 turns it off.
	HubExp float64
	// TwinDemote multiplies every twin of a better-ranked node: the same
	// name, owner and kind declared twice in one directory (Go build
	// variants such as decode.go / v2_decode.go, Python fallbacks,
	// TypeScript overloads). One twin answers for all; the rest would
	// fill the top of the list with copies. Exact label matches are
	// exempt. 1 turns it off.
	TwinDemote float64
	// ContainerShow multiplies the reported score of file, package and
	// module nodes once expansion is done: they still pass relevance to
	// what they contain, but a question asks for the code, and a file
	// node in the top ten takes the seat of a symbol. Exact matches keep
	// their score. 1 turns it off.
	ContainerShow float64
	// TestCalls multiplies a lexical match by 1 + TestCalls·ln(1 + the
	// calls test code makes to it). Tests call the entry points of a
	// package (WithTimeout, FileServer, xml.Marshal), and between equal
	// matches the entry point is what a question about the package
	// means; an internal helper of the same words is reached through it.
	// A repository without tests is unchanged. Counting every caller
	// instead favours helpers that many functions call (eval/RESULTS.md,
	// session 8). 0 turns it off; 0.1 with SizeExp 0.35.
	TestCalls float64
	// SizeExp is the exponent of the size prior of functions and
	// methods, log2(2+lines)^SizeExp over the median function's (see
	// sizePrior): it multiplies their lexical score and what expansion
	// offers them. Long bodies do the work a question asks about; a
	// median-length function weighs what a type does. 0 turns it off.
	// 0.25 was best alone; 0.35 is measured together with TestCalls
	// (eval/RESULTS.md, session 8).
	SizeExp float64
	// GeneratedPrior multiplies the nodes of generated files (a file node
	// marked "generated": Go's "Code generated … DO NOT EDIT", such as
	// net/http's h2_bundle.go): a bundled or generated copy is rarely
	// what a question is about, and its many near-duplicate names
	// (http2Server.startGracefulShutdown) take the seats of the source
	// a person reads. It applies where TestDemote does, in matching and
	// in expansion, and exact label matches are exempt. 1 turns it off.
	GeneratedPrior float64
	// HubLexical is the hub penalty exponent for nodes that match the
	// question themselves (original: same as HubExp).
	HubLexical float64
}

// DefaultTuning is the shipped ranking: the original's constants changed
// where eval/ measured a gain (see eval/RESULTS.md).
var DefaultTuning = Tuning{
	Label: 1.0, Owner: 0.8, Path: 0.5, Alias: 0.55, Doc: 0.7,
	TestPrior: 0.5, TestDemote: 0.25, MemberPrior: 0.3, VarPrior: 0.3, FilePrior: 0.5,
	ExactBoost: 2.0, Decay: 0.5, RefDecay: 0.5, HubExp: 1, HubLexical: 0,
	Abbrev: true, Synonyms: true, OwnedMembers: true, Raise: true,
	TwinDemote: 0.3, ContainerShow: 0.5, SizeExp: 0.35,
	TestCalls: 0.1, GeneratedPrior: 0.5,
}

// OriginalTuning is the reference implementation's constants, kept for the
// evaluation's before/after. The original's post-pass diversity
// (PostDiversity 1) is gone from the code: off measured better on every
// corpus (eval/RESULTS.md, session 8).
var OriginalTuning = Tuning{
	Label: 1.0, Owner: 0, Path: 0.35, Alias: 0.55,
	TestPrior: 0.85, TestDemote: 1, MemberPrior: 1.0, VarPrior: 1.0, FilePrior: 1,
	ExactBoost: 1.0, Decay: 0.5, RefDecay: 1, HubExp: 1, HubLexical: 1,
	TwinDemote: 1, ContainerShow: 1, GeneratedPrior: 1,
}

// WithTuning replaces DefaultTuning (evaluation and experiments).
func WithTuning(t Tuning) Option { return func(o *options) { o.tuning = &t } }
