module github.com/climax-mcp/climax/configs

go 1.26
