package extract

import "slices"

// ProjectLines says, one line per plugin, which enclosing project the run
// resolved the root in (empty when none): what the plugins' project entry
// points answered (docs/abi-v2.md).
func (s *Summary) ProjectLines() []string {
	return slices.Clone(s.Projects)
}
