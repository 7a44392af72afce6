package realtest

import (
	"errors"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// The psql sandbox: a PostgreSQL server (initdb and pg_ctl from the
// postgresql package) listening only on a Unix socket in a temporary
// directory, with trust authentication; PGHOST, PGUSER and PGDATABASE point
// psql at it.
func init() {
	register(&suite{
		config: "psql",
		prepare: func(t *testing.T, sb *sandbox) {
			bin := postgresBin()
			if bin == "" {
				sb.skipTool("PostgreSQL server (initdb, pg_ctl) not installed", "psql_query", "psql_script", "psql_list_databases", "psql_list_tables")
				return
			}
			// PostgreSQL refuses to run as root: as root, the server runs
			// as the postgres user, in a directory it owns.
			asUser := func(*exec.Cmd) {}
			dir := sb.path("pg")
			if os.Getuid() == 0 {
				u, err := user.Lookup("postgres")
				if err != nil {
					t.Fatalf("running as root and no postgres user to run the server as: %v", err)
				}
				uid, _ := strconv.Atoi(u.Uid)
				gid, _ := strconv.Atoi(u.Gid)
				asUser = runAs(uid, gid)
				d, err := os.MkdirTemp("", "climax-realtest-pg-")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.RemoveAll(d) })
				if err := os.Chown(d, uid, gid); err != nil {
					t.Fatal(err)
				}
				dir = d
			} else if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			pg := func(name string, args ...string) {
				t.Helper()
				cmd := exec.Command(filepath.Join(bin, name), args...)
				cmd.Dir = dir
				asUser(cmd)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s: %v\n%s", name, err, out)
				}
			}
			data, sock := filepath.Join(dir, "data"), dir
			pg("initdb", "--pgdata="+data, "--auth=trust", "--username=postgres", "--encoding=UTF8", "--no-sync", "--no-instructions")
			pg("pg_ctl", "--pgdata="+data, "--log="+filepath.Join(dir, "server.log"), "--wait", "--options=-k "+sock+" -c listen_addresses= -c fsync=off", "start")
			t.Cleanup(func() { pg("pg_ctl", "--pgdata="+data, "--mode=immediate", "--wait", "stop") })
			t.Setenv("PGHOST", sock)
			t.Setenv("PGUSER", "postgres")
			t.Setenv("PGDATABASE", "postgres")
			sb.url = "postgresql:///postgres?host=" + sock
		},
		calls: func(sb *sandbox) []call {
			sock := strings.TrimPrefix(sb.url, "postgresql:///postgres?host=")
			return []call{
				{tool: "psql_list_databases", want: []string{"postgres", "template1"}},
				// A URI without parameters; the socket is PGHOST's.
				{tool: "psql_list_databases", args: a{"database": "postgresql://postgres@/postgres"}, want: []string{"template0"}},
				{tool: "psql_script", args: a{"script": "CREATE TABLE users (id int PRIMARY KEY, name text);\nINSERT INTO users VALUES (1, 'ada'), (2, 'linus');\nCREATE SCHEMA app;\nCREATE TABLE app.orders (id int);\n"}, want: []string{"CREATE TABLE", "INSERT 0 2", "CREATE SCHEMA"}},
				{tool: "psql_script", args: a{"script": "INSERT INTO users VALUES (3, 'ken');\nSELECT nope;\nINSERT INTO users VALUES (4, 'rob');\n", "single_transaction": true, "database": "postgres"}, exit: 3, want: []string{`column "nope" does not exist`, "(an SQL statement failed; the script stopped there)"}},
				// vars: :'name' is a quoted literal (a quote in the value stays
				// data), :name the value as it is.
				{tool: "psql_script", args: a{"script": "SELECT name FROM users WHERE id = :id OR name = :'who';\n", "vars": []any{"id=1", "who=x' OR '1'='1"}}, want: []string{"ada", "(1 row)"}, check: lacks("linus")},
				// psql's own variables are upper case: none can be set, so
				// ON_ERROR_STOP stays on and no prompt runs a backquote.
				{tool: "psql_script", args: a{"script": "SELECT 1;", "vars": "ON_ERROR_STOP=0"}, refused: "does not match pattern"},
				{tool: "psql_script", args: a{"script": "SELECT 1;", "vars": []any{"x=1", "PROMPT1=%`touch /tmp/x`"}}, refused: "does not match pattern"},
				{tool: "psql_script", args: a{"script": "SELECT 1;", "vars": "on_error_stop"}, refused: "does not match pattern"},
				// The aligned table keeps its leading space (the header is centred).
				{tool: "psql_query", args: a{"sql": "SELECT count(*) FROM users"}, want: []string{"2"}, check: textStarts(" count")},
				// Expanded output: one column per line; leading spaces of aligned columns stay.
				{tool: "psql_query", args: a{"sql": "SELECT id, name FROM users WHERE id = 1", "expanded": true}, want: []string{"-[ RECORD 1 ]", "id   | 1", "name | ada"}},
				{tool: "psql_query", args: a{"sql": "SELECT id, name FROM users ORDER BY id", "csv": true, "database": "postgresql:///postgres"}, want: []string{"id,name\n1,ada\n2,linus"}},
				{tool: "psql_query", args: a{"sql": "SELECT name FROM users WHERE id = 2", "tuples_only": true}, want: []string{"linus"}},
				{tool: "psql_query", args: a{"sql": `\d users`}, want: []string{`Table "public.users"`, "name"}},
				{tool: "psql_query", args: a{"sql": "SELECT * FROM missing"}, exit: 1, want: []string{`relation "missing" does not exist`, "(the statement failed)"}},
				// Every schema's tables, app's too (\dt+ lists the search_path's
				// only), and none of the system's.
				{tool: "psql_list_tables", args: a{"database": "postgres"}, want: []string{"Schema", "Owner", "Size", "app    | orders", "public | users", "(2 rows)"}, check: lacks("pg_class", "sql_features")},
				{tool: "psql_list_tables", args: a{"host": sock, "port": 5432, "user": "postgres", "database": "postgres"}, want: []string{"orders", "users"}},
				{tool: "psql_list_tables", args: a{"host": sock, "port": 5432, "user": "nobody"}, exit: 2, want: []string{`role "nobody" does not exist`, "(the connection to the server failed)"}},
				{tool: "psql_list_databases", args: a{"host": sock, "port": 5432, "user": "postgres"}, want: []string{"template1"}},
				{tool: "psql_list_databases", args: a{"host": sock, "database": "nosuchdb"}, exit: 2, want: []string{`database "nosuchdb" does not exist`, "(the connection to the server failed)"}},
				// Connection settings in database are refused: libpq would
				// read them (sslkey=ENGINE:KEY loads a library; the
				// hostile fixture shows it), so they stay the operator's.
				{tool: "psql_list_tables", args: a{"database": sb.url}, refused: "does not match pattern"},
				{tool: "psql_list_databases", args: a{"database": "dbname=postgres host=" + sock}, refused: "does not match pattern"},
				{tool: "psql_query", args: a{"sql": "SELECT 1", "database": "postgresql:///postgres?sslmode=disable"}, refused: "does not match pattern"},
				{tool: "psql_script", args: a{"script": "SELECT 1;", "database": "postgresql:///postgres%3Fhost=" + sock}, refused: "does not match pattern"},
				{tool: "psql_script", args: a{"script": "SELECT current_user;", "host": sock, "port": 5432, "user": "postgres", "database": "postgres"}, want: []string{"postgres"}},
				{tool: "psql_query", args: a{"sql": "SELECT current_user", "host": sock, "port": 5432, "user": "nobody"}, exit: 2, want: []string{`role "nobody" does not exist`, "(the connection to the server failed)"}},
				// Only a value that starts with a backslash is a psql
				// meta-command (\! runs a shell command); anything else goes
				// to the server as SQL. TestPsqlMetaCommands shows the
				// config's pattern refusing every meta-command but \d and \l.
				{tool: "psql_query", args: a{"sql": " \\! touch " + sb.path("pwned")}, exit: 1, want: []string{"syntax error"}, check: exists(sb.path("pwned"), false)},
			}
		},
	})
}

