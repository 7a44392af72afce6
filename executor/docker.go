package executor

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/climax-mcp/climax/index/config"
)

// containerCommand places a command line inside a container, as
// docs/calls.md (The docker executor) says: the words of [containerPrefix]
// before it, the config's and the tool's env handed to the container by
// name (-e KEY)
// with the values in the environment of the docker (or podman) client, so
// that no value is ever a word of the command line. The client runs in the
// server's working directory; the cwd arg's value, a path inside the
// container, becomes -w.
func containerCommand(cmd *Command, rt *config.ResolvedTool, line *commandLine) (*Command, error) {
	e, c := &rt.Executor, rt.CLI
	if strings.TrimSpace(e.Image) == "" {
		return nil, errors.New("The docker executor has no image: set executor.image in the policy")
	}
	if strings.HasPrefix(e.Image, "-") {
		return nil, fmt.Errorf("The docker executor's image %q is not an image name: fix executor.image in the policy", e.Image)
	}
	if err := CheckContainerEnv(c, e); err != nil {
		return nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(rt.Tool.Env)) {
		if err := checkContainerVariable(k, e.Program(), cliName(c)); err != nil {
			return nil, err
		}
	}
	keys := slices.Sorted(maps.Keys(line.env))
	run := containerRun{stdin: line.hasStdin, dir: e.WorkingDir, env: keys}
	if line.hasCwd {
		run.dir = line.cwd
	}
	prefix, dirAt, err := containerPrefix(e, run)
	if err != nil {
		return nil, err
	}
	if line.hasCwd && line.cwdSecret {
		cmd.secret = append(cmd.secret, secretWord{dirAt, len(workdirFlag)})
	}
	for _, w := range line.secret {
		cmd.secret = append(cmd.secret, secretWord{len(prefix) + w.i, w.keep})
	}
	cmd.Argv = append(prefix, line.argv...)
	for _, k := range keys {
		cmd.Env = append(cmd.Env, k+"="+line.env[k])
	}
	return cmd, nil
}

// containerRun is what a call adds to the words that start its container.
type containerRun struct {
	stdin bool     // the call has standard input: -i
	dir   string   // the working directory inside the container; "" for the image's
	env   []string // the names of the variables passed in with -e, sorted
}

// containerPrefix returns the words that run a command in a container of
// e's image, with e's hardening, each of which the policy can relax
// (docs/calls.md, The docker executor):
//
//	RUNTIME run --rm [-i] --network NET [--user USER] --cap-drop ALL [--cap-add CAP]...
//	  [--security-opt no-new-privileges] [--read-only --tmpfs /tmp]
//	  [--pids-limit N] [--memory SIZE] [--cpus N] [-v VOLUME]... [-w DIR] [-e KEY]... IMAGE
//
// The runtime is docker or podman; the network is "none" unless e names
// one; the user is e's, else the uid:gid this process runs as (65532:65532
// for root or when there is none); the limits are e's, else the defaults
// of package config. Volumes are expanded with [expandVolume]. dirAt is
// the index of the word after -w (-1 without -w).
func containerPrefix(e *config.Executor, run containerRun) (words []string, dirAt int, err error) {
	words = []string{e.Program(), "run", "--rm"}
	if run.stdin {
		words = append(words, "-i")
	}
	words = append(words, "--network", orDefault(e.Network, config.DefaultNetwork))
	if user := orDefault(e.User, processUser()); user != config.UserImage {
		words = append(words, "--user", user)
	}
	words = append(words, "--cap-drop", "ALL")
	for _, c := range e.CapAdd {
		words = append(words, "--cap-add", c)
	}
	if e.NoNewPrivileges == nil || *e.NoNewPrivileges {
		words = append(words, "--security-opt", "no-new-privileges")
	}
	if e.ReadOnlyRoot == nil || *e.ReadOnlyRoot {
		words = append(words, "--read-only", "--tmpfs", "/tmp")
	}
	for _, l := range []struct{ flag, value, def string }{
		{"--pids-limit", e.PidsLimit, config.DefaultPidsLimit},
		{"--memory", e.Memory, config.DefaultMemory},
		{"--cpus", e.CPUs, config.DefaultCPUs},
	} {
		if v := orDefault(l.value, l.def); v != config.Unlimited {
			words = append(words, l.flag, v)
		}
	}
	for _, v := range e.Volumes {
		x, err := expandVolume(v, e.PolicyDir)
		if err != nil {
			return nil, -1, err
		}
		words = append(words, "-v", x)
	}
	dirAt = -1
	if run.dir != "" {
		words = append(words, workdirFlag+run.dir) // one word: a directory cannot pass for an option
		dirAt = len(words) - 1
	}
	for _, k := range run.env {
		words = append(words, "-e", k)
	}
	return append(words, e.Image), dirAt, nil
}

// orDefault returns s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// processUser returns the uid:gid this process runs as, for a container
// to run as the same account (so that it can read a mounted workspace
// as its owner), or [config.DefaultContainerUser] when that would be root
// or there is no numeric uid (Windows). A gid of 0 is replaced too.
func processUser() string {
	uid, gid := os.Getuid(), os.Getgid()
	if uid <= 0 {
		return config.DefaultContainerUser
	}
	if gid <= 0 {
		_, g, _ := strings.Cut(config.DefaultContainerUser, ":")
		return fmt.Sprintf("%d:%s", uid, g)
	}
	return fmt.Sprintf("%d:%d", uid, gid)
}

