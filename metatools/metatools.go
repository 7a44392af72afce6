// Package metatools implements the two progressive-discovery meta-tools,
// climax_search and climax_call, as transport-free Go: their definitions,
// a search that returns the contract's JSON, and a call that looks a tool
// up and runs it through the executor.
package metatools
