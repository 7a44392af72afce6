package realtest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The npm sandbox: a project directory and a small registry served on
// 127.0.0.1 with two packages: tiny-dep (1.0.0 and 1.1.0, with an
// advisory against versions below 1.1.0) and dev-dep (1.0.0).
func init() {
	register(&suite{
		config: "npm",
		prepare: func(t *testing.T, sb *sandbox) {
			sb.rec = &recorder{}
			srv := httptest.NewServer(npmRegistry(t, sb.rec))
			t.Cleanup(srv.Close)
			sb.url = srv.URL
			t.Setenv("npm_config_registry", srv.URL+"/")
			t.Setenv("npm_config_cache", sb.path("npm-cache"))
			t.Setenv("npm_config_userconfig", sb.path("home", ".npmrc"))
			t.Setenv("npm_config_loglevel", "warn")
			mkdir(sb.path("proj"))(t)
		},
		calls: func(sb *sandbox) []call {
			p := sb.path("proj")
			pkg := sb.path("proj", "package.json")
			return []call{
				{tool: "npm_init", args: a{"dir": p}, check: fileHas(pkg, `"name": "proj"`)},
				{tool: "npm_install", args: a{"package": "tiny-dep@1.0.0", "dir": p}, want: []string{"added 1 package"}, check: fileHas(pkg, `"tiny-dep": "^1.0.0"`)},
				{tool: "npm_install", args: a{"package": "dev-dep", "dev": true, "ignore_scripts": true, "dir": p}, check: fileHas(pkg, `"devDependencies"`, `"dev-dep": "^1.0.0"`)},
				{tool: "npm_install", args: a{"package": "tiny-dep@1.1.0", "dry_run": true, "dir": p}, want: []string{"change tiny-dep 1.0.0 => 1.1.0"}, check: fileHas(pkg, `"tiny-dep": "^1.0.0"`)},
				{tool: "npm_install", args: a{"dir": p}, want: []string{"up to date"}},
				{tool: "npm_ls", args: a{"package": "tiny-dep", "all": true, "depth": 0, "json": true, "dir": p}, want: []string{`"version": "1.0.0"`}},
				{tool: "npm_ls", args: a{"package": []any{"tiny-dep", "dev-dep"}, "dir": p}, want: []string{"tiny-dep@1.0.0", "dev-dep@1.0.0"}},
				{tool: "npm_explain", args: a{"package": "tiny-dep", "dir": p}, want: []string{"tiny-dep@1.0.0", `"^1.0.0" from the root project`}},
				{tool: "npm_outdated", args: a{"package": "tiny-dep", "json": true, "dir": p}, exit: 1, want: []string{`"latest": "1.1.0"`, "[exit code: 1 (outdated dependencies found, or npm failed: see stderr)]"}},
				{tool: "npm_outdated", args: a{"all": true, "long": true, "dir": p}, exit: 1, want: []string{"tiny-dep", "1.1.0", "Package Type", "dependencies"}},
				// npm's exit code 1 is also its failure: the label must hold then too.
				{tool: "npm_outdated", args: a{"dir": p}, before: npmUnreachable, exit: 1, want: []string{"ECONNREFUSED", "[exit code: 1 (outdated dependencies found, or npm failed: see stderr)]"}},
				{tool: "npm_view", args: a{"package": "tiny-dep", "field": "versions", "json": true}, want: []string{`"1.0.0"`, `"1.1.0"`}},
				{tool: "npm_audit", args: a{"dir": p}, exit: 1, want: []string{"tiny-dep", "Prototype pollution", "[exit code: 1 (vulnerabilities found, or npm failed: see stderr)]"}},
				{tool: "npm_audit", args: a{"dir": p}, before: npmUnreachable, exit: 1, want: []string{"audit endpoint returned an error", "[exit code: 1 (vulnerabilities found, or npm failed: see stderr)]"}},
				{tool: "npm_audit", args: a{"audit_level": "critical", "omit_dev": true, "json": true, "dir": p}, want: []string{`"high": 1`}},
				{tool: "npm_audit_fix", args: a{"dry_run": true, "dir": p}, exit: 1, want: []string{"change tiny-dep 1.0.0 => 1.1.0"}},
				{tool: "npm_audit_fix", args: a{"dir": p}, check: fileHas(sb.path("proj", "node_modules", "tiny-dep", "package.json"), `"version":"1.1.0"`)},
				{tool: "npm_ci", args: a{"omit_dev": true, "ignore_scripts": true, "dir": p}, want: []string{"added 1 package"}, check: exists(sb.path("proj", "node_modules", "dev-dep"), false)},
				{tool: "npm_scripts", args: a{"dir": p}, before: npmScripts(pkg), want: []string{"greet", "echo greet"}},
				{tool: "npm_run", args: a{"script": "greet", "script_arg": "--name=x", "dir": p}, want: []string{"greet --name=x"}},
				{tool: "npm_run", args: a{"script": "greet", "script_arg": []any{"-v", "two words"}, "dir": p}, want: []string{"greet -v two words"}},
				{tool: "npm_exec", args: a{"command": "node", "arguments": []any{"-e", "console.log('exec', process.argv.length)"}, "dir": p}, want: []string{"exec 1"}},
				{tool: "npm_version", args: a{"version": "1.2.3", "no_git_tag_version": true, "dir": p}, want: []string{"v1.2.3"}, check: fileHas(pkg, `"version": "1.2.3"`)},
				{tool: "npm_version", args: a{"version": "patch", "dir": p}, want: []string{"v1.2.4"}},
				{tool: "npm_run", args: a{"script": "missing", "if_present": true, "dir": p}},
				{tool: "npm_test", args: a{"test_arg": "--grep=x", "dir": p}, want: []string{"testing --grep=x"}},
				{tool: "npm_uninstall", args: a{"package": "dev-dep", "dir": p}, check: func(t *testing.T, _ outcome) {
					fileHas(pkg, `"tiny-dep"`)(t, outcome{})
					exists(sb.path("proj", "node_modules", "dev-dep"), false)(t, outcome{})
				}},
				{tool: "npm_update", args: a{"package": []any{"tiny-dep"}, "dir": p}},
				{tool: "npm_update", args: a{"dir": p}, check: fileHas(sb.path("proj", "node_modules", "tiny-dep", "package.json"), `"version":"1.1.0"`)},
			}
		},
	})
}

