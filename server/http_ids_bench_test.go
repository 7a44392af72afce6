package server

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// BenchmarkCheckBodyIDs measures the id check of each HTTP POST body
// beside go-sdk's own decoding of the same body, for a typical tools/call
// and one near the 4 MiB body limit.
func BenchmarkCheckBodyIDs(b *testing.B) {
	for _, size := range []int{100, 4 << 20} {
		body := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"climax_call","arguments":{"tool_name":"fake_echo","args":{"message":"` + strings.Repeat("x", size) + `"}}}}`)
		name := "small"
		if size > 100 {
			name = "4MiB"
		}
		b.Run(name+"/check", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if _, ok := checkBodyIDs(body); !ok {
					b.Fatal("refused")
				}
			}
		})
		b.Run(name+"/go-sdk-decode", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if _, err := jsonrpc.DecodeMessage(body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
