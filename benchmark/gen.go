package main

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/climax-mcp/climax/index/config"
)

// toolsPerCLI is how many tools each generated config holds.
const toolsPerCLI = 100

// genWords is the vocabulary of generated names, descriptions and queries:
// words that real CLI tool descriptions use.
var genWords = strings.Fields(`
	add apply archive attach backup branch build bundle cache change check
	checkout clean clone commit compare compile config connect container copy
	count create database debug delete deploy describe diff directory disk
	download edit enable environment event exec export fetch file filter
	format generate graph group history host image import index init inspect
	install job json key label lint list load lock log login merge message
	migrate module mount move namespace network node object output package
	patch path pipeline plan pod port process project prune publish pull push
	query queue rebase record release reload remote remove rename replica
	report repository request reset resource restart restore revert role
	rollback route run scale schema search secret service session set show
	snapshot source stage start stash status stop storage sync table tag task
	template test token trace transform tree unit update upload user validate
	verify version volume watch workflow workspace`)

// genCategories are the categories of generated configs.
var genCategories = []string{"vcs", "containers", "build", "cloud", "data", "network", "packages", "system"}

// A genConfig is one generated config: its name and its YAML.
type genConfig struct {
	name string
	yaml []byte
}

// generateConfigs returns n tools as YAML configs of [toolsPerCLI] tools
// each (the last one may hold fewer). The same n always gives the same
// bytes.
func generateConfigs(n int) []genConfig {
	r := rand.New(rand.NewPCG(uint64(n), 2026))
	word := func() string { return genWords[r.IntN(len(genWords))] }
	words := func(lo, hi int) string {
		ws := make([]string, lo+r.IntN(hi-lo+1))
		for i := range ws {
			ws[i] = word()
		}
		return strings.Join(ws, " ")
	}
	var out []genConfig
	for c := 0; c*toolsPerCLI < n; c++ {
		name := fmt.Sprintf("gen%03d", c)
		var b strings.Builder
		fmt.Fprintf(&b, "name: %s\n", name)
		fmt.Fprintf(&b, "description: %s\n", strconv.Quote("Generated CLI: "+words(6, 12)))
		fmt.Fprintf(&b, "command: %s\n", name)
		fmt.Fprintf(&b, "category: %s\n", genCategories[c%len(genCategories)])
		fmt.Fprintf(&b, "tags: [%s, %s, %s]\n", word(), word(), word())
		b.WriteString("tools:\n")
		for t := c * toolsPerCLI; t < min(n, (c+1)*toolsPerCLI); t++ {
			verb, noun := word(), word()
			fmt.Fprintf(&b, "  - name: %s_%s_%s_%d\n", name, verb, noun, t)
			fmt.Fprintf(&b, "    description: %s\n", strconv.Quote(fmt.Sprintf("%s the %s: %s.", verb, noun, words(8, 20))))
			fmt.Fprintf(&b, "    command: %s %s\n", verb, noun)
			b.WriteString("    args:\n")
			for a := range 1 + r.IntN(4) {
				fmt.Fprintf(&b, "      - name: %s_%d\n", word(), a)
				fmt.Fprintf(&b, "        description: %s\n", strconv.Quote(words(4, 10)))
				switch r.IntN(5) {
				case 0:
					fmt.Fprintf(&b, "        positional: true\n")
					if a == 0 {
						b.WriteString("        required: true\n")
					}
				case 1:
					fmt.Fprintf(&b, "        type: boolean\n        flag: --%s-%d\n", word(), a)
				case 2:
					fmt.Fprintf(&b, "        type: integer\n        flag: --%s-%d\n        default: %d\n", word(), a, r.IntN(100))
				case 3:
					fmt.Fprintf(&b, "        enum: [%s, %s, %s]\n        flag: --%s-%d\n", word()+"1", word()+"2", word()+"3", word(), a)
				default:
					fmt.Fprintf(&b, "        flag: --%s-%d\n", word(), a)
				}
			}
		}
		out = append(out, genConfig{name: name, yaml: []byte(b.String())})
	}
	return out
}

// parseGenerated parses generated configs.
func parseGenerated(gcs []genConfig) ([]*config.Config, error) {
	cfgs := make([]*config.Config, len(gcs))
	for i, g := range gcs {
		c, err := config.Parse(g.yaml, g.name+".yaml")
		if err != nil {
			return nil, fmt.Errorf("generated config %s: %w", g.name, err)
		}
		cfgs[i] = c
	}
	return cfgs, nil
}

// generateQueries returns n search queries of one to three vocabulary
// words, every tenth restricted to one generated CLI. The same n and
// number of CLIs always give the same queries.
func generateQueries(n, clis int) []genQuery {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	qs := make([]genQuery, n)
	for i := range qs {
		ws := make([]string, 1+r.IntN(3))
		for j := range ws {
			ws[j] = genWords[r.IntN(len(genWords))]
		}
		qs[i].query = strings.Join(ws, " ")
		if i%10 == 9 {
			qs[i].cli = fmt.Sprintf("gen%03d", r.IntN(clis))
		}
	}
	return qs
}

// A genQuery is one generated search.
type genQuery struct{ query, cli string }
