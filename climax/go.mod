module github.com/climax-mcp/climax/climax

go 1.26

require (
	github.com/alecthomas/kong v1.17.0
	github.com/climax-mcp/climax/configs v0.1.0
	github.com/climax-mcp/climax/executor v0.1.0
	github.com/climax-mcp/climax/index v0.1.0
	github.com/climax-mcp/climax/metatools v0.1.0
	github.com/climax-mcp/climax/server v0.1.0
	github.com/fsnotify/fsnotify v1.10.1
	github.com/rogpeppe/go-internal v1.16.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/sys v0.41.0
	golang.org/x/term v0.40.0
)

require (
	github.com/VictoriaMetrics/metrics v1.45.0 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/valyala/fastrand v1.1.0 // indirect
	github.com/valyala/histogram v1.2.0 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
	golang.org/x/time v0.15.0 // indirect
	golang.org/x/tools v0.42.0 // indirect
)
