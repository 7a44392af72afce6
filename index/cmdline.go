package index

import "encoding/binary"

// This file holds command lines: a query that opens with a tool's
// command line, its program's name and then its subcommand words ("git
// restore a file to the HEAD version", "kubectl diff -f deploy.yaml
// before applying", "git worktree remove a linked checkout"), names that
// tool, as a shell command would. A sibling whose keywords hold more of
// the other words ("head" and "version" in git_checkout's) is not what
// was typed. Only the opening counts: further on, the same words are
// usually prose ("build a docker image" is not `docker images`).

// commandLineBoost multiplies the score of a tool whose command line
// opens the query.
const commandLineBoost = 1.25

// addCommandLine records the command line of tool d: the term IDs of its
// CLI's name (cli) followed by those of its subcommand words (sub, see
// splitCommand). A tool whose command has no subcommand word is left
// out: the program's name alone names all its tools.
func (r *ranker) addCommandLine(d int32, cli, sub []int32) {
	if len(cli) == 0 || len(sub) == 0 {
		return
	}
	ids := append(append(make([]int32, 0, len(cli)+len(sub)), cli...), sub...)
	if r.cmdLines == nil {
		r.cmdLines = map[string][]int32{}
	}
	key := phraseKey(ids)
	r.cmdLines[key] = appendNew(r.cmdLines[key], d)
	r.maxCmdLen = max(r.maxCmdLen, len(ids))
}

// findCommandLines flags every tool that matched a query term and whose
// command line the query opens with (ids: the term IDs of the query's
// words, -1 for a word the index lacks). "git worktree remove" flags
// git_worktree_remove (its command line is "git worktree remove"), not
// git_worktree_list; "git clean -fdx" flags every tool whose subcommand
// is "clean", and the option picks among them.
func (r *ranker) findCommandLines(ids []int32, s *scratch) {
	key := s.key[:0]
	for j := 0; j < len(ids) && j < r.maxCmdLen && ids[j] >= 0; j++ {
		key = binary.LittleEndian.AppendUint32(key, uint32(ids[j]))
		for _, d := range r.cmdLines[string(key)] {
			if s.acc[d] > 0 {
				s.flags[d] |= flagCmdLine
			}
		}
	}
	s.key = key
}
