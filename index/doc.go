// Package index builds the searchable tool index that both server modes
// share, from configs and a policy loaded by its subpackage
// [github.com/climax-mcp/climax/index/config].
//
// A config (one YAML file per CLI) describes a program and its tools; a
// policy restricts which tools exist and what their arguments accept. [New]
// applies the policy ([config.Apply]) and builds an immutable [Index]:
//
//   - [Index.Search] returns the tools most relevant to a query, best
//     first, optionally filtered by category or CLI; [Index.SearchPage]
//     returns any page of the same order, with the total, and takes a
//     [Project] hint that ranks the tools of the programs a project uses
//     first;
//   - [Index.Explain] says why each result ranks where it does;
//   - [Index.Summary] gives one entry per CLI, [Index.Get] a tool by name.
//
// Search ranks tools by relevance (BM25F over their names, keywords,
// descriptions, CLI fields and arguments, with a small thesaurus, typo
// correction and abbreviations) and always includes every tool that
// contains the whole query as a case-insensitive substring; an empty query
// lists every tool in load order. A query costs bounded time and memory
// whatever its size ([MaxQueryBytes], [MaxQueryTerms]). The ranking rules,
// their weights and how they are measured are in docs/search.md
// ("What a search guarantees", "Ranking", "Measuring").
//
// The index is safe for concurrent searches. [New] returns as soon as tools
// can be listed and looked up; the search structures of a small index are
// built by the first search, so that a server that only lists tools never
// pays for them, and those of a large one (thousands of tools) start
// building in the background at once.
//
// This module depends on the standard library and the YAML library only,
// so that other projects can use it without pulling in an MCP SDK.
package index
