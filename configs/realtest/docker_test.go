package realtest

import (
	"archive/tar"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// The docker sandbox: a fake Docker Engine API on 127.0.0.1
// (DOCKER_HOST=tcp://...) that answers what the client needs, streams
// output for attach and exec, and records every request, so that calls can
// assert the image, command, environment, ports and options it received.
func init() {
	register(&suite{
		config: "docker",
		prepare: func(t *testing.T, sb *sandbox) {
			sb.rec = &recorder{}
			srv := httptest.NewServer(fakeDocker(sb.rec))
			t.Cleanup(srv.Close)
			t.Setenv("DOCKER_HOST", "tcp://"+srv.Listener.Addr().String())
			t.Setenv("DOCKER_CONFIG", sb.path("home", ".docker"))
			t.Setenv("DOCKER_CLI_HINTS", "false")
			t.Setenv("DOCKER_BUILDKIT", "0")
			if err := exec.Command("docker", "compose", "version").Run(); err != nil {
				sb.skipTool("docker compose plugin not installed", "docker_compose_ps", "docker_compose_up", "docker_compose_down",
					"docker_compose_logs", "docker_compose_build", "docker_compose_restart", "docker_compose_stop", "docker_compose_exec", "docker_compose_run")
			}
			write(t, sb.path("ctx", "Dockerfile"), "FROM alpine\nRUN echo built\n")
			write(t, sb.path("compose", "compose.yaml"), "services:\n  web:\n    image: nginx\n")
		},
		calls: dockerCalls,
	})
}

func dockerCalls(sb *sandbox) []call {
	sent := func(method, path string, texts ...string) func(t *testing.T, _ outcome) {
		return func(t *testing.T, _ outcome) {
			t.Helper()
			q, ok := sb.rec.find(method, path)
			if !ok {
				t.Fatalf("the fake daemon received no %s %s", method, path)
			}
			all := q.Path + "?" + q.Query + "\n" + q.Body
			for _, s := range texts {
				if !strings.Contains(all, s) {
					t.Errorf("%s %s lacks %q:\n%s", method, path, s, all)
				}
			}
		}
	}
	compose := sb.path("compose")
	return []call{
		{tool: "docker_info", args: a{"format": "{{.ServerVersion}} {{.OperatingSystem}}"}, want: []string{"28.0.0 Fake Engine"}},
		{tool: "docker_ps", args: a{"all": true, "filter": "status=running", "format": "{{.Names}} {{.Image}} {{.Ports}}"}, want: []string{"web nginx 0.0.0.0:8080->80/tcp"}, check: sent("GET", "/containers/json", "all=1", "status")},
		{tool: "docker_ps", args: a{"quiet": true}, want: []string{"abc123"}},
		{tool: "docker_ps", args: a{"filter": []any{"status=running", "name=web"}, "format": "{{.Names}}"}, want: []string{"web"}, check: sent("GET", "/containers/json", "status", "running", "name", "web")},
		{tool: "docker_logs", args: a{"container": "web", "since": "10m", "timestamps": true}, want: []string{"log line one"}, check: sent("GET", "/logs", "tail=100", "since=", "timestamps=1")},
		{tool: "docker_inspect", args: a{"target": "web", "type": "container", "format": "{{.Config.Image}}"}, want: []string{"nginx"}},
		{tool: "docker_stats", args: a{"container": "web", "format": "{{.Name}} {{.MemUsage}}"}, want: []string{"web"}, check: sent("GET", "/containers/web/stats", "stream=0")},
		{tool: "docker_stats", args: a{"all": true, "format": "json"}, want: []string{`"Name":"web"`}},
		{tool: "docker_top", args: a{"container": "web"}, want: []string{"PID", "nginx: master"}},
		{tool: "docker_port", args: a{"container": "web"}, want: []string{"80/tcp -> 0.0.0.0:8080"}},
		{tool: "docker_exec", args: a{"container": "web", "shell": "sh", "command": "cat /etc/os-release"}, want: []string{"fake output"}, check: sent("POST", "/containers/web/exec", `"Cmd":["sh","-c","cat /etc/os-release"]`)},
		// docker exec reads its own options only before the container:
		// they come first, the container and its command after a "--".
		{tool: "docker_exec", args: a{"container": "web", "shell": "bash", "command": "ls -l", "workdir": "/app", "env": []any{"A=1", "B=2"}, "user": "1000:1000"}, want: []string{"fake output"},
			check: sent("POST", "/containers/web/exec", `"Cmd":["bash","-c","ls -l"]`, `"WorkingDir":"/app"`, `"Env":["A=1","B=2"]`, `"User":"1000:1000"`)},
		// KEY alone would copy this machine's value of KEY into the container.
		{tool: "docker_exec", args: a{"container": "web", "shell": "sh", "command": "env", "env": []any{"A=1", "HOME"}}, refused: "does not match pattern"},
		{tool: "docker_run", args: a{"image": "alpine", "command": "env", "env": "PATH"}, refused: "does not match pattern"},
		{tool: "docker_build", args: a{"context": ".", "build_arg": "HOME", "dir": sb.path("ctx")}, refused: "does not match pattern"},
		// After the "--", a name starting with "-" is a container's (one
		// the fake daemon does not know), not an option.
		{tool: "docker_exec", args: a{"container": "-web", "shell": "sh", "command": "--version"}, exit: 1, want: []string{"GET /containers/-web/json"}},
		{tool: "docker_run", args: a{"image": "alpine:3.19", "command": "echo hi", "env": []any{"K=V", "A=B"}, "volume": "/tmp:/data:ro", "workdir": "/data", "network": "none", "user": "1000"}, want: []string{"fake output"},
			check: sent("POST", "/containers/create", `"Image":"alpine:3.19"`, `"Cmd":["-c","echo hi"]`, `"Entrypoint":["sh"]`, `"K=V"`, `"A=B"`, `"WorkingDir":"/data"`, `"User":"1000"`, `"AutoRemove":true`, `"Binds":["/tmp:/data:ro"]`, `"NetworkMode":"none"`)},
		// docker makes a relative host path of a volume absolute from its
		// working directory: dir's.
		{tool: "docker_run", args: a{"image": "alpine", "command": "ls /data", "volume": "./data:/data", "dir": sb.path("ctx")}, want: []string{"fake output"},
			check: sent("POST", "/containers/create", `"Binds":["`+sb.path("ctx", "data")+`:/data"]`)},
		{tool: "docker_run_detached", args: a{"image": "nginx", "volume": "./site:/usr/share/nginx/html:ro", "dir": sb.path("ctx")}, want: []string{"abc123"},
			check: sent("POST", "/containers/create", `"Binds":["`+sb.path("ctx", "site")+`:/usr/share/nginx/html:ro"]`)},
		{tool: "docker_run_detached", args: a{"image": "postgres:16", "name": "db", "publish": "5432:5432", "env": "POSTGRES_PASSWORD=x", "volume": "pgdata:/var/lib/postgresql/data", "network": "app"}, want: []string{"abc123"},
			check: sent("POST", "/containers/create", "name=db", `"Image":"postgres:16"`, `"Env":["POSTGRES_PASSWORD=x"]`, `"PortBindings":{"5432/tcp":[{"HostIp":"","HostPort":"5432"}]}`, `"Binds":["pgdata:/var/lib/postgresql/data"]`, `"NetworkMode":"app"`)},
		{tool: "docker_stop", args: a{"container": "web", "wait_seconds": 5}, want: []string{"web"}, check: sent("POST", "/containers/web/stop", "t=5")},
		{tool: "docker_stop", args: a{"container": []any{"web", "db"}}, want: []string{"web", "db"}, check: sent("POST", "/containers/db/stop")},
		{tool: "docker_kill", args: a{"container": []any{"web", "db"}, "signal": "HUP"}, want: []string{"web", "db"}, check: sent("POST", "/containers/db/kill", "signal=HUP")},
		{tool: "docker_start", args: a{"container": "web"}, want: []string{"web"}, check: sent("POST", "/containers/web/start")},
		{tool: "docker_restart", args: a{"container": "web"}, want: []string{"web"}, check: sent("POST", "/containers/web/restart")},
		{tool: "docker_rm", args: a{"container": "web", "force": true, "volumes": true}, want: []string{"web"}, check: sent("DELETE", "/containers/web", "force=1", "v=1")},
		{tool: "docker_rm", args: a{"container": []any{"web", "db"}}, want: []string{"web", "db"}, check: sent("DELETE", "/containers/db")},
		{tool: "docker_cp", args: a{"source": "web:/etc/hostname", "destination": sb.path("hostname")}, check: fileHas(sb.path("hostname"), "fakehost")},
		// A relative local path is dir's.
		{tool: "docker_cp", args: a{"source": "web:/etc/hostname", "destination": "./hostname-copy", "dir": sb.path("ctx")}, check: fileHas(sb.path("ctx", "hostname-copy"), "fakehost")},
		{tool: "docker_images", args: a{"repository": "nginx", "all": true, "filter": "dangling=false", "format": "{{.Repository}}:{{.Tag}}"}, want: []string{"nginx:latest"}, check: sent("GET", "/images/json", "all=1", "dangling")},
		{tool: "docker_pull", args: a{"image": "alpine:3.19", "platform": "linux/amd64"}, want: []string{"alpine:3.19"}, check: sent("POST", "/images/create", "fromImage=", "alpine", "tag=3.19", "platform=linux")},
		{tool: "docker_build", args: a{"context": ".", "tag": "app:dev", "file": "Dockerfile", "build_arg": "V=1", "target": "final", "no_cache": true, "pull": true, "dir": sb.path("ctx")}, want: []string{"Successfully built"},
			check: sent("POST", "/build", "t=app", "dockerfile=Dockerfile", "buildargs=", "target=final", "nocache=1", "pull=1")},
		{tool: "docker_tag", args: a{"source": "app:dev", "target": "registry.example/app:v1"}, check: sent("POST", "/images/app:dev/tag", "repo=registry.example", "tag=v1")},
		{tool: "docker_push", args: a{"image": "registry.example/app:v1"}, want: []string{"registry.example/app:v1"}, check: sent("POST", "/images/registry.example/app/push", "tag=v1")},
		{tool: "docker_rmi", args: a{"image": "app:dev", "force": true}, want: []string{"Untagged: app:dev"}, check: sent("DELETE", "/images/app:dev", "force=1")},
		{tool: "docker_volume_ls", args: a{"filter": "dangling=true", "format": "{{.Name}}"}, want: []string{"pgdata"}},
		{tool: "docker_volume_create", args: a{"name": "cache"}, want: []string{"cache"}, check: sent("POST", "/volumes/create", `"Name":"cache"`)},
		{tool: "docker_volume_rm", args: a{"volume": []any{"cache", "old"}, "force": true}, want: []string{"cache", "old"}, check: sent("DELETE", "/volumes/old", "force=1")},
		{tool: "docker_network_create", args: a{"name": "app", "driver": "bridge"}, want: []string{"net2"}, check: sent("POST", "/networks/create", `"Name":"app"`, `"Driver":"bridge"`)},
		{tool: "docker_network_rm", args: a{"network": []any{"app"}}, want: []string{"app"}, check: sent("DELETE", "/networks/app")},
		{tool: "docker_network_ls", args: a{"filter": "driver=bridge", "format": "{{.Name}} {{.Driver}}"}, want: []string{"bridge bridge"}},
		{tool: "docker_system_df", args: a{"verbose": true}, want: []string{"Images space usage"}},
		{tool: "docker_system_prune", args: a{"all": true, "volumes": true}, want: []string{"Total reclaimed space"}, check: sent("POST", "/volumes/prune")},
		{tool: "docker_compose_ps", args: a{"service": "web", "all": true, "format": "json", "dir": compose}},
		{tool: "docker_compose_up", args: a{"service": "web", "build": true, "wait": true, "force_recreate": true, "remove_orphans": true, "dir": compose}},
		{tool: "docker_compose_logs", args: a{"service": "web", "since": "1h", "timestamps": true, "dir": compose}},
		{tool: "docker_compose_build", args: a{"service": "web", "no_cache": true, "pull": true, "dir": compose}},
		{tool: "docker_compose_restart", args: a{"service": "web", "dir": compose}},
		{tool: "docker_compose_stop", args: a{"service": []any{"web"}, "dir": compose}},
		{tool: "docker_compose_exec", args: a{"service": "web", "shell": "sh", "command": "nginx -t", "dir": compose}},
		{tool: "docker_compose_exec", args: a{"service": "web", "shell": "sh", "command": "pwd", "workdir": "/srv", "env": "A=1", "user": "nginx", "dir": compose}},
		{tool: "docker_compose_run", args: a{"service": "web", "command": "echo one-off", "dir": compose}},
		{tool: "docker_compose_down", args: a{"volumes": true, "remove_orphans": true, "dir": compose}},
	}
}

var dockerVersionPrefix = regexp.MustCompile(`^/v[0-9.]+/`)

// fakeDocker answers the Docker Engine API calls the bundled tools make.
func fakeDocker(rec *recorder) http.Handler {
	inspect := `{"Id":"abc123def456","Name":"/web","Created":"2024-01-01T00:00:00Z","Path":"nginx","Args":[],
		"Config":{"Image":"nginx","Tty":false,"Env":["A=1"]},"Image":"sha256:0123",
		"State":{"Status":"running","Running":true,"Pid":42,"StartedAt":"2024-01-01T00:00:00Z"},
		"HostConfig":{"NetworkMode":"bridge"},"Mounts":[],
		"NetworkSettings":{"Ports":{"80/tcp":[{"HostIp":"0.0.0.0","HostPort":"8080"}]}}}`
	stats := `{"read":"2024-01-01T00:00:00Z","name":"/web","id":"abc123def456",
		"cpu_stats":{"cpu_usage":{"total_usage":200},"system_cpu_usage":1000,"online_cpus":2},
		"precpu_stats":{"cpu_usage":{"total_usage":100},"system_cpu_usage":500},
		"memory_stats":{"usage":1048576,"limit":2097152},"networks":{},"blkio_stats":{}}`
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		path := "/" + dockerVersionPrefix.ReplaceAllString(r.URL.Path, "")
		rec.add(request{Method: r.Method, Path: path, Query: r.URL.RawQuery, Header: r.Header, Body: string(body)})
		w.Header().Set("Api-Version", "1.47")
		w.Header().Set("Ostype", "linux")
		w.Header().Set("Builder-Version", "1")
		js := func(code int, s string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			io.WriteString(w, s)
		}
		m := r.Method + " " + path
		switch {
		case strings.HasSuffix(path, "/_ping"):
			io.WriteString(w, "OK")
		case m == "GET /version":
			js(200, `{"Version":"28.0.0","ApiVersion":"1.47","MinAPIVersion":"1.24","Os":"linux","Arch":"amd64"}`)
		case m == "GET /info":
			js(200, `{"ID":"fake","Containers":1,"ContainersRunning":1,"Images":1,"ServerVersion":"28.0.0","Driver":"overlay2","OperatingSystem":"Fake Engine","OSType":"linux","Architecture":"x86_64","NCPU":2,"MemTotal":1073741824,"Name":"fakehost"}`)
		case m == "GET /containers/json":
			js(200, `[{"Id":"abc123def456","Names":["/web"],"Image":"nginx","Command":"nginx","Created":1700000000,"State":"running","Status":"Up 1 hour","Ports":[{"IP":"0.0.0.0","PrivatePort":80,"PublicPort":8080,"Type":"tcp"}]}]`)
		case m == "GET /containers/web/json", m == "GET /containers/abc123def456/json":
			js(200, inspect)
		case r.Method == "GET" && strings.HasSuffix(path, "/logs"):
			w.Header().Set("Content-Type", "application/vnd.docker.multiplexed-stream")
			w.Write(dockerFrame(1, "2024-01-01T00:00:00Z log line one\n"))
		case strings.HasSuffix(path, "/stats") && r.Method == "GET":
			js(200, stats)
		case m == "GET /containers/web/top":
			js(200, `{"Titles":["PID","CMD"],"Processes":[["42","nginx: master process"]]}`)
		case m == "POST /containers/web/exec":
			js(201, `{"Id":"exec1"}`)
		case m == "POST /exec/exec1/start", strings.HasSuffix(path, "/attach"):
			hijack(w, "fake output\n")
		case m == "GET /exec/exec1/json":
			js(200, `{"ID":"exec1","Running":false,"ExitCode":0}`)
		case m == "POST /containers/create":
			js(201, `{"Id":"abc123def456","Warnings":[]}`)
		case strings.HasSuffix(path, "/wait"):
			js(200, `{"StatusCode":0}`)
		case r.Method == "POST" && (strings.HasSuffix(path, "/start") || strings.HasSuffix(path, "/stop") || strings.HasSuffix(path, "/restart")):
			w.WriteHeader(http.StatusNoContent)
		case r.Method == "DELETE" && strings.HasPrefix(path, "/containers/"):
			w.WriteHeader(http.StatusNoContent)
		case r.Method == "POST" && strings.HasPrefix(path, "/containers/") && strings.HasSuffix(path, "/kill"):
			w.WriteHeader(http.StatusNoContent)
		case m == "POST /volumes/create":
			var v struct{ Name string }
			json.Unmarshal(body, &v)
			js(201, fmt.Sprintf(`{"Name":%q,"Driver":"local","Mountpoint":"/var/lib/docker/volumes/%s/_data","Scope":"local"}`, v.Name, v.Name))
		case r.Method == "DELETE" && strings.HasPrefix(path, "/volumes/"):
			w.WriteHeader(http.StatusNoContent)
		case m == "POST /networks/create":
			js(201, `{"Id":"net2","Warning":""}`)
		case r.Method == "DELETE" && strings.HasPrefix(path, "/networks/"):
			w.WriteHeader(http.StatusNoContent)
		case path == "/containers/web/archive" && (r.Method == "HEAD" || r.Method == "GET"):
			st, _ := json.Marshal(map[string]any{"name": "hostname", "size": 9, "mode": 0o644, "mtime": "2024-01-01T00:00:00Z", "linkTarget": ""})
			w.Header().Set("X-Docker-Container-Path-Stat", base64.StdEncoding.EncodeToString(st))
			w.Header().Set("Content-Type", "application/x-tar")
			if r.Method == "GET" {
				var buf bytes.Buffer
				tw := tar.NewWriter(&buf)
				tw.WriteHeader(&tar.Header{Name: "hostname", Mode: 0o644, Size: 9, Typeflag: tar.TypeReg})
				tw.Write([]byte("fakehost\n"))
				tw.Close()
				w.Write(buf.Bytes())
			}
		case m == "GET /images/json":
			js(200, `[{"Id":"sha256:0123","RepoTags":["nginx:latest"],"Created":1700000000,"Size":1000000,"Containers":1}]`)
		case m == "POST /images/create":
			js(200, `{"status":"Pulling from library/alpine","id":"3.19"}`+"\n"+`{"status":"Digest: sha256:abcd"}`+"\n"+`{"status":"Status: Downloaded newer image for alpine:3.19"}`+"\n")
		case m == "POST /build":
			js(200, `{"stream":"Step 1/2 : FROM alpine\n"}`+"\n"+`{"aux":{"ID":"sha256:feedbeef0000"}}`+"\n"+`{"stream":"Successfully built feedbeef0000\n"}`+"\n")
		case strings.HasPrefix(path, "/images/") && strings.HasSuffix(path, "/tag"):
			w.WriteHeader(http.StatusCreated)
		case strings.HasPrefix(path, "/images/") && strings.HasSuffix(path, "/push"):
			js(200, `{"status":"Pushed","progressDetail":{},"id":"0123"}`+"\n"+`{"status":"v1: digest: sha256:abcd size: 123"}`+"\n"+`{"aux":{"Tag":"v1","Digest":"sha256:abcd","Size":123}}`+"\n")
		case r.Method == "DELETE" && strings.HasPrefix(path, "/images/"):
			js(200, `[{"Untagged":"app:dev"},{"Deleted":"sha256:feedbeef0000"}]`)
		case m == "GET /volumes":
			js(200, `{"Volumes":[{"Name":"pgdata","Driver":"local","Mountpoint":"/var/lib/docker/volumes/pgdata/_data","Scope":"local"}],"Warnings":[]}`)
		case m == "GET /networks":
			js(200, `[{"Name":"bridge","Id":"net1","Driver":"bridge","Scope":"local"}]`)
		case m == "GET /system/df":
			js(200, `{"LayersSize":1000,"Images":[],"Containers":[],"Volumes":[],"BuildCache":[]}`)
		case m == "POST /containers/prune":
			js(200, `{"ContainersDeleted":[],"SpaceReclaimed":0}`)
		case m == "POST /networks/prune":
			js(200, `{"NetworksDeleted":[]}`)
		case m == "POST /images/prune":
			js(200, `{"ImagesDeleted":[],"SpaceReclaimed":0}`)
		case m == "POST /volumes/prune":
			js(200, `{"VolumesDeleted":[],"SpaceReclaimed":0}`)
		case m == "POST /build/prune":
			js(200, `{"CachesDeleted":[],"SpaceReclaimed":0}`)
		case m == "GET /events":
			w.WriteHeader(http.StatusOK)
		default:
			js(404, fmt.Sprintf(`{"message":"fake daemon: no handler for %s"}`, m))
		}
	})
}

// dockerFrame is one frame of a multiplexed stream (1 stdout, 2 stderr).
func dockerFrame(stream byte, s string) []byte {
	h := make([]byte, 8, 8+len(s))
	h[0] = stream
	binary.BigEndian.PutUint32(h[4:], uint32(len(s)))
	return append(h, s...)
}

// hijack answers an attach or exec start: the connection is upgraded to a
// raw stream, gets out as one stdout frame and is closed.
func hijack(w http.ResponseWriter, out string) {
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	buf.WriteString("HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.multiplexed-stream\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n")
	buf.Write(dockerFrame(1, out))
	buf.Flush()
}
