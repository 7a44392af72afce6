package executor_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// hardened returns the words the docker executor adds by default after
// "docker run --rm [-i]", for a container running as user.
func hardened(user string) []string {
	return []string{"--network", "none", "--user", user, "--cap-drop", "ALL",
		"--security-opt", "no-new-privileges", "--read-only", "--tmpfs", "/tmp",
		"--pids-limit", "1024", "--memory", "2g", "--cpus", "1"}
}

// dockerTool is a tool of a CLI with a secret-looking env, run by a docker
// executor with e's settings.
func dockerTool(e config.Executor) *config.ResolvedTool {
	e.Type = config.ExecutorDocker
	if e.Image == "" {
		e.Image = "alpine/git"
	}
	return &config.ResolvedTool{
		Tool: &config.Tool{Name: "git_status", Command: "status"},
		CLI: &config.Config{Name: "git", Command: "git",
			Env: map[string]string{"GIT_PAGER": "cat", "API_TOKEN": "s3cret value"}},
		Executor: e,
	}
}

// Without settings, a container runs hardened: no network, the account
// climax runs as (never root), no capabilities, no new privileges, a
// read-only root with a tmpfs /tmp, and bounded processes, memory and CPU.
func TestDockerHardenedDefaults(t *testing.T) {
	t.Parallel()
	user := config.DefaultContainerUser
	if uid, gid := os.Getuid(), os.Getgid(); uid > 0 && gid > 0 {
		user = fmt.Sprintf("%d:%d", uid, gid)
	}
	cmd, err := executor.Build(dockerTool(config.Executor{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Concat([]string{"docker", "run", "--rm"}, hardened(user),
		[]string{"-e", "API_TOKEN", "-e", "GIT_PAGER", "alpine/git", "git", "status"})
	if !slices.Equal(cmd.Argv, want) {
		t.Errorf("argv %q\nwant %q", cmd.Argv, want)
	}
	if strings.HasPrefix(user, "0:") {
		t.Errorf("the container runs as root: %s", user)
	}
}

// Each setting of the policy relaxes or changes its own flags, and only
// those; podman takes the same arguments as docker.
func TestDockerSettings(t *testing.T) {
	t.Parallel()
	no := false
	base := config.Executor{User: "7:7"}
	tests := []struct {
		name string
		set  func(e *config.Executor)
		want string // the words between "docker run --rm" and "-e API_TOKEN"
	}{
		{"defaults", func(*config.Executor) {},
			"--network none --user 7:7 --cap-drop ALL --security-opt no-new-privileges --read-only --tmpfs /tmp --pids-limit 1024 --memory 2g --cpus 1"},
		{"network", func(e *config.Executor) { e.Network = "bridge" },
			"--network bridge --user 7:7 --cap-drop ALL --security-opt no-new-privileges --read-only --tmpfs /tmp --pids-limit 1024 --memory 2g --cpus 1"},
		{"image's user", func(e *config.Executor) { e.User = config.UserImage },
			"--network none --cap-drop ALL --security-opt no-new-privileges --read-only --tmpfs /tmp --pids-limit 1024 --memory 2g --cpus 1"},
		{"capabilities", func(e *config.Executor) { e.CapAdd = []string{"CHOWN", "NET_RAW"} },
			"--network none --user 7:7 --cap-drop ALL --cap-add CHOWN --cap-add NET_RAW --security-opt no-new-privileges --read-only --tmpfs /tmp --pids-limit 1024 --memory 2g --cpus 1"},
		{"new privileges", func(e *config.Executor) { e.NoNewPrivileges = &no },
			"--network none --user 7:7 --cap-drop ALL --read-only --tmpfs /tmp --pids-limit 1024 --memory 2g --cpus 1"},
		{"writable root", func(e *config.Executor) { e.ReadOnlyRoot = &no },
			"--network none --user 7:7 --cap-drop ALL --security-opt no-new-privileges --pids-limit 1024 --memory 2g --cpus 1"},
		{"limits", func(e *config.Executor) { e.PidsLimit, e.Memory, e.CPUs = "64", "512m", "0.5" },
			"--network none --user 7:7 --cap-drop ALL --security-opt no-new-privileges --read-only --tmpfs /tmp --pids-limit 64 --memory 512m --cpus 0.5"},
		{"no limits", func(e *config.Executor) {
			e.PidsLimit, e.Memory, e.CPUs = config.Unlimited, config.Unlimited, config.Unlimited
		},
			"--network none --user 7:7 --cap-drop ALL --security-opt no-new-privileges --read-only --tmpfs /tmp"},
	}
	for _, runtime := range []string{"", config.RuntimeDocker, config.RuntimePodman} {
		for _, tt := range tests {
			e := base
			e.Runtime = runtime
			tt.set(&e)
			cmd, err := executor.Build(dockerTool(e), nil)
			if err != nil {
				t.Fatal(err)
			}
			program := e.Program()
			want := program + " run --rm " + tt.want + " -e API_TOKEN -e GIT_PAGER alpine/git git status"
			if got := strings.Join(cmd.Argv, " "); got != want {
				t.Errorf("%s, runtime %q:\n got %s\nwant %s", tt.name, runtime, got, want)
			}
		}
	}
}

// A config's env reaches the container by name: its values are in the
// environment of the docker client, never in a word of the command line
// (which `ps`, the logs, the audit log and an approval question show).
func TestDockerEnvValuesStayOutOfArgv(t *testing.T) {
	t.Parallel()
	cmd, err := executor.Build(dockerTool(config.Executor{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, words := range [][]string{cmd.Argv, cmd.Redacted()} {
		line := strings.Join(words, " ")
		if strings.Contains(line, "s3cret") || strings.Contains(line, "=cat") {
			t.Errorf("an env value is on the command line: %s", line)
		}
		if !strings.Contains(line, " -e API_TOKEN -e GIT_PAGER alpine/git ") {
			t.Errorf("the env is not passed by name: %s", line)
		}
	}
	if want := []string{"API_TOKEN=s3cret value", "GIT_PAGER=cat"}; !slices.Equal(cmd.Env, want) {
		t.Errorf("client env %q, want %q", cmd.Env, want)
	}
}

// inherit_env limits what a command inherits from the server's
// environment; a container inherits none of it (the image's environment
// and the config's env by name), so under the docker executor the list
// adds no -e for the names it keeps, and the docker client, which needs
// the server's environment to reach the daemon, keeps all of it.
func TestDockerInheritEnv(t *testing.T) {
	t.Parallel()
	rt := dockerTool(config.Executor{})
	rt.CLI.InheritEnv = []string{"PATH", "HOME", "LC_*"}
	rt.Tool.InheritEnv = []string{"PATH", "LANG"}
	cmd, err := executor.Build(rt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cmd.InheritEnv != nil {
		t.Errorf("the docker client's environment is limited to %q", cmd.InheritEnv)
	}
	line := strings.Join(cmd.Argv, " ")
	if !strings.Contains(line, " -e API_TOKEN -e GIT_PAGER alpine/git ") || strings.Contains(line, "PATH") || strings.Contains(line, "LANG") {
		t.Errorf("argv %s, want only the config's env passed in by name", line)
	}
	rt.Executor = config.Executor{}
	if cmd, err = executor.Build(rt, nil); err != nil || !slices.Equal(cmd.InheritEnv, []string{"PATH", "LANG"}) {
		t.Errorf("local executor: InheritEnv %q (%v), want the tool's list", cmd.InheritEnv, err)
	}
}

// A config env variable that the container runtime client itself reads on
// the host would change the client, not just the container (another
// daemon, another PATH for docker itself, a preloaded library): the call
// fails and says what to remove. So does a name no -e can pass.
func TestDockerRefusesClientVariables(t *testing.T) {
	t.Parallel()
	// BASH_ENV and the others a shell reads: a docker that is a shell
	// script (a wrapper) would run the file it names on the host.
	for _, name := range []string{"PATH", "DOCKER_HOST", "docker_config", "LD_PRELOAD", "HOME", "CONTAINER_HOST", "XDG_RUNTIME_DIR", "HTTPS_PROXY",
		"BASH_ENV", "ENV", "BASH_FUNC_x%%", "SHELLOPTS", "GCONV_PATH"} {
		rt := dockerTool(config.Executor{})
		rt.CLI.Env[name] = "/x"
		_, err := executor.Build(rt, nil)
		want := fmt.Sprintf("The env of git sets %s, which docker itself reads on the host", name)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "remove "+name+" from the config's env") {
			t.Errorf("env %s: %v", name, err)
		}
		rt.Executor = config.Executor{} // locally the config may set it
		if _, err := executor.Build(rt, nil); err != nil {
			t.Errorf("env %s, local executor: %v", name, err)
		}
	}
	for _, name := range []string{"A=B", "-e", ""} {
		rt := dockerTool(config.Executor{})
		rt.CLI.Env[name] = "x"
		_, err := executor.Build(rt, nil)
		if err == nil || !strings.Contains(err.Error(), "cannot be passed to a container") {
			t.Errorf("env %q: %v", name, err)
		}
	}
}

// Volumes are expanded from the environment climax runs in, never from a
// config's env: a config setting PROJECT_DIR to / must not mount the
// host's root.
func TestDockerVolumesFromProcessEnvironmentOnly(t *testing.T) {
	rt := dockerTool(config.Executor{Volumes: []string{"${CLIMAX_TEST_PROJECT_DIR}:/workspace"}})
	rt.CLI.Env["CLIMAX_TEST_PROJECT_DIR"] = "/"
	_, err := executor.Build(rt, nil)
	if err == nil || !strings.Contains(err.Error(), `volume "${CLIMAX_TEST_PROJECT_DIR}:/workspace" names CLIMAX_TEST_PROJECT_DIR, a variable that is not set: set it in the environment climax runs in`) {
		t.Errorf("a variable only the config sets: %v", err)
	}
	t.Setenv("CLIMAX_TEST_PROJECT_DIR", "/src/project")
	cmd, err := executor.Build(rt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(cmd.Argv, "/src/project:/workspace") || slices.Contains(cmd.Argv, "/:/workspace") {
		t.Errorf("argv %q: want the process's value", cmd.Argv)
	}
	t.Setenv("CLIMAX_TEST_PROJECT_DIR", "")
	_, err = executor.Build(rt, nil)
	if err == nil || !strings.Contains(err.Error(), `is ":/workspace" once expanded, which is not HOST_PATH:CONTAINER_PATH`) {
		t.Errorf("an empty host path: %v", err)
	}
}

// CheckVolumes gives, for each volume, the error its calls would give in
// this environment, without building a call: validate and run warn with
// them at start.
func TestCheckVolumes(t *testing.T) {
	e := &config.Executor{Type: "docker", Volumes: []string{
		"${CLIMAX_TEST_UNSET_A}:/a", "/src:/src", "$CLIMAX_TEST_UNSET_A/$CLIMAX_TEST_UNSET_B:/b", "${CLIMAX_TEST_EMPTY}:/c",
	}}
	t.Setenv("CLIMAX_TEST_EMPTY", "")
	errs := executor.CheckVolumes(e)
	want := []string{
		`The docker executor's volume "${CLIMAX_TEST_UNSET_A}:/a" names CLIMAX_TEST_UNSET_A, a variable that is not set: set it in the environment climax runs in, or fix executor.volumes in the policy`,
		`The docker executor's volume "$CLIMAX_TEST_UNSET_A/$CLIMAX_TEST_UNSET_B:/b" names CLIMAX_TEST_UNSET_A and CLIMAX_TEST_UNSET_B, variables that are not set: set them in the environment climax runs in`,
		`The docker executor's volume "${CLIMAX_TEST_EMPTY}:/c" is ":/c" once expanded`,
	}
	if len(errs) != len(want) {
		t.Fatalf("%d errors, want %d: %v", len(errs), len(want), errs)
	}
	for i, err := range errs {
		if !strings.HasPrefix(err.Error(), want[i]) {
			t.Errorf("error %d: %v\nwant it to start with %s", i, err, want[i])
		}
	}
	t.Setenv("CLIMAX_TEST_UNSET_A", "/x")
	t.Setenv("CLIMAX_TEST_UNSET_B", "y")
	t.Setenv("CLIMAX_TEST_EMPTY", "/z")
	if errs := executor.CheckVolumes(e); len(errs) != 0 {
		t.Errorf("every variable set: %v", errs)
	}
}

// A relative host path in a volume is the policy's: resolved against the
// policy's directory, whatever the config's working_dir says.
func TestDockerRelativeVolume(t *testing.T) {
	t.Parallel()
	policyDir := filepath.Join(t.TempDir(), "policies")
	rt := dockerTool(config.Executor{Volumes: []string{"./src:/src:ro", "..:/up", "cache:/cache"}, PolicyDir: policyDir})
	rt.CLI.WorkingDir = "/"
	cmd, err := executor.Build(rt, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"-v", filepath.Join(policyDir, "src") + ":/src:ro", "-v", filepath.Dir(policyDir) + ":/up", "-v", "cache:/cache"}
	if i := slices.Index(cmd.Argv, "-v"); i < 0 || !slices.Equal(cmd.Argv[i:i+6], want) {
		t.Errorf("argv %q\nwant volumes %q", cmd.Argv, want)
	}
	if cmd.Dir != "" {
		t.Errorf("the docker client runs in %q, want the server's directory", cmd.Dir)
	}
}
