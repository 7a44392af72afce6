package server_test

import (
	"testing"

	"github.com/climax-mcp/climax/server"
)

func TestJSONShape(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		json         string
		depth, items int
	}{
		{`1`, 0, 0},
		{`"a,b,[c]"`, 0, 0},
		{`[]`, 1, 0},
		{`{}`, 1, 0},
		{`[ ]`, 1, 0},
		{`[1]`, 1, 1},
		{`[1,2,3]`, 1, 3},
		{`{"a":1,"b":[]}`, 2, 2},
		{`[[],[],[]]`, 2, 3},
		{`{"a,\"b":["x,y",{"c":[ 1 , 2 ]}]}`, 4, 6},
		{"[\n\t[ ] ,\r\n1 ]", 2, 2},
	} {
		depth, items := server.JSONShape([]byte(tc.json))
		if depth != tc.depth || items != tc.items {
			t.Errorf("%s: depth %d items %d, want %d %d", tc.json, depth, items, tc.depth, tc.items)
		}
	}
}
