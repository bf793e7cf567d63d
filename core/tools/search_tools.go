package tools

// searchTools are the search tools: content search, structural search and
// the dynamic-dispatch hazard list. Each declares its own annotations.
func (c *Catalog) searchTools() []Tool {
	return []Tool{c.structuralSearchTool(), c.searchTextTool(), c.dynamicHazardsTool()}
}
