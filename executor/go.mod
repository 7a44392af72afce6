module github.com/climax-mcp/climax/executor

go 1.26
