module github.com/climax-mcp/climax/benchmark

go 1.26
