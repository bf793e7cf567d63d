// The flat-tree writer: one preorder pass over a syntax tree's subtrees.
//
// It visits exactly the nodes a TSTreeCursor walk does (the root, then the
// children of every visible node with hidden wrapper nodes flattened away)
// and fills each record the way shim.c's cursor walk fills it from the
// ts_node_* accessors. The cursor rebuilds its child iterator (alias
// sequence, parent visibility, position) on every step and searches the
// field map from scratch for each node; here each node's frame keeps its
// iterator, and a field inherited through hidden wrappers is carried down.
// TestWalkMatchesCursor and FuzzParse compare the two walks record by
// record. Record layout: docs/architecture.md, "The flat tree".

#include <stdlib.h>

#include "tsinternal/language.h"
#include "tsinternal/subtree.h"
#include "tsinternal/tree.h"
#include "walk.h"

// A frame is one node whose children are being visited: visible (it has a
// record when written) or a hidden wrapper (its children belong to the
// nearest visible ancestor).
typedef struct {
  const Subtree *children;
  uint32_t count, next;       // children, index of the next one
  uint32_t structural;        // structural index of the next non-extra child
  const TSSymbol *aliases;    // this production's alias sequence, or NULL
  const TSFieldMapEntry *fields, *fields_end;
  TSFieldId inherited;        // field of a child the field map does not name
  uint32_t rec;               // this node's record (SYN_NONE: not written)
  uint32_t owner;             // record that counts this frame's children
  uint32_t bytes, row;        // start of the next child
} frame;

typedef struct {
  syn_out *out;
  const TSLanguage *lang;
  const uint16_t *canon;
  uint32_t ncanon;
  uint16_t error_kind;
  int named_only;
  size_t depth;
} walker;

int syn_grow(void **buf, size_t *cap, size_t need, size_t elem) {
  size_t n = *cap ? *cap : 256;
  while (n < need) n *= 2;
  void *nb = realloc(*buf, n * elem);
  if (!nb) return 0;
  *buf = nb;
  *cap = n;
  return 1;
}

// field_at is ts_tree_cursor_current_field_id's lookup for one level: the
// first non-inherited entry naming the structural child index.
static inline TSFieldId field_at(const frame *f, uint32_t structural) {
  for (const TSFieldMapEntry *m = f->fields; m < f->fields_end; m++) {
    if (!m->inherited && m->child_index == structural) return m->field_id;
  }
  return 0;
}

// push opens a frame over s's children; the caller has checked that s has
// some. Returns the frame or NULL when the stack cannot grow.
static frame *push(walker *w, Subtree s, uint32_t bytes, uint32_t row,
                   TSFieldId inherited, uint32_t rec, uint32_t owner) {
  syn_out *o = w->out;
  if (w->depth >= o->frames_cap &&
      !syn_grow(&o->frames, &o->frames_cap, w->depth + 1, sizeof(frame)))
    return NULL;
  frame *f = (frame *)o->frames + w->depth++;
  uint16_t production = s.ptr->production_id;
  f->children = ts_subtree_children(s);
  f->count = s.ptr->child_count;
  f->next = 0;
  f->structural = 0;
  f->aliases = ts_language_alias_sequence(w->lang, production);
  ts_language_field_map(w->lang, production, &f->fields, &f->fields_end);
  f->inherited = inherited;
  f->rec = rec;
  f->owner = owner;
  f->bytes = bytes;
  f->row = row;
  return f;
}

