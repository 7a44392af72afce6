module github.com/climax-mcp/climax/metatools

go 1.26
