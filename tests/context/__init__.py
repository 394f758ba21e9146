"""Context management: compaction, token accounting, plans, images, web search, AGENTS.md."""
