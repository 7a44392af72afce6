package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
	"go.yaml.in/yaml/v3"
)

// The container image (../Dockerfile) and the Kubernetes example
// (../deploy/climax.yaml) start climax with flags of their own: these tests
// check that climax accepts them as they are written.

// dockerEntrypoint returns the exec-form ENTRYPOINT and CMD of the
// Dockerfile's last stage.
func dockerEntrypoint(t *testing.T, name string) (entrypoint, cmd []string) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		word, rest, _ := strings.Cut(line, " ")
		var dst *[]string
		switch strings.ToUpper(word) {
		case "FROM":
			entrypoint, cmd = nil, nil // a new stage
			continue
		case "ENTRYPOINT":
			dst = &entrypoint
		case "CMD":
			dst = &cmd
		default:
			continue
		}
		if err := json.Unmarshal([]byte(rest), dst); err != nil {
			t.Fatalf("%s:%d: %s must be in exec form on one line, like [\"climax\", \"run\"]: %v", name, n, word, err)
		}
	}
	if len(entrypoint) == 0 {
		t.Fatalf("%s: the last stage has no ENTRYPOINT", name)
	}
	return entrypoint, cmd
}

// k8sObject is the part of a Kubernetes object the tests look at.
type k8sObject struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Data map[string]string `yaml:"data"` // ConfigMap
	Spec struct {
		Replicas    int              `yaml:"replicas"`
		Selector    map[string]any   `yaml:"selector"` // Deployment, PodDisruptionBudget: matchLabels; Service: the labels
		PodSelector map[string]any   `yaml:"podSelector"`
		Template    k8sPodTemplate   `yaml:"template"`
		Ports       []k8sServicePort `yaml:"ports"`
		// HorizontalPodAutoscaler
		MinReplicas    int `yaml:"minReplicas"`
		ScaleTargetRef struct {
			Kind string `yaml:"kind"`
			Name string `yaml:"name"`
		} `yaml:"scaleTargetRef"`
		Metrics []struct {
			Resource struct {
				Name string `yaml:"name"`
			} `yaml:"resource"`
		} `yaml:"metrics"`
	} `yaml:"spec"`
}

// find returns the first object of kind, or nil.
func find(objs []k8sObject, kind string) *k8sObject {
	for i := range objs {
		if objs[i].Kind == kind {
			return &objs[i]
		}
	}
	return nil
}

type k8sPodTemplate struct {
	Metadata struct {
		Labels map[string]string `yaml:"labels"`
	} `yaml:"metadata"`
	Spec struct {
		Containers []k8sContainer `yaml:"containers"`
		Volumes    []struct {
			Name      string `yaml:"name"`
			ConfigMap struct {
				Name string `yaml:"name"`
			} `yaml:"configMap"`
		} `yaml:"volumes"`
	} `yaml:"spec"`
}

