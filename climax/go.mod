module github.com/climax-mcp/climax/climax

go 1.26
