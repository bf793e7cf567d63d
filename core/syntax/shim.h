// Declarations for the tree-sitter C runtime used by the serializer shim.
//
// This is NOT a copy of tree-sitter's api.h: it declares only the handful of
// types and functions that shim.c needs. Struct layouts and prototypes were
// checked against the api.h bundled with
// github.com/smacker/go-tree-sitter v0.0.0-20240827094217-dd81d9e9be82
// (runtime ABI 14, accepting grammars of ABI 13..14). The definitions are
// linked from that binding's cgo objects. Re-check this file whenever the
// binding is upgraded (TSNode and TSTreeCursor are passed by value).

#ifndef SYNAPTIC_SYNTAX_SHIM_H
#define SYNAPTIC_SYNTAX_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "walk.h"

typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;
typedef struct TSLanguage TSLanguage;
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;

typedef struct TSPoint {
  uint32_t row;
  uint32_t column;
} TSPoint;

typedef struct TSNode {
  uint32_t context[4];
  const void *id;
  const TSTree *tree;
} TSNode;

typedef struct TSTreeCursor {
  const void *tree;
  const void *id;
  uint32_t context[3];
} TSTreeCursor;

// TSSymbolType values.
enum {
  SYN_SYMBOL_REGULAR = 0,
  SYN_SYMBOL_ANONYMOUS = 1,
  SYN_SYMBOL_AUXILIARY = 2,
};

TSParser *ts_parser_new(void);
void ts_parser_delete(TSParser *self);
bool ts_parser_set_language(TSParser *self, const TSLanguage *language);
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree,
                               const char *string, uint32_t length);
void ts_parser_reset(TSParser *self);
void ts_parser_set_timeout_micros(TSParser *self, uint64_t timeout_micros);

void ts_tree_delete(TSTree *self);
TSNode ts_tree_root_node(const TSTree *self);

TSSymbol ts_node_symbol(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
TSPoint ts_node_start_point(TSNode self);
TSPoint ts_node_end_point(TSNode self);
bool ts_node_is_named(TSNode self);
bool ts_node_is_missing(TSNode self);
bool ts_node_is_extra(TSNode self);
bool ts_node_is_error(TSNode self);
bool ts_node_has_error(TSNode self);

TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);

uint32_t ts_language_symbol_count(const TSLanguage *self);
const char *ts_language_symbol_name(const TSLanguage *self, TSSymbol symbol);
int ts_language_symbol_type(const TSLanguage *self, TSSymbol symbol);
uint32_t ts_language_field_count(const TSLanguage *self);
const char *ts_language_field_name_for_id(const TSLanguage *self, TSFieldId id);
uint32_t ts_language_version(const TSLanguage *self);

// ---- synaptic serializer shim (shim.c) ----

// Parse modes.
enum {
  SYN_MODE_PARSE_ONLY = 0,
  SYN_MODE_ALL = 1,
  SYN_MODE_NAMED_ONLY = 2,
  SYN_MODE_MASK = 3, // the mode proper; the bits above are flags
  // Flag: also serialize the same tree with the TSTreeCursor walk, into
  // ref: the reference the tests hold walk.c to. (Two parses of the same
  // source need not give the same tree: some external scanners keep state
  // from the previous file.)
  SYN_MODE_REFERENCE = 4,
  // Flag: serialize with the TSTreeCursor walk only (its benchmark).
  SYN_MODE_CURSOR = 8,
};

typedef struct syn_parser {
  TSParser *parser;
  const TSLanguage *lang;
  syn_out out;       // records of the last parse (walk.h)
  syn_out ref;       // the cursor walk's records (SYN_MODE_REFERENCE)
  uint32_t *stack;   // per cursor depth: record index or SYN_NONE (not emitted)
  size_t sp, stack_cap;
  uint32_t *anc;     // record indices of emitted ancestors
  size_t anc_len, anc_cap;
  int has_error;     // root has errors (last parse)
  uint64_t parse_ns;     // cumulative thread CPU time in ts_parser_parse_string
  uint64_t serialize_ns; // cumulative thread CPU time serializing (incl. tree delete)
  uint64_t files, nodes; // cumulative successful parses, records written
} syn_parser;

typedef struct syn_grammar {
  const TSLanguage *lang;
  const uint16_t *canon; // canonical kind by symbol id, ncanon entries
  uint32_t ncanon;
  uint16_t error_kind;   // kind written for ERROR nodes (symbol 0xFFFF)
} syn_grammar;

syn_parser *syn_parser_new(void);
void syn_parser_free(syn_parser *p);
void syn_parser_release_buffers(syn_parser *p);
int syn_parse(syn_parser *p, const syn_grammar *g, const char *src,
              uint32_t len, uint64_t timeout_micros, int mode);

#endif
