// Package configs holds the CLImax configs bundled into the binary, so that
// `climax git` works without any file on disk.
//
// [FS] holds one NAME.yaml file per bundled CLI at its root; pass it to
// index.Resolve or index.BundledNames.
package configs

import "embed"

// FS holds the bundled configs, one NAME.yaml per CLI, at its root.
//
//go:embed *.yaml
var FS embed.FS
