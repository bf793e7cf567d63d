// Package eval is synaptic's retrieval evaluation: hand-written questions
// over real corpora (Go, Python and TypeScript standard code every machine
// can obtain from its toolchain or a registry), each listing the symbols a
// maintainer would point to. It measures recall@5, recall@10 and MRR of
// query_graph's ranking, and the token economy of its answers (answer
// tokens vs the tokens of the files the answer points into).
//
// The questions live in questions/<corpus>.txt; .ci/eval.sh prepares the
// corpora, extracts them and runs cmd/evalquery. Explain (evalquery
// -explain) tells why each missed symbol ranks where it does, so a
// ranking change can aim at a measured cause; evalquery -ranks prints
// every question's expected ranks on one line each, so two -tune runs
// diff question by question.
package eval
