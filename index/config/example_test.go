package config_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/climax-mcp/climax/index/config"
)

// A tool's input schema lists its arguments in definition order, with
// their types, descriptions, defaults and allowed values.
func ExampleTool_InputSchema() {
	cfg, err := config.Parse([]byte(`
name: git
command: git
tools:
  - name: git_log
    description: Show recent commits
    command: log
    args:
      - name: max_count
        type: integer
        description: Number of commits to show
        default: 10
        flag: -n
      - name: format
        description: Output format
        enum: [oneline, short, full]
        flag: --format
      - name: path
        description: Only commits touching this path
        required: true
        positional: true
`), "git.yaml")
	if err != nil {
		log.Fatal(err)
	}
	out, _ := json.MarshalIndent(cfg.Tools[0].InputSchema(), "", "  ")
	fmt.Println(string(out))
	// Output:
	// {
	//   "type": "object",
	//   "properties": {
	//     "max_count": {
	//       "type": "integer",
	//       "description": "Number of commits to show",
	//       "default": 10
	//     },
	//     "format": {
	//       "type": "string",
	//       "description": "Output format",
	//       "enum": [
	//         "oneline",
	//         "short",
	//         "full"
	//       ]
	//     },
	//     "path": {
	//       "type": "string",
	//       "description": "Only commits touching this path"
	//     }
	//   },
	//   "required": [
	//     "path"
	//   ]
	// }
}

// Parse reports every problem in a file, each with its line and column.
func ExampleParse_errors() {
	_, err := config.Parse([]byte(`command: git
tools:
  - name: git_log
    description: Show recent commits
    args:
      - name: max_count
        type: int
        requried: true
`), "git.yaml")
	fmt.Println(err)
	// Output:
	// git.yaml:7:15: tool "git_log": arg "max_count": unknown type "int" (did you mean "integer"?): valid types are string, integer, number, boolean, array, json
	// git.yaml:8:9: tool "git_log": arg "max_count": unknown key "requried" (did you mean "required"?)
}
