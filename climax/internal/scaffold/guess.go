package scaffold

import (
	"slices"
	"strings"
)

// Verbs that name what a command does, for the read_only and destructive
// guesses of a draft. The guesses are conservative (docs/security.md, the
// read-only threat model): a command only counts as read-only when its
// verb only reads, and none of its words builds, tests, runs or plans,
// which may execute the project's own code.
var (
	readVerbs = words(`list ls show status describe view info inspect logs log diff search
		version versions explain top history cat tree whoami blame grep shortlog ls-files ls-tree
		ls-remote rev-parse cat-file rev-list show-ref for-each-ref events api-resources api-versions
		outdated why which print query stats stat check-ignore count-objects name-rev merge-base
		config-get get-contexts current-context get-url can-i df ps images volumes networks
		contexts providers output state-list env doctor audit-list find lookup read peek head
		fsck-dry-run summary`)
	destroyVerbs = words(`delete del rm remove rmi prune push apply reset force destroy drop purge
		kill uninstall clean taint untaint replace overwrite wipe erase truncate revert rebase
		force-unlock unset evict drain cordon cancel abort restore squash amend gc expire
		filter-branch filter-repo nuke stop down`)
	// runVerbs execute code (the project's, a package's or a caller's):
	// never read-only, whatever else the path says.
	runVerbs = words(`run exec build test bench plan validate check lint install compile make
		start up serve watch debug eval console shell script generate fmt format vet init
		import refresh fetch pull clone update upgrade sync login logout`)
	// changeVerbs write: a command under one is no read, whatever its last
	// word (kubectl set env sets variables).
	changeVerbs = words(`set edit patch create add put write new`)
	// fetchVerbs bring something from elsewhere onto this machine, or send
	// it there (terraform get downloads modules, go get a module): never
	// read-only, also as a part of a word (get-object, update-index),
	// unless the whole word only reads (get-url).
	fetchVerbs = words(`fetch download get install pull sync update upgrade init login push
		apply deploy`)
)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// A guess is a draft's read_only or destructive annotation and why.
type guess struct {
	readOnly    bool
	destructive bool
	verb        string // the word the guess rests on; "" for no guess
}

// guessAnnotations guesses a tool's annotations from its command words.
// The last word decides read_only; any word can make it destructive.
func guessAnnotations(path []string) guess {
	if len(path) == 0 {
		return guess{}
	}
	for _, w := range path {
		if destroyVerbs[strings.ToLower(w)] {
			return guess{destructive: true, verb: w}
		}
	}
	for _, w := range path {
		w = strings.ToLower(w)
		if runVerbs[w] || changeVerbs[w] {
			return guess{}
		}
		if !readVerbs[w] && slices.ContainsFunc(nameWords(w), func(p string) bool { return fetchVerbs[p] }) {
			return guess{}
		}
	}
	last := strings.ToLower(path[len(path)-1])
	if readVerbs[last] {
		return guess{readOnly: true, verb: path[len(path)-1]}
	}
	return guess{}
}