// postgresBin returns the directory of Debian's initdb and pg_ctl (or the
// PATH's), or "" when there are none.
func postgresBin() string {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if _, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p)
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	for i := len(dirs) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(dirs[i], "initdb")); err == nil {
			return dirs[i]
		}
	}
	return ""
}

// TestPsqlMetaCommands checks psql_query's own pattern: a value starting
// with a backslash is a psql meta-command (\! runs a shell, \o and \copy
// write local files), and only a lone describe or list command passes,
// before anything runs; SQL passes.
func TestPsqlMetaCommands(t *testing.T) {
	ix := bundledIndex(t, "psql", nil)
	rt, ok := ix.Get("psql_query")
	if !ok {
		t.Fatal("no psql_query")
	}
	for _, sql := range []string{`\! touch /tmp/pwned`, `\o /tmp/out`, "\\copy t to '/tmp/x'", `\d users \! id`, `\setenv PAGER x`, `\i /etc/passwd`,
		// psql runs backquoted text in a meta-command's argument as a
		// shell command.
		"\\d `touch /tmp/pwned`", "\\l `id`", "\\dt `id>/tmp/x`", "\\d+ users`id`"} {
		_, err := executor.Validate(rt, map[string]any{"sql": sql})
		var ve *executor.ValidationError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), "does not match pattern") {
			t.Errorf("sql %q: want a refusal, got %v", sql, err)
		}
	}
	for _, sql := range []string{"SELECT 1", "SELECT E'a\\nb'", " \\d users", `\d users`, `\dt`, `\d+ users`, `\l`} {
		if _, err := executor.Validate(rt, map[string]any{"sql": sql}); err != nil {
			t.Errorf("sql %q: %v", sql, err)
		}
	}
}

