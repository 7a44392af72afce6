// Package config is the config side of CLImax: the model of a config file
// (one CLI and its tools and arguments) and of a policy file, their strict
// YAML loaders, input-schema generation, and [Apply], which applies a
// policy to loaded configs and gives the tools that exist.
//
//	cfg, err := config.LoadRef("git", bundledFS) // a bundled name or a path
//	if err != nil {
//		log.Fatal(err) // every problem, as file:line:column: message
//	}
//	set, warnings, err := config.Apply([]*config.Config{cfg}, nil)
//
// # Loading
//
// [Parse], [LoadFile], [LoadFS] and [LoadRef] load a config; [ParsePolicy]
// and [LoadPolicyFile] a policy. Loading is strict and reports every
// problem of a file at once in a [*LoadError], each [Problem] with its line
// and column: malformed YAML, missing or mistyped fields, unknown keys
// (with a "did you mean"), duplicate names, contradictory settings. It is
// bounded whatever the input: aliases and merge keys may expand a document
// only so far, a file lists at most [MaxProblems] problems, and messages
// quote at most 80 bytes of a value. docs/config.md describes the language.
//
// # Policies
//
// [Apply] keeps the tools a policy enables, attaches its argument
// constraints ([ArgConstraint]) and executor, and returns a policy's
// usable-but-suspicious entries (unknown tool or arg names, a pattern on a
// boolean arg) as warning [Problem]s with their positions; min or max on an
// arg that is not a number is an error. A pattern must match the whole
// value: it is parsed on its own and the parsed expression anchored.
//
// The package depends on the standard library and the YAML library only.
package config
