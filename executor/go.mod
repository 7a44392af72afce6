module github.com/climax-mcp/climax/executor

go 1.26

require (
	github.com/climax-mcp/climax/index v0.1.0
	golang.org/x/sys v0.41.0
)

require go.yaml.in/yaml/v3 v3.0.6 // indirect