// psqlPinnedPolicy is the policy docs/security.md (Connection args and
// the operator's credentials) and configs/psql.yaml give for keeping the
// operator's password for the operator's server: host and port pinned,
// database a name (a URI names its own host).
const psqlPinnedPolicy = `default: enabled
tools:
  psql_query: &pinned
    args:
      host: {pattern: 'db\.internal'}
      port: {pattern: '5432'}
      database: {pattern: '[A-Za-z0-9_]+'}
  psql_script: *pinned
  psql_list_databases: *pinned
  psql_list_tables: *pinned
`

// TestPsqlDatabaseIsAName checks every psql tool's own pattern on
// database: a name or a URI without parameters passes; key=value
// settings, a URI's query and percent-encoding are refused before psql
// starts, whatever the policy (libpq would read them as connection
// settings; the psql hostile fixture shows one loading a library).
func TestPsqlDatabaseIsAName(t *testing.T) {
	ix := bundledIndex(t, "psql", nil)
	base := map[string]map[string]any{"psql_query": {"sql": "SELECT 1"}, "psql_script": {"script": "SELECT 1;"}, "psql_list_databases": {}, "psql_list_tables": {}}
	for tool, args := range base {
		rt, ok := ix.Get(tool)
		if !ok {
			t.Fatalf("no %s", tool)
		}
		with := func(db string) map[string]any {
			m := map[string]any{"database": db}
			for k, v := range args {
				m[k] = v
			}
			return m
		}
		for _, db := range []string{"dbname=x sslkey=/tmp/e.so:k", "sslkey=/tmp/e.so:k", "service=evil", "postgresql://h/x?sslkey=/tmp/e.so:k", "postgres://h/x?ssl%6bey=/tmp/e.so:k", "postgresql://h/x%3Fsslmode%3Ddisable", "x y", "x\tsslmode=disable", "a&b"} {
			_, err := executor.Validate(rt, with(db))
			var ve *executor.ValidationError
			if !errors.As(err, &ve) || !strings.Contains(err.Error(), "does not match pattern") {
				t.Errorf("%s database %q: want a refusal, got %v", tool, db, err)
			}
		}
		for _, db := range []string{"postgres", "my-db_2", "postgresql:///postgres", "postgresql://user:secret@db.example:5433/app", "postgres://[::1]/x"} {
			if _, err := executor.Validate(rt, with(db)); err != nil {
				t.Errorf("%s database %q: %v", tool, db, err)
			}
		}
	}
}

// TestPsqlPinnedPolicy checks the documented policy: a call that names
// another server, by host, port or a URI in database, is refused, so the
// operator's password (PGPASSWORD, a .pgpass line for host '*') goes only
// to the pinned one.
func TestPsqlPinnedPolicy(t *testing.T) {
	p, err := config.ParsePolicy([]byte(psqlPinnedPolicy), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ix := bundledIndex(t, "psql", p)
	for _, tool := range []string{"psql_query", "psql_script", "psql_list_databases", "psql_list_tables"} {
		rt, ok := ix.Get(tool)
		if !ok {
			t.Fatalf("the policy does not serve %s", tool)
		}
		args := func(kv ...any) map[string]any {
			m := map[string]any{"sql": "SELECT 1", "script": "SELECT 1;"}
			for i := 0; i < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		}
		for _, bad := range []map[string]any{
			args("host", "attacker.example"),
			args("host", "db.internal.attacker.example"),
			args("host", "db.internal", "port", 6432),
			args("database", "postgresql://attacker.example/app"),
		} {
			_, err := executor.Validate(rt, bad)
			if err == nil || !strings.Contains(err.Error(), "Policy validation failed") {
				t.Errorf("%s %v: want the policy's refusal, got %v", tool, bad, err)
			}
		}
		for _, good := range []map[string]any{args(), args("host", "db.internal", "port", 5432, "database", "app", "user", "reader")} {
			if _, err := executor.Validate(rt, good); err != nil {
				t.Errorf("%s %v: %v", tool, good, err)
			}
		}
	}
}
