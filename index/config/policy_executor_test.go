package config_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/index/config"
)

// TestParsePolicyContainerSettings checks that every hardening setting of
// the docker executor is read: the runtime, the user, capabilities given
// back (in the runtime's spelling), the two switches and the limits.
func TestParsePolicyContainerSettings(t *testing.T) {
	src := `executor:
  type: docker
  runtime: podman
  image: alpine/git
  user: "1000:1000"
  cap_add: [net_bind_service, CAP_CHOWN]
  no_new_privileges: false
  read_only_root: false
  pids_limit: 64
  memory: 512m
  cpus: 0.5
  network: bridge
default: enabled
`
	p, err := config.ParsePolicy([]byte(src), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	no := false
	want := config.Executor{Type: "docker", Runtime: "podman", Image: "alpine/git", User: "1000:1000",
		CapAdd: []string{"NET_BIND_SERVICE", "CHOWN"}, NoNewPrivileges: &no, ReadOnlyRoot: &no,
		PidsLimit: "64", Memory: "512m", CPUs: "0.5", Network: "bridge", PolicyDir: p.Executor.PolicyDir}
	if !reflect.DeepEqual(p.Executor, want) {
		t.Errorf("Executor = %+v\nwant %+v", p.Executor, want)
	}
	if p.Executor.Program() != "podman" {
		t.Errorf("Program() = %q", p.Executor.Program())
	}

	// The relaxations that leave a flag out.
	p, err = config.ParsePolicy([]byte("executor:\n  type: docker\n  image: x\n  user: image\n  pids_limit: unlimited\n  memory: unlimited\n  cpus: unlimited\ndefault: enabled\n"), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if e := p.Executor; e.User != config.UserImage || e.PidsLimit != config.Unlimited || e.Memory != config.Unlimited || e.CPUs != config.Unlimited || e.Program() != "docker" {
		t.Errorf("Executor = %+v", e)
	}
}

// TestParsePolicyContainerErrors checks that each container setting is
// validated with its position, with a suggestion for a likely typo.
func TestParsePolicyContainerErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{
			name: "misspelt key",
			src:  "executor:\n  type: docker\n  image: x\n  pid_limit: 10\n",
			want: []string{`p.yaml:4:3: executor: unknown key "pid_limit" (did you mean "pids_limit"?)`},
		},
		{
			name: "docker compose's names",
			src:  "executor:\n  type: docker\n  image: x\n  read_only: false\n  mem_limit: 1g\n",
			want: []string{
				`p.yaml:4:3: executor: unknown key "read_only" (did you mean "read_only_root"?)`,
				`p.yaml:5:3: executor: unknown key "mem_limit" (did you mean "memory"?)`,
			},
		},
		{
			name: "runtime",
			src:  "executor:\n  type: docker\n  image: x\n  runtime: podmn\n",
			want: []string{`p.yaml:4:12: executor: unknown runtime "podmn" (did you mean "podman"?)`},
		},
		{
			name: "runtime without a suggestion",
			src:  "executor:\n  type: docker\n  image: x\n  runtime: runsc\n",
			want: []string{`p.yaml:4:12: executor: unknown runtime "runsc": valid runtimes are docker, podman`},
		},
		{
			name: "user",
			src:  "executor:\n  type: docker\n  image: x\n  user: --privileged\n",
			want: []string{`p.yaml:4:9: executor: user: expected UID[:GID] or NAME[:GROUP] (such as 1000:1000), or image for the image's own user, got "--privileged"`},
		},
		{
			name: "capabilities",
			src:  "executor:\n  type: docker\n  image: x\n  cap_add: [CHOWN, NET_BIND_SERVIC, bogus]\n",
			want: []string{
				`p.yaml:4:20: executor: cap_add: unknown capability "NET_BIND_SERVIC" (did you mean "NET_BIND_SERVICE"?)`,
				`p.yaml:4:37: executor: cap_add: unknown capability "bogus": write a Linux capability such as NET_BIND_SERVICE or CHOWN`,
			},
		},
		{
			name: "switches",
			src:  "executor:\n  type: docker\n  image: x\n  read_only_root: no\n  no_new_privileges: 0\n",
			want: []string{
				`p.yaml:4:19: executor: read_only_root: expected true or false, got "no"`,
				`p.yaml:5:22: executor: no_new_privileges: expected true or false, got a number (0)`,
			},
		},
		{
			name: "limits",
			src:  "executor:\n  type: docker\n  image: x\n  pids_limit: 0\n  memory: 1m\n  cpus: 2 cores\n",
			want: []string{
				`p.yaml:4:15: executor: pids_limit: expected a whole number of processes of 1 or more (such as 512), or unlimited, got a number (0)`,
				`p.yaml:5:11: executor: memory: expected a size of 6m or more (such as 512m or 2g; units b, k, m, g, t), or unlimited, got "1m"`,
				`p.yaml:6:9: executor: cpus: expected a number of CPUs of 0.01 or more (such as 0.5 or 2), or unlimited, got "2 cores"`,
			},
		},
		{
			name: "values of the wrong kind, each reported once",
			src:  "executor:\n  type: docker\n  image: [x]\n  memory: [1]\n  cpus: true\n  runtime: [podman]\n",
			want: []string{
				`p.yaml:3:10: executor: image: expected a string, got a list`,
				`p.yaml:4:11: executor: memory: expected a size of 6m or more (such as 512m or 2g; units b, k, m, g, t), or unlimited, got a list`,
				`p.yaml:5:9: executor: cpus: expected a number of CPUs of 0.01 or more (such as 0.5 or 2), or unlimited, got a boolean (true)`,
				`p.yaml:6:12: executor: runtime: expected a string, got a list`,
			},
		},
		{
			name: "misspelt unlimited",
			src:  "executor:\n  type: docker\n  image: x\n  memory: unlimted\n",
			want: []string{`p.yaml:4:11: executor: memory: expected a size of 6m or more (such as 512m or 2g; units b, k, m, g, t), or unlimited, got "unlimted" (did you mean "unlimited"?)`},
		},
		{
			name: "volumes, working_dir, network and image",
			src:  "executor:\n  type: docker\n  image: --privileged\n  volumes: [\"a:/b\", /etc]\n  working_dir: workspace\n  network: \"\"\n",
			want: []string{
				`p.yaml:3:10: executor: image "--privileged" is not an image name: write one such as alpine/git or docker.io/library/alpine:3`,
				`p.yaml:4:21: executor: volumes: "/etc" is not a volume: write HOST_PATH:CONTAINER_PATH or NAME:CONTAINER_PATH (such as ${PROJECT_DIR}:/workspace)`,
				`p.yaml:5:16: executor: working_dir "workspace" is not an absolute path: write the directory inside the container, such as /workspace`,
				`p.yaml:6:12: executor: network "" is not a network name: leave network out to run without one, or name one such as bridge`,
			},
		},
		{
			name: "container settings without docker",
			src:  "executor:\n  runtime: podman\n  memory: 1g\ndefault: enabled\n",
			want: []string{
				`p.yaml:2:12: executor: runtime only applies to the docker executor: add type: docker or remove it`,
				`p.yaml:3:11: executor: memory only applies to the docker executor: add type: docker or remove it`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.ParsePolicy([]byte(tt.src), "p.yaml")
			if got := problemStrings(t, err); !slices.Equal(got, tt.want) {
				t.Errorf("problems:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}
