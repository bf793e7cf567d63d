package extract

// Scopes is the stack of definitions enclosing the node a preorder walk
// is at: a class, then a method inside it. Each frame closes at the end
// of the node that opened it; calling Leave(n) before handling node n
// pops every frame n lies past, so a walk needs no recursion to know
// where it is. F is the plugin's own frame data (at least the symbol
// index that Parent and Caller take).
type Scopes[F any] struct {
	frames []scope[F]
}

type scope[F any] struct {
	end   Node
	frame F
}

// Enter opens a frame that closes at end (Tree.End of the defining node).
func (s *Scopes[F]) Enter(end Node, f F) { s.frames = append(s.frames, scope[F]{end, f}) }

// Leave pops the frames that node n lies past and returns how many.
func (s *Scopes[F]) Leave(n Node) int {
	k := len(s.frames)
	for k > 0 && n >= s.frames[k-1].end {
		k--
	}
	popped := len(s.frames) - k
	clear(s.frames[k:]) // drop references the frames hold
	s.frames = s.frames[:k]
	return popped
}

// Top returns the innermost frame, or nil outside every frame.
func (s *Scopes[F]) Top() *F {
	if len(s.frames) == 0 {
		return nil
	}
	return &s.frames[len(s.frames)-1].frame
}

// Find returns the innermost frame for which match is true, or nil.
func (s *Scopes[F]) Find(match func(*F) bool) *F {
	for i := len(s.frames) - 1; i >= 0; i-- {
		if f := &s.frames[i].frame; match(f) {
			return f
		}
	}
	return nil
}

// Depth returns the number of open frames.
func (s *Scopes[F]) Depth() int { return len(s.frames) }

// Reset empties the stack, keeping its capacity for the next file.
func (s *Scopes[F]) Reset() { clear(s.frames); s.frames = s.frames[:0] }
