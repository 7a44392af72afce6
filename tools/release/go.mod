module github.com/climax-mcp/climax/tools/release

go 1.26.0

require golang.org/x/mod v0.42.0
