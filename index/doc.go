// Package index loads CLImax configs and policies and builds the searchable
// tool index that both server modes share.
//
// A config (one YAML file per CLI) describes a program and its tools; a
// policy restricts which tools exist and what their arguments accept. [New]
// applies the policy and builds an immutable [Index] with [Index.Search],
// [Index.Summary] and [Index.Get].
//
// This module depends on the standard library and the YAML library only,
// so that other projects can use it without pulling in an MCP SDK.
package index
