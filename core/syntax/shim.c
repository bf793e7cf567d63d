// Parse + flat preorder serialization in one C call per file.
// Record layout: docs/architecture.md, "The flat tree".

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shim.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "synaptic flat tree records are little-endian; big-endian hosts are not supported"
#endif

syn_parser *syn_parser_new(void) {
  syn_parser *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->parser = ts_parser_new();
  if (!p->parser) {
    free(p);
    return NULL;
  }
  return p;
}

void syn_parser_free(syn_parser *p) {
  if (!p) return;
  if (p->parser) ts_parser_delete(p->parser);
  free(p->out.recs);
  free(p->out.frames);
  free(p->ref.recs);
  free(p->stack);
  free(p->anc);
  free(p);
}

void syn_parser_release_buffers(syn_parser *p) {
  free(p->out.recs);
  free(p->out.frames);
  free(p->ref.recs);
  free(p->stack);
  free(p->anc);
  p->out = (syn_out){0};
  p->ref = (syn_out){0};
  p->stack = NULL;
  p->anc = NULL;
  p->sp = p->stack_cap = p->anc_len = p->anc_cap = 0;
}

static uint64_t thread_ns(void) {
#ifdef CLOCK_THREAD_CPUTIME_ID
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
  return 0;
}

// visit writes the cursor's current node (unless it is filtered out) and
// pushes it on the depth stack. Returns 0 on success or an SYN_ERR_* code.
static int visit(syn_parser *p, const syn_grammar *g, TSTreeCursor *c,
                 int named_only, int force) {
  TSNode n = ts_tree_cursor_current_node(c);
  bool named = ts_node_is_named(n);
  uint32_t idx = SYN_NONE;
  if (force || !named_only || named) {
    if (p->out.len >= (size_t)UINT32_MAX - 1) return SYN_ERR_TOOBIG;
    if (p->out.len >= p->out.cap &&
        !syn_grow((void **)&p->out.recs, &p->out.cap, p->out.len + 1,
              SYN_RECORD_WORDS * sizeof(uint32_t)))
      return SYN_ERR_NOMEM;
    if (p->anc_len >= p->anc_cap &&
        !syn_grow((void **)&p->anc, &p->anc_cap, p->anc_len + 1, sizeof(uint32_t)))
      return SYN_ERR_NOMEM;
    size_t i = p->out.len++;
    uint32_t *r = p->out.recs + i * SYN_RECORD_WORDS;
    TSSymbol sym = ts_node_symbol(n);
    uint32_t kind = sym < g->ncanon ? g->canon[sym] : g->error_kind;
    uint32_t flags = named ? 1u : 0u;
    if (ts_node_is_error(n)) flags |= 2u;
    if (ts_node_is_missing(n)) flags |= 4u;
    if (ts_node_is_extra(n)) flags |= 8u;
    uint32_t field = ts_tree_cursor_current_field_id(c) & 0xFFu;
    r[0] = kind | field << 16 | flags << 24;
    r[1] = ts_node_start_byte(n);
    r[2] = ts_node_end_byte(n);
    r[3] = ts_node_start_point(n).row;
    r[4] = ts_node_end_point(n).row;
    r[5] = 0;
    r[6] = 1;
    if (p->anc_len > 0) p->out.recs[(size_t)p->anc[p->anc_len - 1] * SYN_RECORD_WORDS + 5]++;
    p->anc[p->anc_len++] = (uint32_t)i;
    idx = (uint32_t)i;  // < SYN_NONE thanks to the TOOBIG check
  }
  if (p->sp >= p->stack_cap &&
      !syn_grow((void **)&p->stack, &p->stack_cap, p->sp + 1, sizeof(uint32_t)))
    return SYN_ERR_NOMEM;
  p->stack[p->sp++] = idx;
  return 0;
}

