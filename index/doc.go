// Package index builds the searchable tool index that both server modes
// share, from configs and a policy loaded by its subpackage
// [github.com/climax-mcp/climax/index/config].
//
// A config (one YAML file per CLI) describes a program and its tools; a
// policy restricts which tools exist and what their arguments accept. [New]
// applies the policy ([config.Apply]) and builds an immutable [Index] with
// [Index.Search], [Index.Summary] and [Index.Get].
//
// # Search
//
// [Index.Search] ranks tools by relevance to the query rather than
// filtering by substring. Names, descriptions, tags, category, CLI name and
// description and argument text are split into words (at "_", "-", ".",
// "/", punctuation, spaces and camelCase), lowercased and lightly stemmed,
// so "containers", "running" and "listed" match "container", "run" and
// "list". A tool scores by BM25F: the tool name and tags weigh most, then
// category and CLI name, then the description, then arguments. A query word
// also matches a few common synonyms ("remove" for "delete", "repository"
// for "repo") and longer or shorter forms ("config", "configuration") at a
// lower weight; small words such as "the", "my" or "what", and numbers,
// are ignored. Tools that match more of the query's words rank first,
// query words found in the tool's name or subcommand weigh extra, two query words next to each other
// in a tool's text add a bonus. A synonym scores with the rarity of the
// word typed, not its own. Results whose scores lie within 5 % of each
// other take turns by CLI (so "vcs" lists git and jj tools, not only the
// CLI loaded first); otherwise ties keep load order.
//
// Every tool whose name, description, CLI name, category or a tag contains
// the whole query as a case-insensitive substring (special characters taken
// literally) is always in the result, ranked after the word matches when it
// matches no word. An empty query lists every tool in load order.
//
// The index is built once and is safe for concurrent searches; a search
// looks only at the tools that share a word with the query. [New] returns
// as soon as tools can be listed and looked up, and builds the search part
// in the background; the first [Index.Search] waits for it, so that a
// server can start answering while it is built.
//
// This module depends on the standard library and the YAML library only,
// so that other projects can use it without pulling in an MCP SDK.
package index
