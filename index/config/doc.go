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
// (with a "did you mean"), duplicate names, contradictory settings.
// docs/config.md describes the language.
//
// # Policies
//
// [Apply] keeps the tools a policy enables, attaches its argument
// constraints ([ArgConstraint]) and executor, and returns a policy's
// usable-but-suspicious entries (unknown tool or arg names, constraints
// that cannot apply) as warning [Problem]s with their positions.
//
// The package depends on the standard library and the YAML library only.
package config
