package realtest

import (
	"archive/tar"
	"bytes"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// The kubectl sandbox: a fake Kubernetes API server on 127.0.0.1 (legacy
// discovery, a pod, a deployment with two ReplicaSet revisions, events,
// metrics, an OpenAPI v3 document, exec over WebSocket), named by a
// kubeconfig with two contexts. Every request is recorded, so calls can
// assert what kubectl sent.
func init() {
	register(&suite{
		config: "kubectl",
		needs:  []string{"diff"},
		prepare: func(t *testing.T, sb *sandbox) {
			sb.rec = &recorder{}
			srv := httptest.NewServer(fakeKube(sb.rec))
			t.Cleanup(srv.Close)
			cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: fake
  cluster: {server: %q}
users:
- name: tester
  user: {token: fake-token}
contexts:
- name: fake
  context: {cluster: fake, user: tester, namespace: default}
- name: staging
  context: {cluster: fake, user: tester, namespace: staging}
current-context: fake
`, srv.URL)
			write(t, sb.path("kubeconfig"), cfg)
			t.Setenv("KUBECONFIG", sb.path("kubeconfig"))
			t.Setenv("KUBECACHEDIR", sb.path("kube-cache"))
			write(t, sb.path("manifests", "cm.yaml"), cmManifest("new value"))
			write(t, sb.path("manifests", "deploy.yaml"), "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: default\nspec:\n  replicas: 3\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n")
		},
		calls: func(sb *sandbox) []call {
			sent := func(method, path string, texts ...string) func(t *testing.T, _ outcome) {
				return func(t *testing.T, _ outcome) {
					t.Helper()
					q, ok := sb.rec.find(method, path)
					if !ok {
						t.Fatalf("the fake API server received no %s %s", method, path)
					}
					all := q.Path + "?" + q.Query + "\n" + q.Body
					for _, s := range texts {
						if !strings.Contains(all, s) {
							t.Errorf("%s %s lacks %q:\n%s", method, path, s, all)
						}
					}
				}
			}
			m := sb.path("manifests")
			return []call{
				{tool: "kubectl_config_get_contexts", want: []string{"* ", "fake", "staging"}},
				{tool: "kubectl_get", args: a{"resource": "pods", "namespace": "default", "selector": "app=web", "output": "wide"}, want: []string{"web-1"}, check: sent("GET", "/api/v1/namespaces/default/pods", "labelSelector=app%3Dweb")},
				{tool: "kubectl_get", args: a{"resource": "deployment", "name": "web", "jsonpath": "{.spec.replicas}"}, want: []string{"1"}},
				{tool: "kubectl_get", args: a{"resource": "pods", "name": "web-1", "jsonpath": "{.metadata.name} {.spec.containers[0].image}"}, want: []string{"web-1 nginx:1.26"}},
				// Output formats that read a local file are not offered.
				{tool: "kubectl_get", args: a{"resource": "pods", "output": "go-template-file=/etc/passwd"}, refused: "must be one of"},
				{tool: "kubectl_get", args: a{"resource": "pods", "output": "jsonpath-file=/etc/passwd"}, refused: "must be one of"},
				{tool: "kubectl_get", args: a{"resource": "pods", "jsonpath": "{.items[0].metadata.name}-file=/etc/passwd"}, want: []string{"web-1-file=/etc/passwd"}, check: lacks("root:")},
				{tool: "kubectl_get", args: a{"resource": "pods", "all_namespaces": true, "output": "name"}, want: []string{"pod/web-1"}, check: sent("GET", "/api/v1/pods")},
				// context picks another kubeconfig context for this call only:
				// staging's default namespace is staging.
				{tool: "kubectl_get", args: a{"resource": "pods", "context": "staging"}, want: []string{"web-1"}, check: sent("GET", "/api/v1/namespaces/staging/pods")},
				{tool: "kubectl_describe", args: a{"resource": "pods", "name": "web-1", "namespace": "default"}, want: []string{"web-1", "nginx"}},
				{tool: "kubectl_describe", args: a{"resource": "pods", "selector": "app=web"}, want: []string{"web-1"}},
				{tool: "kubectl_logs", args: a{"pod": "web-1", "container": "web", "since": "1h", "previous": true}, want: []string{"fake log line"}, check: sent("GET", "/pods/web-1/log", "tailLines=100", "sinceSeconds=3600", "previous=true", "container=web")},
				{tool: "kubectl_logs", args: a{"pod": "web-1", "all_containers": true, "tail": -1, "namespace": "default"}, want: []string{"fake log line"}},
				{tool: "kubectl_logs", args: a{"selector": "app=web", "prefix": true}, want: []string{"[pod/web-1/web] fake log line"}, check: func(t *testing.T, _ outcome) {
					for _, q := range sb.rec.since(0) {
						if strings.HasSuffix(q.Path, "/pods") && strings.Contains(q.Query, "labelSelector=app%3Dweb") {
							return
						}
					}
					t.Error("kubectl listed no pods by the selector app=web")
				}},
				{tool: "kubectl_exec", args: a{"pod": "web-1", "container": "web", "command": "cat /etc/hostname", "namespace": "default"}, want: []string{"fake exec output"},
					check: sent("GET", "/pods/web-1/exec", "command=sh", "command=-c", "command=cat+%2Fetc%2Fhostname", "container=web")},
				{tool: "kubectl_apply", args: a{"file": sb.path("manifests", "cm.yaml"), "dry_run": "server"}, want: []string{"configmap/settings created (server dry run)"}, check: sent("POST", "/configmaps", "dryRun=All")},
				// A relative file is read from dir, in the context named.
				{tool: "kubectl_apply", args: a{"file": "manifests/cm.yaml", "dir": sb.dir, "dry_run": "server", "context": "staging"}, want: []string{"configmap/settings created (server dry run)"}, check: sent("POST", "/namespaces/staging/configmaps", "dryRun=All")},
				{tool: "kubectl_apply", args: a{"file": []any{m}, "recursive": true, "namespace": "default"}, want: []string{"configmap/settings created", "deployment.apps/web configured"}, check: sent("PATCH", "/deployments/web", "nginx:1.27")},
				{tool: "kubectl_apply_manifest", args: a{"manifest": cmManifest("from stdin"), "namespace": "default", "dry_run": "client"}, want: []string{"configmap/settings", "(dry run)"}},
				{tool: "kubectl_apply_manifest", args: a{"manifest": cmManifest("from stdin")}, want: []string{"configmap/settings configured"}, check: sent("PATCH", "/configmaps/settings", "from stdin")},
				{tool: "kubectl_diff", args: a{"file": "deploy.yaml", "dir": m, "namespace": "default"}, exit: 1, want: []string{"+      - image: nginx:1.27", "(differences found)"}},
				{tool: "kubectl_rollout_history", args: a{"resource": "deployment/web", "namespace": "default"}, want: []string{"REVISION", "1 ", "2 "}},
				{tool: "kubectl_rollout_history", args: a{"resource": "deployment/web", "revision": 1}, want: []string{"revision #1", "nginx:1.25"}},
				{tool: "kubectl_set_image", args: a{"resource": "deployment/web", "image": []any{"web=nginx:1.28"}, "namespace": "default"}, want: []string{"deployment.apps/web image updated"}, check: sent("PATCH", "/deployments/web", "nginx:1.28")},
				{tool: "kubectl_auth_can_i", args: a{"verb": "list", "resource": "pods", "namespace": "default"}, want: []string{"yes"}, check: sent("POST", "/selfsubjectaccessreviews", "list", "pods", "default")},
				{tool: "kubectl_auth_can_i", args: a{"verb": "delete", "resource": "nodes", "all_namespaces": true}, exit: 1, want: []string{"no", "[exit code: 1 (no, or kubectl failed: see stderr)]"}},
				// kubectl's exit code 1 is also its failure: the label holds then too.
				{tool: "kubectl_auth_can_i", args: a{"verb": "get", "resource": "pods"}, before: func(t *testing.T) {
					write(t, sb.path("unreachable.kubeconfig"), "apiVersion: v1\nkind: Config\nclusters:\n- name: gone\n  cluster: {server: \"http://127.0.0.1:9\"}\ncontexts:\n- name: gone\n  context: {cluster: gone}\ncurrent-context: gone\n")
					t.Setenv("KUBECONFIG", sb.path("unreachable.kubeconfig"))
				}, exit: 1, want: []string{"refused", "[exit code: 1 (no, or kubectl failed: see stderr)]"}},
				{tool: "kubectl_wait", args: a{"resource": "pod/web-1", "for": "condition=Ready", "namespace": "default", "wait_timeout": "10s"}, want: []string{"pod/web-1 condition met"}},
				{tool: "kubectl_wait", args: a{"resource": "pods", "for": "condition=Ready", "selector": "app=web", "wait_timeout": "10s"}, want: []string{"condition met"}},
				{tool: "kubectl_wait", args: a{"resource": "pods", "for": "condition=Ready", "all": true, "wait_timeout": "10s"}, want: []string{"condition met"}},
				{tool: "kubectl_cp", args: a{"source": "web-1:/etc/hostname", "destination": "copied-hostname", "dir": m, "container": "web", "namespace": "default"}, check: fileHas(sb.path("manifests", "copied-hostname"), "fakepod")},
				{tool: "kubectl_scale", args: a{"resource": "deployment/web", "replicas": 2, "namespace": "default"}, want: []string{"deployment.apps/web scaled"}, check: sent("PATCH", "/deployments/web/scale", `"replicas":2`)},
				{tool: "kubectl_rollout_status", args: a{"resource": "deployment/web", "namespace": "default", "wait_timeout": "10s"}, want: []string{`deployment "web" successfully rolled out`}},
				{tool: "kubectl_rollout_restart", args: a{"resource": "deployment/web", "namespace": "default"}, want: []string{"deployment.apps/web restarted"}, check: sent("PATCH", "/deployments/web", "kubectl.kubernetes.io/restartedAt")},
				{tool: "kubectl_rollout_undo", args: a{"resource": "deployment/web", "to_revision": 1, "namespace": "default"}, want: []string{"deployment.apps/web rolled back"}, check: sent("PATCH", "/deployments/web", "nginx:1.25")},
				{tool: "kubectl_events", args: a{"namespace": "default", "for_object": "pod/web-1", "types": "Warning"}, want: []string{"BackOff"}, check: sent("GET", "/api/v1/namespaces/default/events", "involvedObject.name%3Dweb-1")},
				{tool: "kubectl_events", args: a{"all_namespaces": true}, want: []string{"Pulled"}},
				{tool: "kubectl_top_pods", args: a{"namespace": "default", "containers": true, "sort_by": "memory"}, want: []string{"web-1", "12Mi"}},
				{tool: "kubectl_top_pods", args: a{"all_namespaces": true}, want: []string{"web-1"}},
				{tool: "kubectl_top_nodes", want: []string{"node-1", "250m"}},
				{tool: "kubectl_explain", args: a{"field": "pods.spec", "recursive": true}, want: []string{"containers"}},
				{tool: "kubectl_delete", args: a{"resource": "configmap", "name": []any{"settings"}, "namespace": "default"}, want: []string{`configmap "settings" deleted`}, check: sent("DELETE", "/configmaps/settings")},
				{tool: "kubectl_delete", args: a{"resource": "configmap", "selector": "app=web", "ignore_not_found": true}, check: sent("GET", "/configmaps", "labelSelector=app%3Dweb")},
				{tool: "kubectl_delete", args: a{"file": "cm.yaml", "dir": m}, want: []string{`configmap "settings" deleted`}},
				{tool: "kubectl_config_use_context", args: a{"context": "staging"}, want: []string{`Switched to context "staging"`}, check: fileHas(sb.path("kubeconfig"), "current-context: staging")},
			}
		},
	})
}

func cmManifest(value string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  labels: {app: web}\ndata:\n  key: " + value + "\n"
}

// fakeKube answers the Kubernetes API calls the bundled tools make.
func fakeKube(rec *recorder) http.Handler {
	pod := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1","namespace":"default","uid":"p1","labels":{"app":"web"},"creationTimestamp":"2024-01-01T00:00:00Z"},
		"spec":{"nodeName":"node-1","containers":[{"name":"web","image":"nginx:1.26"}]},
		"status":{"phase":"Running","podIP":"10.0.0.5","conditions":[{"type":"Ready","status":"True"}],"containerStatuses":[{"name":"web","ready":true,"restartCount":0,"image":"nginx:1.26","imageID":"","state":{"running":{"startedAt":"2024-01-01T00:00:00Z"}}}]}}`
	deploy := func(image string) string {
		return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default","uid":"d1","generation":1,"annotations":{"deployment.kubernetes.io/revision":"2"},"creationTimestamp":"2024-01-01T00:00:00Z"},
		"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"` + image + `"}]}}},
		"status":{"observedGeneration":1,"replicas":1,"updatedReplicas":1,"readyReplicas":1,"availableReplicas":1,"conditions":[{"type":"Available","status":"True"},{"type":"Progressing","status":"True","reason":"NewReplicaSetAvailable"}]}}`
	}
	rs := func(name, rev, image string) string {
		return `{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"` + name + `","namespace":"default","uid":"rs` + rev + `","labels":{"app":"web"},"annotations":{"deployment.kubernetes.io/revision":"` + rev + `"},
		"ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"d1","controller":true}]},
		"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"` + image + `"}]}}},"status":{"replicas":1}}`
	}
	cm := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"default","uid":"c1","labels":{"app":"web"}},"data":{"key":"old"}}`
	events := `{"apiVersion":"v1","kind":"EventList","metadata":{},"items":[
		{"metadata":{"name":"e1","namespace":"default"},"involvedObject":{"kind":"Pod","name":"web-1","namespace":"default"},"reason":"BackOff","message":"Back-off restarting failed container","type":"Warning","count":3,"firstTimestamp":"2024-01-01T00:00:00Z","lastTimestamp":"2024-01-01T00:01:00Z"},
		{"metadata":{"name":"e2","namespace":"default"},"involvedObject":{"kind":"Pod","name":"web-1","namespace":"default"},"reason":"Pulled","message":"Image pulled","type":"Normal","count":1,"firstTimestamp":"2024-01-01T00:00:00Z","lastTimestamp":"2024-01-01T00:00:00Z"}]}`
	resources := func(gv string, rs ...string) string {
		var items []string
		for _, r := range rs {
			f := strings.Split(r, ":") // name:kind:namespaced:shortname
			items = append(items, fmt.Sprintf(`{"name":%q,"singularName":"","kind":%q,"namespaced":%s,"shortNames":[%q],"verbs":["get","list","watch","create","update","patch","delete"]}`, f[0], f[1], f[2], f[3]))
		}
		return `{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"` + gv + `","resources":[` + strings.Join(items, ",") + `]}`
	}
	list := func(kind, items string) string {
		apiVersion := "v1"
		if kind == "ReplicaSetList" || kind == "DeploymentList" {
			apiVersion = "apps/v1"
		}
		return `{"apiVersion":"` + apiVersion + `","kind":"` + kind + `","metadata":{"resourceVersion":"1"},"items":[` + items + `]}`
	}
	var mu sync.Mutex
	cmExists := false // the ConfigMap exists once created (not by a dry run)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		p := r.URL.Path
		rec.add(request{Method: r.Method, Path: p, Query: r.URL.RawQuery, Header: r.Header, Body: string(body)})
		js := func(code int, s string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			io.WriteString(w, s)
		}
		notFound := func(kind, name string) {
			js(404, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404,"message":"`+kind+` \"`+name+`\" not found","details":{"name":"`+name+`","kind":"`+kind+`"}}`)
		}
		dry := r.URL.Query().Get("dryRun") != ""
		ns := "/namespaces/default"
		if strings.Contains(p, "/namespaces/staging/") {
			ns = "/namespaces/staging"
		}
		switch m := r.Method + " " + strings.Replace(p, ns, "/namespaces/NS", 1); {
		case m == "GET /api":
			js(200, `{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1"}]}`)
		case m == "GET /apis":
			js(200, `{"kind":"APIGroupList","apiVersion":"v1","groups":[
				{"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}},
				{"name":"metrics.k8s.io","versions":[{"groupVersion":"metrics.k8s.io/v1beta1","version":"v1beta1"}],"preferredVersion":{"groupVersion":"metrics.k8s.io/v1beta1","version":"v1beta1"}}]}`)
		case m == "GET /api/v1":
			js(200, resources("v1", "pods:Pod:true:po", "pods/log:Pod:true:", "pods/exec:PodExecOptions:true:", "services:Service:true:svc", "events:Event:true:ev", "configmaps:ConfigMap:true:cm", "nodes:Node:false:no", "namespaces:Namespace:false:ns"))
		case m == "GET /apis/apps/v1":
			js(200, resources("apps/v1", "deployments:Deployment:true:deploy", "deployments/scale:Scale:true:", "replicasets:ReplicaSet:true:rs", "statefulsets:StatefulSet:true:sts"))
		case m == "GET /apis/metrics.k8s.io/v1beta1":
			js(200, resources("metrics.k8s.io/v1beta1", "pods:PodMetrics:true:", "nodes:NodeMetrics:false:"))
		case m == "GET /openapi/v3":
			js(200, `{"paths":{"api/v1":{"serverRelativeURL":"/openapi/v3/api/v1?hash=1"},"apis/apps/v1":{"serverRelativeURL":"/openapi/v3/apis/apps/v1?hash=1"}}}`)
		case m == "GET /openapi/v3/api/v1":
			js(200, openAPIDoc("", "v1", map[string]string{"Pod": "pods", "ConfigMap": "configmaps"},
				`"io.k8s.api.core.v1.Pod":{"description":"Pod is a collection of containers.","type":"object","properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},"spec":{"description":"Specification of the pod.","allOf":[{"$ref":"#/components/schemas/io.k8s.api.core.v1.PodSpec"}]}},"x-kubernetes-group-version-kind":[{"group":"","kind":"Pod","version":"v1"}]},
				"io.k8s.api.core.v1.PodSpec":{"description":"PodSpec is a description of a pod.","type":"object","required":["containers"],"properties":{"containers":{"description":"List of containers.","type":"array","items":{"$ref":"#/components/schemas/io.k8s.api.core.v1.Container"}}}},
				"io.k8s.api.core.v1.Container":{"description":"A container.","type":"object","properties":{"image":{"description":"Image name.","type":"string"}}},
				"io.k8s.api.core.v1.ConfigMap":{"type":"object","properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},"data":{"type":"object","additionalProperties":{"type":"string"}}},"x-kubernetes-group-version-kind":[{"group":"","kind":"ConfigMap","version":"v1"}]}`))
		case m == "GET /openapi/v3/apis/apps/v1":
			js(200, openAPIDoc("apps", "v1", map[string]string{"Deployment": "deployments"},
				`"io.k8s.api.apps.v1.Deployment":{"type":"object","properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},"spec":{"type":"object"},"status":{"type":"object"}},"x-kubernetes-group-version-kind":[{"group":"apps","kind":"Deployment","version":"v1"}]}`))
		case m == "GET /version":
			js(200, `{"major":"1","minor":"32","gitVersion":"v1.32.0-fake","platform":"linux/amd64"}`)
		case m == "GET /api/v1/namespaces/NS/pods", m == "GET /api/v1/pods":
			js(200, list("PodList", pod))
		case m == "GET /api/v1/namespaces/NS/pods/web-1":
			js(200, pod)
		case m == "GET /api/v1/namespaces/NS/pods/web-1/log":
			io.WriteString(w, "fake log line\n")
		case strings.HasSuffix(p, "/pods/web-1/exec") && r.URL.Query().Get("command") == "tar":
			websocketExec(w, r, tarOf("etc/hostname", "fakepod\n"))
		case strings.HasSuffix(p, "/pods/web-1/exec"):
			websocketExec(w, r, "fake exec output\n")
		case m == "POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews":
			allowed := !strings.Contains(string(body), "delete") // the body is protobuf or JSON
			js(201, fmt.Sprintf(`{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{},"status":{"allowed":%t}}`, allowed))
		case m == "GET /api/v1/namespaces/NS/events", m == "GET /api/v1/events":
			js(200, events)
		case m == "GET /api/v1/namespaces/NS/configmaps":
			js(200, list("ConfigMapList", ""))
		case m == "GET /api/v1/namespaces/NS/configmaps/settings":
			mu.Lock()
			ok := cmExists
			mu.Unlock()
			if !ok {
				notFound("configmaps", "settings")
				return
			}
			js(200, cm)
		case m == "POST /api/v1/namespaces/NS/configmaps":
			if !dry {
				mu.Lock()
				cmExists = true
				mu.Unlock()
			}
			js(201, cm)
		case m == "PATCH /api/v1/namespaces/NS/configmaps/settings":
			js(200, cm)
		case m == "DELETE /api/v1/namespaces/NS/configmaps/settings":
			js(200, `{"kind":"Status","apiVersion":"v1","status":"Success"}`)
		case m == "GET /apis/apps/v1/namespaces/NS/deployments/web", m == "GET /apis/apps/v1/namespaces/NS/deployments":
			if strings.HasSuffix(p, "/deployments") {
				js(200, list("DeploymentList", deploy("nginx:1.26")))
				return
			}
			js(200, deploy("nginx:1.26"))
		case m == "PATCH /apis/apps/v1/namespaces/NS/deployments/web":
			js(200, deploy("nginx:1.27"))
		case m == "PATCH /apis/apps/v1/namespaces/NS/deployments/web/scale", m == "GET /apis/apps/v1/namespaces/NS/deployments/web/scale":
			js(200, `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web","namespace":"default"},"spec":{"replicas":2},"status":{"replicas":1}}`)
		case m == "GET /apis/apps/v1/namespaces/NS/replicasets":
			js(200, list("ReplicaSetList", rs("web-aaa", "1", "nginx:1.25")+","+rs("web-bbb", "2", "nginx:1.26")))
		case m == "GET /apis/metrics.k8s.io/v1beta1/namespaces/NS/pods", m == "GET /apis/metrics.k8s.io/v1beta1/pods":
			js(200, `{"kind":"PodMetricsList","apiVersion":"metrics.k8s.io/v1beta1","metadata":{},"items":[{"metadata":{"name":"web-1","namespace":"default"},"timestamp":"2024-01-01T00:00:00Z","window":"30s","containers":[{"name":"web","usage":{"cpu":"5m","memory":"12Mi"}}]}]}`)
		case m == "GET /apis/metrics.k8s.io/v1beta1/nodes":
			js(200, `{"kind":"NodeMetricsList","apiVersion":"metrics.k8s.io/v1beta1","metadata":{},"items":[{"metadata":{"name":"node-1"},"timestamp":"2024-01-01T00:00:00Z","window":"30s","usage":{"cpu":"250m","memory":"1Gi"}}]}`)
		case m == "GET /api/v1/nodes":
			js(200, list("NodeList", `{"metadata":{"name":"node-1"},"status":{"capacity":{"cpu":"2","memory":"4Gi"},"allocatable":{"cpu":"2","memory":"4Gi"}}}`))
		default:
			js(404, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404,"message":"fake API server: no handler for `+r.Method+` `+p+`"}`)
		}
	})
}

// websocketExec answers a kubectl exec over WebSocket (channel protocol
// v4/v5): out on the stdout channel, then a Success status on the error
// channel, then a close frame.
func websocketExec(w http.ResponseWriter, r *http.Request, out string) {
	proto := ""
	for _, p := range strings.Split(r.Header.Get("Sec-WebSocket-Protocol"), ",") {
		if p = strings.TrimSpace(p); p == "v5.channel.k8s.io" || p == "v4.channel.k8s.io" && proto == "" {
			proto = p
		}
	}
	if proto == "" || !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		http.Error(w, "websocket v4/v5 channel protocol required", http.StatusBadRequest)
		return
	}
	sum := sha1.Sum([]byte(r.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	fmt.Fprintf(buf, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\nSec-WebSocket-Protocol: %s\r\n\r\n",
		base64.StdEncoding.EncodeToString(sum[:]), proto)
	frame := func(opcode byte, payload []byte) {
		buf.WriteByte(0x80 | opcode)
		switch n := len(payload); {
		case n < 126:
			buf.WriteByte(byte(n))
		default:
			buf.WriteByte(126)
			binary.Write(buf, binary.BigEndian, uint16(n))
		}
		buf.Write(payload)
	}
	// The command's output comes a moment after the upgrade, as from a
	// real process: kubectl reads frames before it has set up its streams
	// and drops those that arrive too early ("Unknown stream id 1,
	// discarding message").
	buf.Flush()
	time.Sleep(200 * time.Millisecond)
	frame(2, append([]byte{1}, out...))
	frame(2, append([]byte{3}, `{"metadata":{},"status":"Success"}`...))
	frame(8, []byte{0x03, 0xe8})
	buf.Flush()
	io.Copy(io.Discard, conn) // until the client closes its side
}

// tarOf returns a tar archive holding one file.
func tarOf(name, content string) string {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(content)), Typeflag: tar.TypeReg})
	io.WriteString(tw, content)
	tw.Close()
	return buf.String()
}

// openAPIDoc is an OpenAPI v3 document of one group version: schemas, and
// for each kind a path whose get and patch operations name the kind (kubectl
// finds resources through them) and accept fieldValidation (so kubectl
// leaves validation to the server).
func openAPIDoc(group, version string, kinds map[string]string, schemas string) string {
	prefix := "/api/" + version
	if group != "" {
		prefix = "/apis/" + group + "/" + version
	}
	var paths []string
	for kind, resource := range kinds {
		gvk := fmt.Sprintf(`"x-kubernetes-group-version-kind":{"group":%q,"version":%q,"kind":%q}`, group, version, kind)
		op := `{` + gvk + `,"parameters":[{"name":"fieldValidation","in":"query","schema":{"type":"string"}},{"name":"dryRun","in":"query","schema":{"type":"string"}}]}`
		paths = append(paths, fmt.Sprintf(`%q:{"get":%s,"patch":%s,"put":%s}`, prefix+"/namespaces/{namespace}/"+resource+"/{name}", op, op, op),
			fmt.Sprintf(`%q:{"get":%s,"post":%s}`, prefix+"/namespaces/{namespace}/"+resource, op, op))
	}
	return `{"openapi":"3.0.0","info":{"title":"Kubernetes","version":"v1.32.0"},"paths":{` + strings.Join(paths, ",") + `},"components":{"schemas":{` + schemas + `}}}`
}