// npmUnreachable points npm, for one call, at a registry on a closed port
// with an empty cache and no retries: npm fails with ECONNREFUSED.
func npmUnreachable(t *testing.T) {
	t.Setenv("npm_config_registry", "http://127.0.0.1:9/")
	t.Setenv("npm_config_cache", t.TempDir())
	t.Setenv("npm_config_fetch_retries", "0")
}

// npmScripts adds scripts to package.json.
func npmScripts(pkg string) func(t *testing.T) {
	return func(t *testing.T) {
		var m map[string]any
		data := readFile(t, pkg)
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			t.Fatal(err)
		}
		m["scripts"] = map[string]string{"greet": "echo greet", "test": "echo testing"}
		out, _ := json.MarshalIndent(m, "", "  ")
		write(t, pkg, string(out))
	}
}

// npmRegistry serves packuments, tarballs and the bulk advisory endpoint.
func npmRegistry(t *testing.T, rec *recorder) http.Handler {
	type version struct{ name, version string }
	tarballs := map[string][]byte{}
	for _, v := range []version{{"tiny-dep", "1.0.0"}, {"tiny-dep", "1.1.0"}, {"dev-dep", "1.0.0"}} {
		tarballs[v.name+"-"+v.version+".tgz"] = npmTarball(t, v.name, v.version)
	}
	packument := func(base, name string, versions ...string) map[string]any {
		vs := map[string]any{}
		times := map[string]string{"created": "2024-01-01T00:00:00.000Z", "modified": "2024-02-01T00:00:00.000Z"}
		for _, v := range versions {
			tgz := tarballs[name+"-"+v+".tgz"]
			s1 := sha1.Sum(tgz)
			s512 := sha512.Sum512(tgz)
			vs[v] = map[string]any{
				"name": name, "version": v, "description": "A tiny dependency",
				"dist": map[string]any{
					"tarball":   base + "/" + name + "/-/" + name + "-" + v + ".tgz",
					"shasum":    hex.EncodeToString(s1[:]),
					"integrity": "sha512-" + base64.StdEncoding.EncodeToString(s512[:]),
				},
			}
			times[v] = "2024-01-01T00:00:00.000Z"
		}
		return map[string]any{
			"name": name, "description": "A tiny dependency", "versions": vs, "time": times,
			"dist-tags": map[string]string{"latest": versions[len(versions)-1]},
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			in = zr
		}
		body, _ := io.ReadAll(in)
		rec.add(request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header, Body: string(body)})
		base := "http://" + r.Host
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/-/npm/v1/security/advisories/bulk":
			if !strings.Contains(string(body), "tiny-dep") {
				w.Write([]byte("{}"))
				return
			}
			w.Write([]byte(`{"tiny-dep":[{"id":1001,"url":"https://example.invalid/advisory/1001","title":"Prototype pollution in tiny-dep","severity":"high","vulnerable_versions":"<1.1.0","cwe":["CWE-1321"],"cvss":{"score":7.5,"vectorString":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N"}}]}`))
		case r.URL.Path == "/tiny-dep":
			json.NewEncoder(w).Encode(packument(base, "tiny-dep", "1.0.0", "1.1.0"))
		case r.URL.Path == "/dev-dep":
			json.NewEncoder(w).Encode(packument(base, "dev-dep", "1.0.0"))
		case strings.Contains(r.URL.Path, "/-/"):
			tgz, ok := tarballs[r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]]
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write(tgz)
		default:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":"Not found"}`))
		}
	})
}

// npmTarball builds a package tarball: package/package.json and index.js.
func npmTarball(t *testing.T, name, version string) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	files := map[string]string{
		"package/package.json": `{"name":"` + name + `","version":"` + version + `","main":"index.js"}`,
		"package/index.js":     "module.exports = 1;\n",
	}
	for _, f := range []string{"package/package.json", "package/index.js"} {
		if err := tw.WriteHeader(&tar.Header{Name: f, Mode: 0o644, Size: int64(len(files[f])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(files[f]))
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}
