package config

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The keys of a policy's executor section, the values its enumerations
// take, and the settings that only a docker executor uses.
var (
	executorKeys = []string{"type", "runtime", "image", "volumes", "working_dir", "network",
		"user", "cap_add", "no_new_privileges", "read_only_root", "pids_limit", "memory", "cpus"}
	executorTypes   = []string{ExecutorLocal, ExecutorDocker}
	runtimes        = []string{RuntimeDocker, RuntimePodman}
	dockerOnlyField = executorKeys[1:]
)

// capabilities are the Linux capability names cap_add accepts (without
// their CAP_ prefix), and ALL.
var capabilities = []string{
	"ALL", "AUDIT_CONTROL", "AUDIT_READ", "AUDIT_WRITE", "BLOCK_SUSPEND", "BPF",
	"CHECKPOINT_RESTORE", "CHOWN", "DAC_OVERRIDE", "DAC_READ_SEARCH", "FOWNER",
	"FSETID", "IPC_LOCK", "IPC_OWNER", "KILL", "LEASE", "LINUX_IMMUTABLE",
	"MAC_ADMIN", "MAC_OVERRIDE", "MKNOD", "NET_ADMIN", "NET_BIND_SERVICE",
	"NET_BROADCAST", "NET_RAW", "PERFMON", "SETFCAP", "SETGID", "SETPCAP",
	"SETUID", "SYSLOG", "SYS_ADMIN", "SYS_BOOT", "SYS_CHROOT", "SYS_MODULE",
	"SYS_NICE", "SYS_PACCT", "SYS_PTRACE", "SYS_RAWIO", "SYS_RESOURCE",
	"SYS_TIME", "SYS_TTY_CONFIG", "WAKE_ALARM",
}

