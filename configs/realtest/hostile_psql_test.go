package realtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// The psql fixture: a shared library whose constructor creates the
// canary, and a fake PostgreSQL server on 127.0.0.1 that accepts psql's
// SSLRequest. libpq reads a --dbname holding '=' (key=value pairs) or a
// postgresql:// URI's query as connection settings, and
// sslkey=ENGINE:KEY with a '/' in ENGINE makes OpenSSL load ENGINE as a
// shared library once the server agrees to TLS: a caller's database
// value would run code (the controls, in the three forms: key=value, URI
// query, percent-encoded key). Every psql tool holds database to a name
// or a URI without parameters (its pattern), so those values are refused
// before psql starts; host and user are single connection settings that
// libpq never parses for others.
var hostilePsql = &hostile{
	config: "psql",
	needs:  []string{"cc"},
	prepare: func(t *testing.T, dir, canaries string) {
		src := filepath.Join(dir, "lib", "evil.c")
		write(t, src, fmt.Sprintf(`#include <fcntl.h>
#include <unistd.h>
__attribute__((constructor)) static void evil(void) {
	int fd = open(%q, O_CREAT | O_WRONLY, 0644);
	if (fd >= 0) close(fd);
}
`, filepath.Join(canaries, "psql-sslkey-engine")))
		run(t, dir, "cc", "-shared", "-fPIC", "-o", filepath.Join(dir, "lib", "evil.so"), src)
		write(t, filepath.Join(dir, "client.pem"), selfSignedPEM(t))
		// Only the fixture's settings reach libpq: no service file,
		// sslkey or sslmode of the machine's.
		for _, k := range []string{"PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE", "PGUSER", "PGPASSWORD", "PGPASSFILE", "PGSERVICE", "PGSERVICEFILE", "PGSYSCONFDIR", "PGSSLMODE", "PGSSLCERT", "PGSSLKEY", "PGSSLROOTCERT", "PGGSSENCMODE", "PGOPTIONS"} {
			unsetenv(t, k)
		}
		// The default calls reach the fake server too.
		port := fakePostgres(t)
		psqlFakePort = port
		t.Setenv("PGHOST", "127.0.0.1")
		t.Setenv("PGPORT", port)
	},
	controls: func(dir string) []control {
		cert, key := filepath.Join(dir, "client.pem"), filepath.Join(dir, "lib", "evil.so")+":k"
		ctl := func(database string) control {
			return control{canary: []string{"psql-sslkey-engine"}, dir: dir, stop: 20 * time.Second,
				argv: []string{"psql", "--no-psqlrc", "--no-password", "--list", "--dbname=" + database}}
		}
		return []control{
			ctl(psqlConninfo(dir)),
			ctl("postgresql://127.0.0.1:" + psqlFakePort + "/x?sslmode=require&sslcert=" + cert + "&sslkey=" + key),
			ctl("postgresql://127.0.0.1:" + psqlFakePort + "/x?sslmode=require&sslcert=" + cert + "&ssl%6bey=" + key),
		}
	},
	calls: func(dir string) []call {
		cert, key := filepath.Join(dir, "client.pem"), filepath.Join(dir, "lib", "evil.so")+":k"
		var calls []call
		for _, tool := range []string{"psql_list_databases", "psql_list_tables"} {
			calls = append(calls,
				call{tool: tool, args: a{"database": psqlConninfo(dir)}, refused: "does not match pattern"},
				call{tool: tool, args: a{"database": "postgresql://127.0.0.1:" + psqlFakePort + "/x?sslmode=require&sslcert=" + cert + "&sslkey=" + key}, refused: "does not match pattern"},
				call{tool: tool, args: a{"database": "postgresql://127.0.0.1:" + psqlFakePort + "/x%3Fsslmode%3Drequire"}, refused: "does not match pattern"},
				// A URI without parameters reaches the server it names,
				// under the operator's settings.
				call{tool: tool, args: a{"database": "postgresql://127.0.0.1:" + psqlFakePort + "/x"}, want: []string{"(the connection to the server failed)"}},
				// host and user are one setting each: the rest is part
				// of a host or user name, never a setting of its own.
				call{tool: tool, args: a{"host": "127.0.0.1 sslmode=require sslcert=" + cert + " sslkey=" + key, "database": "x"}, want: []string{"(the connection to the server failed)"}},
				call{tool: tool, args: a{"user": "u sslmode=require sslcert=" + cert + " sslkey=" + key}, want: []string{"(the connection to the server failed)"}},
			)
		}
		return calls
	},
	unsafe: func(dir string) []call {
		return []call{
			{tool: "psql_query", args: a{"sql": "SELECT 1", "database": psqlConninfo(dir)}, refused: "does not match pattern"},
			{tool: "psql_script", args: a{"script": "SELECT 1;", "database": psqlConninfo(dir)}, refused: "does not match pattern"},
		}
	},
}

// psqlFakePort is the port of the psql fixture's fake server, set by its
// prepare.
var psqlFakePort string

// psqlConninfo is the key=value form of the fixture's attack.
func psqlConninfo(dir string) string {
	return "host=127.0.0.1 port=" + psqlFakePort + " sslmode=require sslcert=" + filepath.Join(dir, "client.pem") + " sslkey=" + filepath.Join(dir, "lib", "evil.so") + ":k"
}

// fakePostgres serves, on 127.0.0.1 until the test ends, the first step
// of a PostgreSQL connection: 'N' to a GSSENCRequest, 'S' to an
// SSLRequest (after which libpq sets up TLS, loading the client key),
// then the close; any other message closes the connection at once. It returns the
// port.
func fakePostgres(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				var msg [8]byte
				for {
					if _, err := io.ReadFull(c, msg[:]); err != nil || binary.BigEndian.Uint32(msg[:4]) != 8 {
						return
					}
					switch binary.BigEndian.Uint32(msg[4:]) {
					case 80877104: // GSSENCRequest
						c.Write([]byte("N"))
					case 80877103: // SSLRequest
						// libpq loads the client key before its TLS
						// hello, which gets no answer but the close.
						c.Write([]byte("S"))
						c.SetReadDeadline(time.Now().Add(time.Second))
						c.Read(msg[:])
						return
					default:
						return
					}
				}
			}()
		}
	}()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// selfSignedPEM returns a self-signed certificate in PEM: libpq loads a
// client key only when it has a client certificate.
func selfSignedPEM(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "fixture"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}
