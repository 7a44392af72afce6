package server_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/server"
)

// hiddenSrc defines a read-only tool and two that --read-only and a
// policy hide, each with a secret argument.
const hiddenSrc = `name: h
command: echo
tools:
  - name: h_status
    description: "Status"
    read_only: true
  - name: h_login
    description: "Log in"
    args:
      - {name: user, flag: --user}
      - {name: pin, flag: --pin, secret: true}
  - name: h_push
    description: "Push"
    read_only: true
    args:
      - {name: code, flag: --code, secret: true}
`

// Secret arguments of a tool that is loaded but not served (hidden by
// --read-only or by the policy), or called directly in discovery mode, are
// redacted all the same; so are arguments of unknown tools whose names
// look secret.
func TestAuditLogRedactsToolsNotServed(t *testing.T) {
	t.Parallel()
	c, err := config.Parse([]byte(hiddenSrc), "h.yaml")
	if err != nil {
		t.Fatal(err)
	}
	readOnly, _, err := index.New([]*config.Config{c}, config.ReadOnlyPolicy(nil))
	if err != nil {
		t.Fatal(err)
	}
	byPolicy := parseIndexWithPolicy(t, "default: disabled\ntools:\n  h_status: {}\n", hiddenSrc)
	for name, ix := range map[string]*index.Index{"read-only": readOnly, "policy": byPolicy} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var buf syncBuffer
			srv := server.New(ix, executor.New(), server.WithAuditLog(&buf))
			cs := connect(t, srv, nil)
			call(t, cs, "climax_call", map[string]any{"tool_name": "h_login", "args": map[string]any{"user": "ada", "pin": "SECRET1", "Pin": "SECRET2"}})
			call(t, cs, "climax_call", map[string]any{"tool_name": " h_push ", "args": map[string]any{"code": "SECRET3"}})
			call(t, cs, "h_login", map[string]any{"pin": "SECRET4", "user": "bob"}) // direct, discovery mode
			call(t, cs, "climax_call", map[string]any{"tool_name": "h_logn", "args": map[string]any{"api_key": "SECRET5", "githubToken": "SECRET6", "user": "eve"}})
			call(t, cs, "h_status", map[string]any{"DB-PASSWORD": "SECRET7"})
			out := flushed(t, srv, &buf)
			if strings.Contains(out, "SECRET") {
				t.Errorf("a secret value reached the audit log:\n%s", out)
			}
			for _, want := range []string{`"user":"ada"`, `"user":"bob"`, `"user":"eve"`, `"pin":"***"`, `"code":"***"`, `"api_key":"***"`} {
				if !strings.Contains(out, want) {
					t.Errorf("audit log lacks %s:\n%s", want, out)
				}
			}
		})
	}
}

func TestLooksSecret(t *testing.T) {
	t.Parallel()
	for _, name := range []string{
		"token", "Token", "TOKEN", "api_key", "apiKey", "APIKey", "api-key", "x.api.key", "apikey",
		"password", "dbPassword", "DB_PASSWORD", "dbpassword", "passwd", "passphrase", "client_secret",
		"clientsecret", "authToken", "authtoken", "x-auth-token", "auth", "Authorization", "credentials",
		"AWS_SECRET_ACCESS_KEY", "private_key", "oauth2token", "cookie", "bearer", "jwt",
		"PassWord", "Pass_Word", "pass-phrase", "ClientSeCret", // one word split in two
		"cred", "pass", "pwd", "db_pwd", "pin", "otp", "privkey", "ssh_privkey", "session", "sessionId", "JSESSIONID",
		"signature", "sig", "salt", "hmac",
	} {
		if !server.LooksSecret(name) {
			t.Errorf("%q does not look secret", name)
		}
	}
	for _, name := range []string{
		"user", "author", "monkey", "keyboard", "keys_only", "path", "max_tokens", "oauth", "passive", "tokenizer", "message", "",
		"pinned", "spin", "sessions_dir", "design", "passthrough",
	} {
		if server.LooksSecret(name) {
			t.Errorf("%q looks secret", name)
		}
	}
}

// Every value the audit log keeps is capped at 200 bytes, as in the other
// logs, and so is the record as a whole (an ignored
// argument of 8 MiB is not kept whole).
func TestAuditLogCapsValues(t *testing.T) {
	t.Parallel()
	var buf syncBuffer
	srv := server.New(auditIndex(t), executor.New(), server.WithAuditLog(&buf))
	cs := connect(t, srv, nil)
	long := strings.Repeat("x", 1<<20)
	many := make([]any, 100)
	for i := range many {
		many[i] = long[:300]
	}
	wide := map[string]any{}
	for i := range 30 {
		wide[strings.Repeat("k", 300)+string(rune('a'+i%26))+strings.Repeat("z", i)] = many
	}
	call(t, cs, "climax_call", map[string]any{"tool_name": "fake_login", "args": map[string]any{"user": "ada", "note": long, "list": many}})
	call(t, cs, "climax_call", map[string]any{"tool_name": "fake_login", "args": map[string]any{"user": long}})
	call(t, cs, "climax_call", map[string]any{"tool_name": "nope", "args": wide})
	call(t, cs, long, wide)
	out := flushed(t, srv, &buf)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines, want 4", len(lines))
	}
	for i, l := range lines {
		if len(l) > server.MaxAuditRecord {
			t.Errorf("line %d is %d bytes, over %d", i, len(l), server.MaxAuditRecord)
		}
		if strings.Contains(l, long[:300]) {
			t.Errorf("line %d keeps a value of 300 bytes or more", i)
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
	}
	var first struct {
		Args map[string]any `json:"args"`
		Argv []string       `json:"argv"`
	}
	json.Unmarshal([]byte(lines[0]), &first)
	if note, _ := first.Args["note"].(string); !strings.HasSuffix(note, "…(1048576 bytes)") || len(note) > 250 {
		t.Errorf("note = %.300q, want it cut at 200 bytes saying how long it was", note)
	}
	if list, _ := first.Args["list"].([]any); len(list) != 21 || list[20] != "…(80 more)" {
		t.Errorf("list has %d items, want 20 and a count of the rest", len(list))
	}
	var second struct {
		Argv []string `json:"argv"`
	}
	json.Unmarshal([]byte(lines[1]), &second)
	for _, a := range second.Argv {
		if len(a) > 250 {
			t.Errorf("argv word of %d bytes", len(a))
		}
	}
	if !strings.Contains(lines[2], "left out: the record would be") {
		t.Errorf("an oversized record should say its arguments were left out:\n%.500s", lines[2])
	}
}
