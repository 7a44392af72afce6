package index

import (
	"github.com/climax-mcp/climax/index/config"

	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// Benchmarks of index build and search over generated configs of 100,
// 1,000 and 10,000 tools. Run with
//
//	go test -run XXX -bench . -benchmem ./index/
//
// BenchmarkNew reports the heap the built index holds (heap-MB);
// BenchmarkSearch reports the median search time (p50-µs).

var benchSizes = []int{100, 1000, 10000}

var (
	genCLIs = strings.Fields(`kube cloud store vault mesh queue cache proxy build deploy
		pkg lint trace metric alert backup db search mail auth dns cert mirror farm
		notebook ledger stream batch fleet edge`)
	genVerbs = strings.Fields(`list show create delete remove update get set run stop start
		restart build test deploy sync export import inspect watch scale rollback
		describe apply diff merge fetch push pull tag prune clean archive restore
		validate format search rename copy move attach detach enable disable`)
	genObjects = strings.Fields(`container image volume network branch commit tag release
		user group bucket file secret key node pod service job log metric alert
		record table index snapshot backup certificate domain zone route policy role
		token session workspace project package module dependency artifact report`)
	genMods = strings.Fields(`running stopped remote local stale pending failed active
		archived shared private public recent old new default current selected`)
	genFiller = strings.Fields(`optionally filtered by label or name, with output as json or
		a table; supports pagination and dry runs; requires permission on the target
		resource and prints a summary when done; useful before a release or during
		an incident review`)
)

// genConfigs returns configs with n tools in all, 20 per CLI, with varied
// names and descriptions; the same n always gives the same configs.
func genConfigs(n int) []*config.Config {
	rng := rand.New(rand.NewPCG(uint64(n), 42))
	var configs []*config.Config
	for made := 0; made < n; {
		ci := len(configs)
		base := genCLIs[ci%len(genCLIs)]
		c := &config.Config{
			Name:        fmt.Sprintf("%s%d-tools", base, ci),
			Description: fmt.Sprintf("Tools for the %s %s service", base, genObjects[rng.IntN(len(genObjects))]),
			Category:    genCLIs[rng.IntN(len(genCLIs))],
			Tags:        []string{genObjects[rng.IntN(len(genObjects))], genMods[rng.IntN(len(genMods))] + "-" + genObjects[rng.IntN(len(genObjects))]},
		}
		pairs := rng.Perm(len(genVerbs) * len(genObjects))
		for k := 0; k < 20 && made < n; k++ {
			verb, obj := genVerbs[pairs[k]%len(genVerbs)], genObjects[pairs[k]/len(genVerbs)]
			mod := genMods[rng.IntN(len(genMods))]
			fi := rng.IntN(len(genFiller) - 8)
			t := config.Tool{
				Name:        fmt.Sprintf("%s%d_%s_%s", base, ci, verb, obj),
				Description: fmt.Sprintf("%s %s %ss in the %s %s; %s", strings.ToUpper(verb[:1])+verb[1:], mod, obj, base, genObjects[rng.IntN(len(genObjects))], strings.Join(genFiller[fi:fi+2+rng.IntN(7)], " ")),
				Command:     verb + " " + obj,
			}
			for a := range 1 + rng.IntN(4) {
				o := genObjects[rng.IntN(len(genObjects))]
				t.Args = append(t.Args, config.Arg{
					Name:        fmt.Sprintf("%s_%d", o, a),
					Description: fmt.Sprintf("The %s %s to %s", genMods[rng.IntN(len(genMods))], o, verb),
					Type:        config.TypeString,
				})
			}
			c.Tools = append(c.Tools, t)
			made++
		}
		configs = append(configs, c)
	}
	return configs
}

func BenchmarkNew(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			configs := genConfigs(n)
			b.ReportAllocs()
			for b.Loop() {
				mustNew(b, configs)
			}
			b.ReportMetric(heapMB(func() any { return mustNew(b, configs) }), "heap-MB")
		})
	}
}

func BenchmarkNewRanker(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			tools := mustNew(b, genConfigs(n)).Tools()
			b.ReportAllocs()
			for b.Loop() {
				newRanker(tools)
			}
			b.ReportMetric(heapMB(func() any { return newRanker(tools) }), "heap-MB")
		})
	}
}

func BenchmarkSearch(b *testing.B) {
	queries := []struct{ name, q string }{
		{"three-words", "list running containers"},
		{"one-word", "deploy"},
		{"sentence", "remove the old snapshot backups of my project"},
		{"literal-only", "xq_zz"},
		{"typos", "lsit runnign contianers"},
		{"error-message", "Error response from daemon: Conflict. The container name is already in use by container 3f2a; remove it first"},
	}
	for _, n := range benchSizes {
		ix := mustNew(b, genConfigs(n))
		for _, q := range queries {
			b.Run(fmt.Sprintf("tools=%d/%s", n, q.name), func(b *testing.B) {
				b.ReportAllocs()
				var times []time.Duration
				for b.Loop() {
					start := time.Now()
					ix.Search(q.q, "", "", 10)
					times = append(times, time.Since(start))
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Nanoseconds())/1e3, "p50-µs")
			})
		}
	}
}

func mustNew(b *testing.B, configs []*config.Config) *Index {
	ix, _, err := New(configs, nil)
	if err != nil {
		b.Fatal(err)
	}
	ix.ranker() // build the search part, as the first search would: it counts
	return ix
}

// heapMB returns the heap, in MB, that the value made by build keeps live.
func heapMB(build func() any) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
}

func TestGenConfigs(t *testing.T) {
	ix, _, err := New(genConfigs(1000), nil)
	if err != nil {
		t.Fatal(err)
	}
	if ix.Len() != 1000 {
		t.Fatalf("%d tools, want 1000", ix.Len())
	}
	checkIncludesSubstringMatches(t, ix, "running cont")
	checkIncludesSubstringMatches(t, ix, "_sync_")
}
