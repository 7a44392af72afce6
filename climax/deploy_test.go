package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/configs"
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
	Spec struct {
		Replicas int              `yaml:"replicas"`
		Selector map[string]any   `yaml:"selector"` // Deployment: matchLabels; Service: the labels
		Template k8sPodTemplate   `yaml:"template"`
		Ports    []k8sServicePort `yaml:"ports"`
	} `yaml:"spec"`
}

type k8sPodTemplate struct {
	Metadata struct {
		Labels map[string]string `yaml:"labels"`
	} `yaml:"metadata"`
	Spec struct {
		Containers []k8sContainer `yaml:"containers"`
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

func TestDockerfileEntrypoint(t *testing.T) {
	entrypoint, cmd := dockerEntrypoint(t, "../Dockerfile")
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

func TestKubernetesManifests(t *testing.T) {
	const manifests = "../deploy/climax.yaml"
	entrypoint, cmd := dockerEntrypoint(t, "../Dockerfile")
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
	if deployment.Spec.Replicas < 2 {
		t.Errorf("Deployment: %d replicas, want several (the example shows replicas behind a Service)", deployment.Spec.Replicas)
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
	for name, probe := range map[string]*k8sProbe{"readinessProbe": c.ReadinessProbe, "livenessProbe": c.LivenessProbe} {
		if probe == nil || probe.HTTPGet.Path != "/healthz" || (probe.HTTPGet.Port != portName && probe.HTTPGet.Port != port) {
			t.Errorf("Deployment: %s must GET /healthz on port %s (%d), got %+v", name, portName, port, probe)
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
