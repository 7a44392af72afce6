// Command figclis writes ../figclis.zip: configs drafted by `climax
// scaffold --no-exec` from the Fig autocomplete specs embedded in climax
// (@withfig/autocomplete, MIT licence, see ../LICENSE.withfig) for real
// programs that no bundled config covers. TestSearchQuality loads them
// beside the bundled configs as distractors: other programs' tools, in
// their own words, that ranking must not confuse with the bundled ones
// (docs/search.md, Measuring).
//
// Run it from the index directory, in the workspace (it builds climax):
//
//	go generate ./...   (the directive is in quality_test.go)
//
// The same climax and flags give the same bytes.
package main

import (
	"archive/zip"
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// programs are the programs drafted, each a real CLI with a Fig spec and
// no bundled config, chosen among the specs with the most described
// commands: clouds, package managers, containers, build tools, databases
// and developer services (clones of a bundled program's spec, as hub's of
// git's, are left out).
var programs = []string{
	"adb", "airflow", "amplify", "appwrite", "apt", "arduino-cli", "argo",
	"asdf", "atlas", "atuin", "az", "bosh", "brew", "bun", "bw", "cf",
	"chezmoi", "circleci", "cloudflared", "cmake", "conda", "copilot",
	"cosign", "dapr", "dart", "ddev", "deno", "doctl",
	"doppler", "dotnet", "expo", "fastly", "firebase", "flutter", "flyctl",
	"gcloud", "gem", "goreleaser", "gt", "gpg", "gradle", "hasura", "helm",
	"helmfile", "heroku", "hugo", "ionic", "jupyter", "k3d", "k6",
	"kafkactl", "kind", "launchctl", "meteor", "minikube", "multipass",
	"nativescript", "netlify", "okteto", "ollama", "op", "opa", "pass",
	"pip", "pm2", "pnpm", "pod", "podman", "poetry", "prisma", "pulumi",
	"rancher", "rclone", "rustup", "rvm", "serverless", "sfdx",
	"shopify", "stripe", "supabase", "swift", "symfony", "systemctl",
	"tailscale", "terraform", "terragrunt", "tkn", "tmux", "trivy", "tsh",
	"uv", "vault", "vercel", "vultr-cli", "wp", "wrangler", "yarn",
	"ykman", "zellij", "zig",
}

func main() {
	out := flag.String("o", "testdata/figclis.zip", "the zip file to write")
	maxTools := flag.Int("max-tools", 36, "most tools per program")
	maxFlags := flag.Int("max-flags", 5, "most flags per tool")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("figclis: ")

	tmp, err := os.MkdirTemp("", "figclis")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	climax := filepath.Join(tmp, "climax")
	build := exec.Command("go", "build", "-o", climax, "github.com/climax-mcp/climax/climax")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		log.Fatalf("building climax: %v", err)
	}

	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	tools := 0
	for _, prog := range programs {
		file := filepath.Join(tmp, prog+".yaml")
		cmd := exec.Command(climax, "scaffold", "--no-exec", prog, "-o", file,
			fmt.Sprint("--max-tools=", *maxTools), fmt.Sprint("--max-flags=", *maxFlags))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			log.Fatalf("%s: %v\n%s", prog, err, stderr.String())
		}
		data, err := os.ReadFile(file)
		if err != nil {
			log.Fatal(err)
		}
		data = withoutComments(data)
		if _, list, ok := bytes.Cut(data, []byte("\ntools:\n")); ok {
			tools += bytes.Count(list, []byte("\n  - name: ")) + 1
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: prog + ".yaml", Method: zip.Deflate, Modified: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			log.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			log.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d programs, %d tools, %d bytes in %s", len(programs), tools, buf.Len(), *out)
}

// withoutComments drops the draft's whole-line comments (its review
// notes), which the index does not read.
func withoutComments(data []byte) []byte {
	var b bytes.Buffer
	for line := range strings.Lines(string(data)) {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line)
		}
	}
	return b.Bytes()
}