type k8sContainer struct {
	Name    string   `yaml:"name"`
	Command []string `yaml:"command"`
	Args    []string `yaml:"args"`
	Env     []struct {
		Name      string `yaml:"name"`
		Value     string `yaml:"value"`
		ValueFrom struct {
			SecretKeyRef struct {
				Name string `yaml:"name"`
				Key  string `yaml:"key"`
			} `yaml:"secretKeyRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
	Ports []struct {
		Name          string `yaml:"name"`
		ContainerPort int    `yaml:"containerPort"`
	} `yaml:"ports"`
	ReadinessProbe *k8sProbe `yaml:"readinessProbe"`
	LivenessProbe  *k8sProbe `yaml:"livenessProbe"`
	Resources      struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	} `yaml:"volumeMounts"`
}

type k8sProbe struct {
	HTTPGet struct {
		Path string `yaml:"path"`
		Port any    `yaml:"port"`
	} `yaml:"httpGet"`
}

type k8sServicePort struct {
	Name       string `yaml:"name"`
	Port       int    `yaml:"port"`
	TargetPort any    `yaml:"targetPort"`
}

func loadManifests(t *testing.T, name string) []k8sObject {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var objs []k8sObject
	dec := yaml.NewDecoder(f)
	for {
		var o k8sObject
		err := dec.Decode(&o)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		objs = append(objs, o)
	}
	return objs
}

// parseClimax parses a climax command line (without the program name) as
// climax does, without running it, and returns the run command's flags.
func parseClimax(t *testing.T, args []string) (*runCmd, error) {
	t.Helper()
	var c cli
	parser, err := newParser(&c, &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	kctx, err := parser.Parse(args)
	if err != nil {
		return nil, err
	}
	if got := kctx.Selected().Name; got != "run" {
		t.Fatalf("climax %q selects the %s command, want run", args, got)
	}
	if err := c.Run.httpFlags.check(); err != nil {
		return nil, err
	}
	bundled, err := config.BundledNames(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range c.Run.Configs {
		if !config.IsPath(ref) && !slices.Contains(bundled, ref) {
			return nil, errors.New("unknown bundled config " + ref)
		}
	}
	return &c.Run, nil
}

// The images: the repository's Dockerfile (climax alone) and
// deploy/Dockerfile.tools (climax with the programs of its configs).
var dockerfiles = []string{"../Dockerfile", "../deploy/Dockerfile.tools"}

func TestDockerfileEntrypoint(t *testing.T) {
	for _, name := range dockerfiles {
		t.Run(name, func(t *testing.T) { testDockerfileEntrypoint(t, name) })
	}
}

func testDockerfileEntrypoint(t *testing.T, name string) {
	entrypoint, cmd := dockerEntrypoint(t, name)
	if entrypoint[0] != "climax" {
		t.Fatalf("ENTRYPOINT %q does not start climax", entrypoint)
	}
	args := slices.Concat(entrypoint[1:], cmd, []string{"git"})
	t.Setenv("CLIMAX_AUTH_TOKEN", "")
	if _, err := parseClimax(t, args); err == nil || !strings.Contains(err.Error(), "CLIMAX_AUTH_TOKEN") {
		t.Errorf("climax %q without a token: got %v, want a refusal naming CLIMAX_AUTH_TOKEN (the image must listen beyond loopback)", args, err)
	}
	t.Setenv("CLIMAX_AUTH_TOKEN", strings.Repeat("t", 32))
	run, err := parseClimax(t, args)
	if err != nil {
		t.Fatalf("climax %q: %v", args, err)
	}
	if run.Transport != "http" || run.Addr != "0.0.0.0:8080" || run.AuthToken == "" {
		t.Errorf("climax %q: transport %q, addr %q, token from the environment %v; want http on 0.0.0.0:8080 with the token", args, run.Transport, run.Addr, run.AuthToken != "")
	}
}

// TestLegalFilesInArtefacts: every release archive (.goreleaser.yaml) and
// every image carries LICENSE, NOTICE and THIRD_PARTY_LICENSES.
func TestLegalFilesInArtefacts(t *testing.T) {
	data, err := os.ReadFile("../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var gr struct {
		Archives []struct {
			ID    string   `yaml:"id"`
			Files []string `yaml:"files"`
		} `yaml:"archives"`
	}
	if err := yaml.Unmarshal(data, &gr); err != nil {
		t.Fatal(err)
	}
	if len(gr.Archives) == 0 {
		t.Fatal(".goreleaser.yaml: no archives")
	}
	for _, a := range gr.Archives {
		for _, want := range []string{"LICENSE", "NOTICE", "THIRD_PARTY_LICENSES"} {
			if !slices.Contains(a.Files, want) {
				t.Errorf(".goreleaser.yaml: archive %q lacks %s in files: %v", a.ID, want, a.Files)
			}
		}
	}
	for _, name := range dockerfiles {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		_, last, _ := bytes.Cut(data, []byte("\nFROM debian"))
		if len(last) == 0 {
			_, last, _ = bytes.Cut(data, []byte("\nFROM gcr.io/distroless"))
		}
		if !regexp.MustCompile(`(?m)^COPY LICENSE NOTICE THIRD_PARTY_LICENSES /usr/share/doc/climax/$`).Match(last) {
			t.Errorf("%s: the last stage does not COPY LICENSE NOTICE THIRD_PARTY_LICENSES /usr/share/doc/climax/", name)
		}
	}
}

// TestKubernetesManifests checks deploy/climax.yaml, the Helm chart
// rendered with its default values (.ci/run renders it again and compares).
func TestKubernetesManifests(t *testing.T) {
	const manifests = "../deploy/climax.yaml"
	entrypoint, cmd := dockerEntrypoint(t, "../deploy/Dockerfile.tools")
	var deployment, service *k8sObject
	objs := loadManifests(t, manifests)
	for i := range objs {
		switch objs[i].Kind {
		case "Deployment":
			deployment = &objs[i]
		case "Service":
			service = &objs[i]
		}
	}
	if deployment == nil || service == nil {
		t.Fatalf("%s: want a Deployment and a Service, got %d objects", manifests, len(objs))
	}
	replicas := deployment.Spec.Replicas
	if hpa := find(objs, "HorizontalPodAutoscaler"); hpa != nil {
		if deployment.Spec.Replicas != 0 {
			t.Errorf("Deployment: replicas %d with an autoscaler, which owns the number", deployment.Spec.Replicas)
		}
		replicas = hpa.Spec.MinReplicas
		if ref := hpa.Spec.ScaleTargetRef; ref.Kind != "Deployment" || ref.Name != deployment.Metadata.Name {
			t.Errorf("HorizontalPodAutoscaler scales %s %s, not the Deployment %s", ref.Kind, ref.Name, deployment.Metadata.Name)
		}
		if len(hpa.Spec.Metrics) != 1 || hpa.Spec.Metrics[0].Resource.Name != "cpu" {
			t.Errorf("HorizontalPodAutoscaler metrics %+v: want CPU", hpa.Spec.Metrics)
		}
	}
	if replicas < 2 {
		t.Errorf("Deployment: %d replicas, want several (the example shows replicas behind a Service)", replicas)
	}
	if len(deployment.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("Deployment: %d containers, want 1", len(deployment.Spec.Template.Spec.Containers))
	}
	c := deployment.Spec.Template.Spec.Containers[0]

	// The container's command line: the image's entrypoint (unless
	// command replaces it) and the args (which replace CMD).
	args := slices.Concat(entrypoint, cmd)
	if c.Command != nil {
		args = c.Command
	}
	if c.Args != nil {
		args = slices.Concat(args[:len(args)-len(cmd)], c.Args)
	}
	var secret bool
	for _, e := range c.Env {
		if e.Name == "CLIMAX_AUTH_TOKEN" {
			ref := e.ValueFrom.SecretKeyRef
			secret = ref.Name != "" && ref.Key != "" && e.Value == ""
		}
	}
	if !secret {
		t.Errorf("Deployment: CLIMAX_AUTH_TOKEN must come from a Secret (valueFrom.secretKeyRef), not a value in the manifest")
	}
	t.Setenv("CLIMAX_AUTH_TOKEN", strings.Repeat("t", 32))
	run, err := parseClimax(t, args[1:])
	if err != nil {
		t.Fatalf("Deployment runs climax %q: %v", args[1:], err)
	}
	if !run.Stateless {
		t.Errorf("Deployment runs climax %q: replicas behind a Service need --stateless", args[1:])
	}
	if len(run.Configs)+len(run.ConfigFiles) == 0 {
		t.Errorf("Deployment runs climax %q: no config", args[1:])
	}
	_, portText, _ := strings.Cut(run.Addr, ":")
	port, err := strconv.Atoi(portText)
	if err != nil {
		t.Fatalf("climax's --addr %s has no port number", run.Addr)
	}
	var portName string
	for _, p := range c.Ports {
		if p.ContainerPort == port {
			portName = p.Name
		}
	}
	if portName == "" {
		t.Fatalf("Deployment: no container port matches climax's --addr %s", run.Addr)
	}
	for _, p := range []struct {
		name, path string
		probe      *k8sProbe
	}{{"readinessProbe", "/readyz", c.ReadinessProbe}, {"livenessProbe", "/healthz", c.LivenessProbe}} {
		if p.probe == nil || p.probe.HTTPGet.Path != p.path || (p.probe.HTTPGet.Port != portName && p.probe.HTTPGet.Port != port) {
			t.Errorf("Deployment: %s must GET %s on port %s (%d), got %+v", p.name, p.path, portName, port, p.probe)
		}
	}
	if c.Resources.Limits["memory"] == "" || c.Resources.Requests["cpu"] == "" {
		t.Errorf("Deployment: resources %+v: want a memory limit and a CPU request (the autoscaler needs it)", c.Resources)
	}

	// The policy and the config files come from a ConfigMap, mounted where
	// climax reads them, and are watched.
	if cm := find(objs, "ConfigMap"); cm != nil {
		if !run.Watch {
			t.Errorf("Deployment runs climax %q: configs from a ConfigMap need --watch to be reloaded", args[1:])
		}
		mount := ""
		for _, v := range deployment.Spec.Template.Spec.Volumes {
			if v.ConfigMap.Name == cm.Metadata.Name {
				for _, m := range c.VolumeMounts {
					if m.Name == v.Name {
						mount = m.MountPath
					}
				}
			}
		}
		if mount == "" {
			t.Fatalf("Deployment: the ConfigMap %s is not mounted", cm.Metadata.Name)
		}
		for _, p := range append([]string{run.Policy}, run.Configs...) {
			if !strings.HasPrefix(p, "/") {
				continue
			}
			dir, key := path.Split(p)
			if path.Clean(dir) != mount || cm.Data[key] == "" {
				t.Errorf("Deployment: climax reads %s, which is not a key of the ConfigMap mounted at %s", p, mount)
			}
		}
		if pol := cm.Data["policy.yaml"]; pol != "" {
			if _, err := config.ParsePolicy([]byte(pol), "policy.yaml"); err != nil {
				t.Errorf("the ConfigMap's policy does not load: %v", err)
			}
		}
	} else {
		t.Error("no ConfigMap: the configs and the policy come from one")
	}
	for _, kind := range []string{"PodDisruptionBudget", "NetworkPolicy"} {
		o := find(objs, kind)
		if o == nil {
			t.Errorf("no %s", kind)
			continue
		}
		sel := o.Spec.Selector
		if kind == "NetworkPolicy" {
			sel = o.Spec.PodSelector
		}
		ml, _ := sel["matchLabels"].(map[string]any)
		if len(ml) == 0 {
			t.Errorf("%s selects no labels", kind)
		}
		for k, v := range ml {
			if deployment.Spec.Template.Metadata.Labels[k] != v {
				t.Errorf("%s selects %s=%v, which the Deployment's pods do not carry", kind, k, v)
			}
		}
	}

	labels := deployment.Spec.Template.Metadata.Labels
	for k, v := range service.Spec.Selector {
		if labels[k] != v {
			t.Errorf("Service selects %s=%v, which the Deployment's pods (labels %v) do not carry", k, v, labels)
		}
	}
	if len(service.Spec.Selector) == 0 {
		t.Error("Service has no selector")
	}
	if len(service.Spec.Ports) == 0 || (service.Spec.Ports[0].TargetPort != portName && service.Spec.Ports[0].TargetPort != port) {
		t.Errorf("Service ports %+v: want a targetPort of %s (%d)", service.Spec.Ports, portName, port)
	}
}

// TestDocumentedDockerRuns: every `docker run` of the README and of the
// Dockerfiles' comments runs an image built (by a `docker build` of the
// same text) from a Dockerfile whose last stage installs the program of
// every bundled config it serves; the repository's Dockerfile holds
// climax alone, so serving git from it would leave /readyz at 503.
func TestDocumentedDockerRuns(t *testing.T) {
	subst := regexp.MustCompile(`"\$\([^)]*\)"`)
	build := regexp.MustCompile(`docker build\b.*?-t (\S+)`)
	file := regexp.MustCompile(`docker build\b.*?-f (\S+)`)
	runs := 0
	for _, doc := range append([]string{"../README.md"}, dockerfiles...) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		images := map[string]string{} // tag without registry and version -> Dockerfile
		for line := range strings.Lines(string(data)) {
			line = strings.TrimSpace(strings.TrimLeft(line, "# "))
			if m := build.FindStringSubmatch(line); m != nil {
				df := "Dockerfile"
				if f := file.FindStringSubmatch(line); f != nil {
					df = f[1]
				}
				images[imageName(m[1])] = "../" + df
			}
			rest, ok := strings.CutPrefix(line, "docker run ")
			if !ok {
				continue
			}
			runs++
			image, args := dockerRunArgs(strings.Fields(subst.ReplaceAllString(rest, "X")))
			df, ok := images[imageName(image)]
			if !ok {
				t.Errorf("%s: docker run of %s, which no docker build there makes: %s", doc, image, line)
				continue
			}
			entrypoint, _ := dockerEntrypoint(t, df)
			t.Setenv("CLIMAX_AUTH_TOKEN", strings.Repeat("t", 32))
			run, err := parseClimax(t, slices.Concat(entrypoint[1:], args))
			if err != nil {
				t.Errorf("%s: %s: %v", doc, line, err)
				continue
			}
			packages := lastStagePackages(t, df)
			for _, ref := range run.Configs {
				if config.IsPath(ref) {
					continue
				}
				if prog := bundledProgram(t, ref); !slices.Contains(packages, prog) {
					t.Errorf("%s: %s serves %s from %s, whose last stage installs no %s (packages %q): /readyz would stay 503", doc, line, ref, df, prog, packages)
				}
			}
		}
	}
	if runs == 0 {
		t.Fatal("no docker run found in the README or the Dockerfiles")
	}
}

// imageName is an image reference without its registry and tag:
// registry.example.com/climax-tools:v0.1.0 -> climax-tools.
func imageName(ref string) string {
	ref = ref[strings.LastIndex(ref, "/")+1:]
	name, _, _ := strings.Cut(ref, ":")
	return name
}

// dockerRunArgs splits the words after `docker run` into the image and the
// arguments given to its entrypoint.
func dockerRunArgs(words []string) (image string, args []string) {
	for i := 0; i < len(words); i++ {
		switch w := words[i]; {
		case w == "-p" || w == "-e" || w == "-v" || w == "--name" || w == "-w":
			i++
		case strings.HasPrefix(w, "-"):
		default:
			return w, words[i+1:]
		}
	}
	return "", nil
}

// lastStagePackages returns the Debian packages that the last stage of a
// Dockerfile installs by default (its ARG PACKAGES); none for a stage
// without apt-get, such as distroless.
func lastStagePackages(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	stages := regexp.MustCompile(`(?m)^FROM `).Split(string(data), -1)
	m := regexp.MustCompile(`(?m)^ARG PACKAGES="([^"]*)"`).FindStringSubmatch(stages[len(stages)-1])
	if m == nil {
		return nil
	}
	return strings.Fields(m[1])
}

