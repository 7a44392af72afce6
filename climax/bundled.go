package main

//go:generate go run ./internal/bundlegen -o bundled_gen.go
//go:generate go run ./internal/licensegen -o ../THIRD_PARTY_LICENSES

import "github.com/climax-mcp/climax/index/config"

// compiledConfig returns the bundled config named ref from its compiled
// form (bundled_gen.go), which saves parsing its YAML at start; ok is
// false when ref is a path or no bundled config has that name. The
// compiled form is generated from the YAML by bundlegen and checked
// against it by TestCompiledBundledConfigs, so both give the same config.
func compiledConfig(ref string) (c *config.Config, ok bool) {
	if config.IsPath(ref) {
		return nil, false
	}
	mk, ok := compiledBundled[ref]
	if !ok {
		return nil, false
	}
	return mk(), true
}