// cursor_walk writes the records by walking a TSTreeCursor with the
// public node accessors: the definition walk.c must match, kept for the
// differential tests (SYN_MODE_REFERENCE).
static int cursor_walk(syn_parser *p, const syn_grammar *g, TSNode root,
                       int named_only) {
  int rc;
  TSTreeCursor c = ts_tree_cursor_new(root);
  if ((rc = visit(p, g, &c, named_only, 1)) != 0) goto out;
  for (;;) {
    if (ts_tree_cursor_goto_first_child(&c)) {
      if ((rc = visit(p, g, &c, named_only, 0)) != 0) goto out;
      continue;
    }
    for (;;) {
      uint32_t idx = p->stack[--p->sp];
      if (idx != SYN_NONE) {
        size_t i = idx;
        p->out.recs[i * SYN_RECORD_WORDS + 6] = (uint32_t)(p->out.len - i);
        p->anc_len--;
      }
      if (ts_tree_cursor_goto_next_sibling(&c)) {
        if ((rc = visit(p, g, &c, named_only, 0)) != 0) goto out;
        break;
      }
      if (!ts_tree_cursor_goto_parent(&c)) {
        rc = SYN_OK;
        goto out;
      }
    }
  }
out:
  ts_tree_cursor_delete(&c);
  return rc;
}

// reference_walk leaves the cursor walk's records in p->ref.
static int reference_walk(syn_parser *p, const syn_grammar *g, TSNode root,
                          int named_only) {
  int rc = cursor_walk(p, g, root, named_only);
  if (rc != SYN_OK) return rc;
  size_t n = p->out.len;
  if (n > p->ref.cap &&
      !syn_grow((void **)&p->ref.recs, &p->ref.cap, n, SYN_RECORD_WORDS * sizeof(uint32_t)))
    return SYN_ERR_NOMEM;
  if (n) memcpy(p->ref.recs, p->out.recs, n * SYN_RECORD_WORDS * sizeof(uint32_t));
  p->ref.len = n;
  p->out.len = 0;
  return SYN_OK;
}

int syn_parse(syn_parser *p, const syn_grammar *g, const char *src,
              uint32_t len, uint64_t timeout_micros, int mode) {
  p->out.len = 0;
  p->sp = 0;
  p->anc_len = 0;
  p->has_error = 0;
  if (p->lang != g->lang) {
    if (!ts_parser_set_language(p->parser, g->lang)) {
      p->lang = NULL;
      return SYN_ERR_LANGUAGE;
    }
    p->lang = g->lang;
  }
  ts_parser_set_timeout_micros(p->parser, timeout_micros);
  uint64_t t0 = thread_ns();
  TSTree *tree = ts_parser_parse_string(p->parser, NULL, src, len);
  uint64_t t1 = thread_ns();
  p->parse_ns += t1 - t0;
  if (!tree) {
    // Halted: start the next parse from scratch instead of resuming.
    ts_parser_reset(p->parser);
    return SYN_ERR_TIMEOUT;
  }
  TSNode root = ts_tree_root_node(tree);
  p->has_error = ts_node_has_error(root);
  if (mode == SYN_MODE_PARSE_ONLY) {
    ts_tree_delete(tree);
    p->serialize_ns += thread_ns() - t1;
    p->files++;
    return SYN_OK;
  }
  int named_only = (mode & SYN_MODE_MASK) == SYN_MODE_NAMED_ONLY;
  int rc = SYN_OK;
  if (mode & SYN_MODE_CURSOR) {
    rc = cursor_walk(p, g, root, named_only);
  } else {
    if (mode & SYN_MODE_REFERENCE) rc = reference_walk(p, g, root, named_only);
    if (rc == SYN_OK)
      rc = syn_walk(&p->out, tree, g->canon, g->ncanon, g->error_kind, named_only);
  }
  ts_tree_delete(tree);
  p->serialize_ns += thread_ns() - t1;
  if (rc != SYN_OK) {
    p->out.len = 0;
  } else {
    p->files++;
    p->nodes += p->out.len;
  }
  return rc;
}
