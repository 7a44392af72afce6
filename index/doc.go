// Package index builds the searchable tool index that both server modes
// share, from configs and a policy loaded by its subpackage
// [github.com/climax-mcp/climax/index/config].
//
// A config (one YAML file per CLI) describes a program and its tools; a
// policy restricts which tools exist and what their arguments accept. [New]
// applies the policy ([config.Apply]) and builds an immutable [Index] with
// [Index.Search] (and its paged form [Index.SearchPage]), [Index.Summary]
// and [Index.Get].
//
// # Search
//
// [Index.Search] ranks tools by relevance to the query rather than
// filtering by substring. Names, keywords, descriptions, tags, category,
// CLI name and description and argument text are split into words (at
// "_", "-", ".", "/", punctuation, spaces and camelCase), lowercased and
// lightly stemmed, so "containers", "running" and "listed" match
// "container", "run" and "list". A tool scores by BM25F: the tool name
// weighs most, then its keywords (search-only words and phrases of the
// config, never shown) and CLI name, then the description, then the CLI's
// tags, category and description and the arguments. Keywords and the
// fields a CLI gives all its tools are not length-normalised, so a tool
// with fewer keywords, or a CLI with fewer tags or a shorter description,
// does not win by it; and a word's rarity counts a CLI's own fields once
// per CLI, not once per tool, so the words a CLI describes itself with
// keep their weight in its tools' own text. A query word also matches a
// small command-line thesaurus ("remove" for "delete", "latest" for
// "recent", "k8s" for "kubernetes") and longer or shorter forms
// ("config", "configuration") at a lower weight, and, when no tool has
// it, words one edit away (two for words of eight letters or more; a swap
// of two letters is one edit; the first letter must match unless swapped)
// at a lower weight still. Stop words ("the", "my", "no", "is", ...) and
// numbers are ignored. Tools that match more of the query's words (rare
// words counting more) rank first; query words found in the tool's name or
// subcommand weigh extra; two query words next to each other in a tool's
// text, a keyword phrase found whole in the query, and most of the words
// of a long keyword (a pasted error message with names and paths in the
// middle) add a bonus. A synonym scores with the rarity of the word typed,
// not its own. A clause that rules a program out ("docker, not k8s") drops
// its words and ranks that program's tools after the others; a [Project]
// hint ([Index.SearchPage]) ranks the tools of the programs a project uses
// first. Tools scoring under a tenth of the best are left out. Results
// whose scores lie within 5 % of each other take turns by CLI (so "vcs"
// lists git and jj tools, not only the CLI loaded first); otherwise ties
// keep load order; pages of any size follow one order.
// [Index.Explain] says why each result ranks where it does, with the same
// ranking.
//
// Every tool whose name, description, CLI name, category or a tag contains
// the whole query as a case-insensitive substring (special characters taken
// literally) is always in the result, ranked after the word matches when it
// matches no word. An empty query lists every tool in load order.
//
// A query costs bounded time and memory whatever its size: ranking reads
// its first [MaxQueryBytes] bytes and its first [MaxQueryTerms] distinct
// words; the substring rule looks at the whole query, which no tool
// contains once it is longer than every tool's fields.
//
// The index is built once and is safe for concurrent searches; a search
// looks only at the tools that share a word with the query. [New] returns
// as soon as tools can be listed and looked up; the search part of a small
// index is built by the first [Index.Search] (or [Index.Explain]), so that
// a server that only lists tools — a cold start in discovery mode answers
// initialize and tools/list without searching — never pays for it, and
// that of a large one (thousands of tools) starts building in the
// background at once, so that the first search does not wait long.
//
// This module depends on the standard library and the YAML library only,
// so that other projects can use it without pulling in an MCP SDK.
package index
