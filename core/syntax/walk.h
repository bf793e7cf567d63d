// The flat-tree writer's interface (walk.c), free of tree-sitter types so
// that shim.h, which declares the public API itself, can include it next
// to walk.c's internal headers.

#ifndef SYNAPTIC_SYNTAX_WALK_H
#define SYNAPTIC_SYNTAX_WALK_H

#include <stddef.h>
#include <stdint.h>

// Status codes returned by syn_parse and syn_walk.
enum {
  SYN_OK = 0,
  SYN_ERR_LANGUAGE = 1, // ts_parser_set_language refused the grammar
  SYN_ERR_TIMEOUT = 2,  // parse halted (timeout) and returned no tree
  SYN_ERR_NOMEM = 3,    // record or stack buffer could not grow
  SYN_ERR_TOOBIG = 4,   // more than UINT32_MAX-1 records
};

#define SYN_RECORD_WORDS 7
#define SYN_NONE UINT32_MAX

// syn_out is the reusable output of a walk: records and the walk's own
// frame stack, both grown on demand and kept across files.
typedef struct syn_out {
  uint32_t *recs;  // len records of SYN_RECORD_WORDS uint32 each
  size_t len;      // records written by the last walk
  size_t cap;      // capacity in records
  void *frames;    // walk.c's frame stack
  size_t frames_cap;
} syn_out;

// syn_grow makes *buf hold at least need elements of elem bytes, doubling
// from 256; returns 0 when realloc fails (the buffer is then unchanged).
int syn_grow(void **buf, size_t *cap, size_t need, size_t elem);

// syn_walk writes the flat preorder records of tree (a TSTree *) into out:
// the nodes a TSTreeCursor visits, with the same fields, read from the
// subtrees directly. canon maps public symbol ids below ncanon to kinds;
// others (ERROR) get error_kind. Returns 0 or an SYN_ERR_* code.
int syn_walk(syn_out *out, const void *tree, const uint16_t *canon,
             uint32_t ncanon, uint16_t error_kind, int named_only);

#endif