// bundledProgram returns the program a bundled config runs (the first
// word of its command, as a call finds it).
func bundledProgram(t *testing.T, name string) string {
	t.Helper()
	c, err := config.LoadFS(configs.FS, name+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	words := executor.BaseCommand(c)
	if len(words) == 0 {
		t.Fatalf("bundled config %s has an empty command", name)
	}
	return words[0]
}

// TestHelmNotesPortForward: kubectl port-forward runs until it is stopped,
// so the chart's notes never chain a command after it with && or ;.
func TestHelmNotesPortForward(t *testing.T) {
	data, err := os.ReadFile("../deploy/helm/climax/templates/NOTES.txt")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for line := range strings.Lines(string(data)) {
		_, after, ok := strings.Cut(line, "port-forward ")
		if !ok || !strings.HasPrefix(strings.TrimSpace(line), "kubectl ") {
			continue
		}
		found = true
		cmd, _, _ := strings.Cut(after, "&")
		if strings.Contains(cmd, ";") || strings.Contains(after, "&&") || !strings.Contains(after, "&") {
			t.Errorf("NOTES.txt: %q: a port-forward must run in the background (&), never before && or ;", strings.TrimSpace(line))
		}
	}
	if !found {
		t.Error("NOTES.txt shows no kubectl port-forward")
	}
}

// TestDocumentedHTTPRuns: every `climax run --transport http` of a shell
// block in docs/http.md starts as written, with the environment its block
// exports (climax refuses to listen beyond loopback without a token).
func TestDocumentedHTTPRuns(t *testing.T) {
	data, err := os.ReadFile("../docs/http.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	runs := 0
	for _, b := range blocks {
		text := strings.ReplaceAll(b[1], "\\\n", " ")
		t.Setenv("CLIMAX_AUTH_TOKEN", "")
		if strings.Contains(text, "export CLIMAX_AUTH_TOKEN=") {
			t.Setenv("CLIMAX_AUTH_TOKEN", strings.Repeat("t", 32))
		}
		for line := range strings.Lines(text) {
			line, _, _ = strings.Cut(line, "#")
			rest, ok := strings.CutPrefix(strings.TrimSpace(line), "climax run ")
			if !ok || !strings.Contains(rest, "--transport") {
				continue
			}
			runs++
			if _, err := parseClimax(t, append([]string{"run"}, strings.Fields(rest)...)); err != nil {
				t.Errorf("docs/http.md: climax run %s: %v", rest, err)
			}
		}
	}
	if runs == 0 {
		t.Fatal("docs/http.md shows no climax run --transport in a sh block")
	}
}
