package main

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/index/config"
)

// TestBundleManifestNamesBundledConfigs: the MCP bundle's manifest
// (mcpb/manifest.json) lists the bundled configs twice, in its long
// description and in the description of the configs setting, where users
// pick what to serve; both lists are exactly the bundled configs
// (configs/*.yaml).
func TestBundleManifestNamesBundledConfigs(t *testing.T) {
	data, err := os.ReadFile("../mcpb/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		LongDescription string `json:"long_description"`
		UserConfig      struct {
			Configs struct {
				Description string `json:"description"`
			} `json:"configs"`
		} `json:"user_config"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	bundled, err := config.BundledNames(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(bundled)
	for _, c := range []struct {
		field, text string
		list        *regexp.Regexp
	}{
		{"long_description", m.LongDescription, regexp.MustCompile(`YAML configs: (.*?) are bundled`)},
		{"user_config.configs.description", m.UserConfig.Configs.Description, regexp.MustCompile(`^Bundled config names \(([^)]*)\)`)},
	} {
		match := c.list.FindStringSubmatch(c.text)
		if match == nil {
			t.Errorf("mcpb/manifest.json %s: no list of bundled configs matching %s in %q", c.field, c.list, c.text)
			continue
		}
		var named []string
		for _, w := range strings.Split(strings.ReplaceAll(match[1], " and ", ", "), ", ") {
			named = append(named, strings.TrimSpace(w))
		}
		slices.Sort(named)
		if !slices.Equal(named, bundled) {
			t.Errorf("mcpb/manifest.json %s names %v; the bundled configs are %v", c.field, named, bundled)
		}
	}
}