// emit writes the record of a visible node (or of the root) at the given
// start, unless named_only filters it out. Returns SYN_OK or an error;
// *rec is the record index or SYN_NONE.
static int emit(walker *w, Subtree s, TSSymbol alias, TSFieldId field,
                uint32_t bytes, uint32_t row, uint32_t owner, int force,
                uint32_t *rec) {
  const TSLanguage *lang = w->lang;
  bool named = alias ? ts_language_symbol_metadata(lang, alias).named
                     : ts_subtree_named(s);
  *rec = SYN_NONE;
  if (!force && w->named_only && !named) return SYN_OK;
  syn_out *o = w->out;
  if (o->len >= (size_t)UINT32_MAX - 1) return SYN_ERR_TOOBIG;
  if (o->len >= o->cap &&
      !syn_grow((void **)&o->recs, &o->cap, o->len + 1,
            SYN_RECORD_WORDS * sizeof(uint32_t)))
    return SYN_ERR_NOMEM;
  TSSymbol sym = alias ? alias : ts_subtree_symbol(s);
  TSSymbol pub = ts_language_public_symbol(lang, sym);
  uint32_t kind = pub < w->ncanon ? w->canon[pub] : w->error_kind;
  uint32_t flags = named ? 1u : 0u;
  if (pub == ts_builtin_sym_error) flags |= 2u;
  if (ts_subtree_missing(s)) flags |= 4u;
  if (ts_subtree_extra(s)) flags |= 8u;
  Length size = ts_subtree_size(s);
  size_t i = o->len++;
  uint32_t *r = o->recs + i * SYN_RECORD_WORDS;
  r[0] = kind | (uint32_t)(field & 0xFFu) << 16 | flags << 24;
  r[1] = bytes;
  r[2] = bytes + size.bytes;
  r[3] = row;
  r[4] = row + size.extent.row;
  r[5] = 0;
  r[6] = 1;
  if (owner != SYN_NONE) o->recs[(size_t)owner * SYN_RECORD_WORDS + 5]++;
  *rec = (uint32_t)i;
  return SYN_OK;
}

// visit handles child c of frame f: a visible node is written and entered,
// a hidden one with visible descendants is entered without a record, and
// anything else is skipped (the cursor never stops there).
static int visit(walker *w, frame *f, Subtree c, uint32_t bytes, uint32_t row) {
  bool extra = ts_subtree_extra(c);
  TSSymbol alias = 0;
  uint32_t structural = f->structural;
  if (!extra) {
    if (f->aliases) alias = f->aliases[structural];
    f->structural++;
  }
  TSFieldId field = 0;
  if (!extra) {
    field = field_at(f, structural);
    if (!field) field = f->inherited;
  }
  uint32_t owner = f->owner;  // f moves if the stack grows
  if (ts_subtree_visible(c) || alias) {
    uint32_t rec;
    int rc = emit(w, c, alias, field, bytes, row, owner, 0, &rec);
    if (rc != SYN_OK) return rc;
    if (ts_subtree_child_count(c) == 0) return SYN_OK;  // r[6] is already 1
    uint32_t children_owner = rec != SYN_NONE ? rec : owner;
    return push(w, c, bytes, row, 0, rec, children_owner) ? SYN_OK : SYN_ERR_NOMEM;
  }
  if (ts_subtree_visible_child_count(c) == 0) return SYN_OK;
  TSFieldId inherited = extra ? 0 : field;
  return push(w, c, bytes, row, inherited, SYN_NONE, owner) ? SYN_OK : SYN_ERR_NOMEM;
}

int syn_walk(syn_out *out, const void *tree_ptr, const uint16_t *canon,
             uint32_t ncanon, uint16_t error_kind, int named_only) {
  const TSTree *tree = tree_ptr;
  walker w = {out, tree->language, canon, ncanon, error_kind, named_only, 0};
  out->len = 0;
  Subtree root = tree->root;
  Length pad = ts_subtree_padding(root);
  uint32_t rec;
  int rc = emit(&w, root, 0, 0, pad.bytes, pad.extent.row, SYN_NONE, 1, &rec);
  if (rc != SYN_OK) return rc;
  if (ts_subtree_child_count(root) > 0 &&
      !push(&w, root, pad.bytes, pad.extent.row, 0, rec, rec))
    return SYN_ERR_NOMEM;
  while (w.depth > 0) {
    frame *f = (frame *)out->frames + w.depth - 1;
    if (f->next == f->count) {
      if (f->rec != SYN_NONE)
        out->recs[(size_t)f->rec * SYN_RECORD_WORDS + 6] = (uint32_t)(out->len - f->rec);
      w.depth--;
      continue;
    }
    // The cursor's iterator arithmetic: a child starts where the previous
    // one ended plus its own padding; the first starts at its parent.
    Subtree c = f->children[f->next++];
    uint32_t bytes = f->bytes, row = f->row;
    Length size = ts_subtree_size(c);
    f->bytes += size.bytes;
    f->row += size.extent.row;
    if (f->next < f->count) {
      Length next_pad = ts_subtree_padding(f->children[f->next]);
      f->bytes += next_pad.bytes;
      f->row += next_pad.extent.row;
    }
    if ((rc = visit(&w, f, c, bytes, row)) != SYN_OK) return rc;
  }
  return SYN_OK;
}
