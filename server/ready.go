package server

import (
	"fmt"
	"net/http"
	"os/exec"
	"slices"
	"strings"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

// ReadyPath answers GET with 200 "ready" when the program of every served
// config is found as a call would find it, and with 503 otherwise, without
// authentication, for readiness probes: a replica that would fail every
// call of a CLI takes no traffic. [HealthPath] stays the liveness check (a
// missing program is not cured by a restart).
const ReadyPath = "/readyz"

// Unready returns what keeps the server from being ready: for each served
// config (each CLI with at least one tool in the current tool set) whose
// program cannot be found, a line naming the CLI and saying why, as a call
// would. With the docker executor the program that must be found is the
// container runtime (docker or podman), and a config env the runtime
// client would read itself, or a volume naming a variable the server's
// environment does not set, fails every call too. Nil means ready. It
// looks the programs up at every call, so a program installed or removed
// later, or a reload (--watch), shows at once.
func (s *Server) Unready() []string {
	problems, _ := s.unready()
	return problems
}

// unready is [Server.Unready], with how many served configs the problems
// are about (a config can have several).
func (s *Server) unready() (problems []string, configs int) {
	names, problems := unrunnable(s.set.Load().ix)
	return problems, len(names)
}

// unrunnableCLIs names the CLIs of ix none of whose calls can run
// ([configProblems]), in load order, each once (two configs may share a
// name when their tools' names differ).
func unrunnableCLIs(ix *index.Index) []string {
	configs, _ := unrunnable(ix)
	var names []string
	for _, n := range configs {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// unrunnable returns the names of the configs of ix none of whose calls
// can run, one per config in load order, and the lines saying why
// ([configProblems]). The executor is the policy's, the same for every
// tool, so a config is checked once, with its first tool.
func unrunnable(ix *index.Index) (names, problems []string) {
	seen := map[*config.Config]bool{}
	for _, rt := range ix.Tools() {
		if seen[rt.CLI] {
			continue
		}
		seen[rt.CLI] = true
		if p := configProblems(rt); len(p) > 0 {
			names = append(names, rt.CLI.Name)
			problems = append(problems, p...)
		}
	}
	return names, problems
}

// configProblems returns why no call of rt's config can run, one line per
// reason, each naming the CLI; nil when calls can run.
func configProblems(rt *config.ResolvedTool) []string {
	var problems []string
	name := rt.CLI.Name
	if !rt.Executor.IsDocker() {
		if _, err := executor.FindProgram(rt.CLI); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", name, err))
		}
		return problems
	}
	if prog := rt.Executor.Program(); !hasProgram(prog) {
		problems = append(problems, fmt.Sprintf("%s: the docker executor needs %s, which is not on PATH", name, prog))
	}
	if err := executor.CheckContainerEnv(rt.CLI, &rt.Executor); err != nil {
		problems = append(problems, fmt.Sprintf("%s: %v", name, err))
	}
	for _, err := range executor.CheckVolumes(&rt.Executor) {
		problems = append(problems, fmt.Sprintf("%s: %v", name, err))
	}
	return problems
}

// checkReady is [Server.unready], and logs a change between ready and not
// ready: a WARNING naming the configs that cannot run and why, or an INFO
// line once they all can. The server starts ready, so the first check of
// a server whose programs are missing warns: ServeStdio and Serve check at
// start, and /readyz at every probe.
func (s *Server) checkReady() (problems []string, configs int) {
	problems, configs = s.unready()
	if was := s.notReady.Swap(len(problems) > 0); was != (len(problems) > 0) {
		if len(problems) > 0 {
			s.log.Warn("served configs cannot run: their calls fail until the problems listed are fixed", "problems", strings.Join(problems, "; "))
		} else {
			s.log.Info("ready: every served config can run")
		}
	}
	return problems, configs
}

// cannotRun says how many served configs cannot run a call: "1 served
// config cannot run" (its program is missing, or its docker executor
// cannot start).
func cannotRun(n int) string {
	return fmt.Sprintf("%d served %s cannot run", n, plural(n, "config", "configs"))
}

// hasProgram reports whether name is found on the server's PATH.
func hasProgram(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}

// readyHandler serves [ReadyPath]. The problems are in the body for a
// request that passes the token rule of g (or when there is no token);
// others get their number only, since they name the served CLIs. A change
// of readiness is logged.
func (s *Server) readyHandler(g *guard) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		problems, configs := s.checkReady()
		if len(problems) == 0 {
			fmt.Fprintln(w, "ready")
			return
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		if g.token != nil && !g.authorized(r) {
			fmt.Fprintf(w, "not ready: %s (the server log names %s; so does this page with the bearer token)\n", cannotRun(configs), plural(configs, "it", "them"))
			return
		}
		fmt.Fprintf(w, "not ready: %s\n", cannotRun(configs))
		for _, p := range problems {
			fmt.Fprintf(w, "- %s\n", p)
		}
	}
}