var (
	// containerUser is what --user takes: a user and optionally a group,
	// each a name or a number.
	containerUser = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*(:[A-Za-z0-9_][A-Za-z0-9_.-]*)?$`)
	// memorySize is a size as docker and podman read --memory: a number
	// and an optional binary unit (k, m, g, t, p; "i" and "b" optional).
	memorySize = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?)([kKmMgGtTpP]?)[iI]?[bB]?$`)
	// networkName is a network name, or container:NAME.
	networkName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.:-]*$`)
	// cpuCount is a decimal number of CPUs.
	cpuCount = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)
	// absContainerPath is an absolute path in a Linux or Windows container.
	absContainerPath = regexp.MustCompile(`^(/|[A-Za-z]:[/\\])`)
)

// minMemory is the smallest --memory docker accepts.
const minMemory = 6 << 20

// executor checks the executor section.
func (c *checker) executor(n *yaml.Node) Executor {
	const ctx = "executor"
	o := c.object(n, ctx, executorKeys)
	if o == nil {
		return Executor{Type: ExecutorLocal}
	}
	e := Executor{
		Type:       o.str("type"),
		Runtime:    o.str("runtime"),
		Image:      o.str("image"),
		Volumes:    o.strings("volumes"),
		WorkingDir: o.str("working_dir"),
		Network:    o.str("network"),
		User:       o.str("user"),
		CapAdd:     o.strings("cap_add"),
		PidsLimit:  o.text("pids_limit"),
		Memory:     o.text("memory"),
		CPUs:       o.text("cpus"),
	}
	for _, k := range []string{"no_new_privileges", "read_only_root"} {
		if o.has(k) {
			b := o.boolean(k)
			if k == "no_new_privileges" {
				e.NoNewPrivileges = &b
			} else {
				e.ReadOnlyRoot = &b
			}
		}
	}
	if o.has("type") && !slices.Contains(executorTypes, e.Type) {
		c.report(o.at("type"), ctx, "%s", unknownType(e.Type))
		return e
	}
	if e.Type == "" {
		e.Type = ExecutorLocal
	}
	switch e.Type {
	case ExecutorDocker:
		c.container(o, &e)
	case ExecutorLocal:
		// Settings that only docker uses would silently do nothing; a
		// forgotten "type: docker" must not leave commands unconfined.
		for _, k := range dockerOnlyField {
			if o.has(k) {
				c.report(o.at(k), ctx, "%s only applies to the docker executor: add type: docker or remove it", k)
			}
		}
	}
	return e
}

// unknownType is the message for an executor type that is neither local
// nor docker.
func unknownType(t string) string {
	if slices.Contains(runtimes, strings.ToLower(t)) {
		return fmt.Sprintf("unknown type %s: write type: docker and runtime: %s", quote(t), strings.ToLower(t))
	}
	if sug := suggest(t, executorTypes); sug != "" {
		return fmt.Sprintf("unknown type %s (did you mean %s?)", quote(t), quote(sug))
	}
	return fmt.Sprintf("unknown type %s: valid types are %s", quote(t), strings.Join(executorTypes, ", "))
}

// container checks the settings of a docker executor.
func (c *checker) container(o *object, e *Executor) {
	const ctx = "executor"
	_, isStr := o.scalarText("image")
	switch {
	case o.has("image") && !isStr: // reported as not a string
	case strings.TrimSpace(e.Image) == "":
		c.report(o.at("image"), ctx, "missing \"image\": the docker executor needs an image, e.g. image: alpine/git")
	case strings.HasPrefix(e.Image, "-") || strings.ContainsFunc(e.Image, isSpaceOrControl):
		c.report(o.at("image"), ctx, "image %s is not an image name: write one such as alpine/git or docker.io/library/alpine:3", quote(e.Image))
	}
	if _, isStr := o.scalarText("runtime"); isStr && !slices.Contains(runtimes, e.Runtime) {
		msg := fmt.Sprintf("unknown runtime %s: valid runtimes are %s", quote(e.Runtime), strings.Join(runtimes, ", "))
		if sug := suggest(e.Runtime, runtimes); sug != "" {
			msg = fmt.Sprintf("unknown runtime %s (did you mean %s?)", quote(e.Runtime), quote(sug))
		}
		c.report(o.at("runtime"), ctx, "%s", msg)
	}
	for i, v := range e.Volumes {
		if !strings.Contains(v, ":") || strings.HasPrefix(v, "-") || strings.ContainsFunc(v, isControl) {
			c.report(o.item("volumes", i), ctx, "volumes: %s is not a volume: write HOST_PATH:CONTAINER_PATH or NAME:CONTAINER_PATH (such as ${PROJECT_DIR}:/workspace)", quote(v))
		}
	}
	if o.has("working_dir") && !absContainerPath.MatchString(e.WorkingDir) {
		c.report(o.at("working_dir"), ctx, "working_dir %s is not an absolute path: write the directory inside the container, such as /workspace", quote(e.WorkingDir))
	}
	if o.has("network") && !networkName.MatchString(e.Network) {
		c.report(o.at("network"), ctx, "network %s is not a network name: leave network out to run without one, or name one such as bridge", quote(e.Network))
	}
	if o.has("user") && e.User != UserImage && !containerUser.MatchString(e.User) {
		c.report(o.at("user"), ctx, "user: expected UID[:GID] or NAME[:GROUP] (such as 1000:1000), or image for the image's own user, got %s", quote(e.User))
	}
	for i, name := range e.CapAdd {
		e.CapAdd[i] = c.capability(o.item("cap_add", i), name)
	}
	c.limit(o, "pids_limit", e.PidsLimit, "a whole number of processes of 1 or more (such as 512)", func(s string) bool {
		n, err := strconv.ParseUint(s, 10, 31)
		return err == nil && n >= 1
	})
	c.limit(o, "memory", e.Memory, "a size of 6m or more (such as 512m or 2g; units b, k, m, g, t)", func(s string) bool {
		size, ok := memoryBytes(s)
		return ok && size >= minMemory
	})
	c.limit(o, "cpus", e.CPUs, "a number of CPUs of 0.01 or more (such as 0.5 or 2)", func(s string) bool {
		x, err := strconv.ParseFloat(s, 64)
		return cpuCount.MatchString(s) && err == nil && x >= 0.01
	})
}

// capability checks one item of cap_add and returns it as the runtime
// takes it: upper case, without the CAP_ prefix.
func (c *checker) capability(at *yaml.Node, name string) string {
	const ctx = "executor"
	upper := strings.TrimPrefix(strings.ToUpper(name), "CAP_")
	if slices.Contains(capabilities, upper) {
		return upper
	}
	msg := fmt.Sprintf("cap_add: unknown capability %s", quote(name))
	if sug := suggest(upper, capabilities); sug != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", quote(sug))
	} else {
		msg += ": write a Linux capability such as NET_BIND_SERVICE or CHOWN"
	}
	c.report(at, ctx, "%s", msg)
	return name
}

// limit checks a resource limit: valid reports whether a value other than
// unlimited is one; want says what it should be.
func (c *checker) limit(o *object, key, value, want string, valid func(string) bool) {
	if !o.has(key) || value == Unlimited || valid(value) {
		return
	}
	msg := fmt.Sprintf("%s: expected %s, or %s, got %s", key, want, Unlimited, describe(o.at(key)))
	if sug := suggest(value, []string{Unlimited}); sug != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", quote(sug))
	}
	c.report(o.at(key), "executor", "%s", msg)
}

// memoryBytes returns the size a memory limit stands for, as docker reads
// it (binary units), and whether it is one.
func memoryBytes(s string) (float64, bool) {
	m := memorySize.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	x, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, false
	}
	if m[2] != "" {
		for range strings.Index("kmgtp", strings.ToLower(m[2])) + 1 {
			x *= 1024
		}
	}
	return x, true
}

// isSpaceOrControl reports whether r is white space or a control character.
func isSpaceOrControl(r rune) bool { return r <= ' ' || r == 0x7f }

// isControl reports whether r is a control character.
func isControl(r rune) bool { return r < ' ' || r == 0x7f }

// policyDir returns the absolute directory of a policy's source, against
// which relative volume paths are resolved.
func policyDir(source string) string {
	if source == "" {
		return ""
	}
	dir, err := filepath.Abs(filepath.Dir(source))
	if err != nil {
		return filepath.Dir(source)
	}
	return dir
}

// item returns the node of the i-th string of the list under key (as
// [object.strings] returns them), for a problem about that item.
func (o *object) item(key string, i int) *yaml.Node {
	f, ok := o.get(key)
	if !ok || f.val().Kind != yaml.SequenceNode {
		return o.at(key)
	}
	for _, n := range f.val().Content {
		if _, ok := scalarString(deref(n)); ok {
			if i == 0 {
				return n
			}
			i--
		}
	}
	return o.at(key)
}

// text returns the text of the scalar under key when it is a string or a
// number, "" otherwise, without reporting: the caller says what the value
// should have been.
func (o *object) text(key string) string {
	s, _ := o.scalarText(key)
	return s
}

// scalarText is text, and whether key holds a string or a number.
func (o *object) scalarText(key string) (string, bool) {
	f, ok := o.get(key)
	if !ok {
		return "", false
	}
	return scalarString(f.val())
}
