// Command climax turns command-line programs into MCP tools described by
// YAML configs.
package main

func main() {}
