module github.com/climax-mcp/climax/server

go 1.26
