module github.com/climax-mcp/climax/configs/realtest

go 1.26

require (
	github.com/climax-mcp/climax/configs v0.1.0
	github.com/climax-mcp/climax/executor v0.1.0
	github.com/climax-mcp/climax/index v0.1.0
)

require (
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/sys v0.41.0 // indirect
)