// expandVolume expands a policy volume: a leading "~" becomes the home
// directory, and $VAR and ${VAR} are replaced from the environment of
// this process (never from a config's env: the config must not choose
// what is mounted). A host path that is relative ("./src", "..") is made
// absolute against dir, the policy's directory (else the working
// directory), so that no config's working_dir decides it either. A volume
// that names an unset variable, or whose host part is empty, is an error:
// it would mount the wrong thing.
func expandVolume(v, dir string) (string, error) {
	var unset []string
	x, _ := expandEnv(expandHome(v), func(k string) (string, bool) {
		val, ok := os.LookupEnv(k)
		if !ok && !slices.Contains(unset, k) {
			unset = append(unset, k)
		}
		return val, ok
	})
	switch {
	case len(unset) == 1:
		return "", fmt.Errorf("The docker executor's volume %q names %s, a variable that is not set: set it in the environment climax runs in, or fix executor.volumes in the policy", v, unset[0])
	case len(unset) > 1:
		return "", fmt.Errorf("The docker executor's volume %q names %s, variables that are not set: set them in the environment climax runs in, or fix executor.volumes in the policy", v, strings.Join(unset, " and "))
	}
	host, rest, found := strings.Cut(x, ":")
	switch {
	case host == "" || !found:
		return "", fmt.Errorf("The docker executor's volume %q is %q once expanded, which is not HOST_PATH:CONTAINER_PATH: set its variables to non-empty values, or fix executor.volumes in the policy", v, x)
	case host == "." || host == ".." || strings.HasPrefix(host, "./") || strings.HasPrefix(host, "../"):
		abs, err := filepath.Abs(filepath.Join(dir, host))
		if err != nil {
			return "", fmt.Errorf("The docker executor's volume %q: %v", v, err)
		}
		return abs + ":" + rest, nil
	}
	return x, nil
}

// CheckVolumes returns the error every call under the docker executor e
// gives because of each of e's volumes, expanded in this process's
// environment as a call expands it ([expandVolume]): a variable that is
// not set, a host part that is empty. A policy meant for another machine
// may pass there, so callers report these as warnings.
func CheckVolumes(e *config.Executor) []error {
	var errs []error
	for _, v := range e.Volumes {
		if _, err := expandVolume(v, e.PolicyDir); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// CheckContainerEnv returns the error every call of c's tools gives under
// the docker executor e because of c's env: a variable the container
// runtime client reads itself on the host, or a name no -e can pass (see
// [Build]). It is nil when c's env can be passed on.
func CheckContainerEnv(c *config.Config, e *config.Executor) error {
	for _, k := range slices.Sorted(maps.Keys(c.Env)) {
		if err := checkContainerVariable(k, e.Program(), cliName(c)); err != nil {
			return err
		}
	}
	return nil
}

// workdirFlag is the option that sets the container's working directory,
// joined to its value.
const workdirFlag = "--workdir="

// checkContainerVariable refuses a config env variable that cannot be
// handed to a container by name: one the runtime client itself (or the
// host's dynamic loader, or a program it starts) would read from its own
// environment, where the value must be put, and one no -e can name.
func checkContainerVariable(name, runtime, cli string) error {
	switch {
	case name == "" || strings.ContainsAny(name, "=\x00") || strings.HasPrefix(name, "-"):
		return fmt.Errorf("The env of %s names a variable %q that cannot be passed to a container: fix env in the config", cli, name)
	case clientVariable(name):
		return fmt.Errorf("The env of %s sets %s, which %s itself reads on the host: under the docker executor a config's env reaches the container through the %s client's environment, so remove %s from the config's env", cli, name, runtime, runtime, name)
	}
	return nil
}

// Variables the docker and podman clients, the Go runtime they are built
// with, the ssh they may start, the host's dynamic loader and C library,
// and a shell the client may be a script of (a wrapper installed as
// docker) read for themselves: by exact name (upper case) and by prefix.
var (
	clientNames = []string{
		"PATH", "HOME", "USER", "TMPDIR", "SHELL", "GODEBUG", "GOTRACEBACK",
		"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY",
		"NOTIFY_SOCKET", "DBUS_SESSION_BUS_ADDRESS", "REGISTRY_AUTH_FILE",
		"STORAGE_DRIVER", "STORAGE_OPTS", "BUILDKIT_HOST",
		"BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "IFS", "CDPATH",
		"GCONV_PATH", "LOCPATH", "NLSPATH", "HOSTALIASES", "RES_OPTIONS", "LOCALDOMAIN",
	}
	clientPrefixes = []string{
		"DOCKER_", "CONTAINER_", "CONTAINERS_", "_CONTAINERS_", "PODMAN_", "BUILDAH_",
		"XDG_", "LD_", "DYLD_", "SSL_CERT_", "SSH_", "OTEL_", "BASH_FUNC_", "MALLOC_", "GLIBC_",
	}
)

// clientVariable reports whether the container runtime client reads the
// variable name for itself (in any case).
func clientVariable(name string) bool {
	n := strings.ToUpper(name)
	if slices.Contains(clientNames, n) {
		return true
	}
	for _, p := range clientPrefixes {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}
