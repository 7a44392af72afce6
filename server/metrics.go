package server

import (
	"bytes"
	"net/http"
	"strings"
	"time"

	vm "github.com/VictoriaMetrics/metrics"
)

// MetricsPath is where the HTTP transport serves the metrics, in the
// Prometheus text format, behind the same token as the MCP endpoint.
const MetricsPath = "/metrics"

// unknownToolLabel is the tool label of calls of names no config defines,
// so that callers cannot grow the label set at will.
const unknownToolLabel = "(unknown)"

// Buckets of the duration histograms, in seconds.
var (
	callBuckets   = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300}
	searchBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1}
)

// A family is one metric family: its HELP and TYPE lines and the set of
// its series.
type family struct {
	name, typ, help string
	set             *vm.Set
}

func newFamily(name, typ, help string) *family {
	return &family{name: name, typ: typ, help: help, set: vm.NewSet()}
}

// metrics are the server's metrics. The library (VictoriaMetrics/metrics)
// does no work at package initialisation beyond reading a few cgroup
// files, where the Prometheus client library cost every start, stdio
// included, more than a millisecond (README, Benchmarks).
type metrics struct {
	families []*family // in the order of the exposition

	calls, callDuration *family // series per tool (and outcome)
	inFlight            *vm.Gauge
	searches            *vm.Counter
	searchDuration      *vm.PrometheusHistogram
	auditDropped        *vm.Counter
}

// newMetrics creates the metrics; sessions reports the live MCP sessions
// when scraped.
func newMetrics(sessions func() int) *metrics {
	m := &metrics{
		calls:        newFamily("climax_tool_calls_total", "counter", "Tool calls by tool and outcome (ok, error, refused, timeout, cancelled)."),
		callDuration: newFamily("climax_tool_call_duration_seconds", "histogram", "Duration of tool calls, from the request to the result, by tool."),
	}
	inFlight := newFamily("climax_tool_calls_in_flight", "gauge", "Tool calls being answered now (waiting for a slot or running).")
	m.inFlight = inFlight.set.NewGauge(inFlight.name, nil)
	searches := newFamily("climax_searches_total", "counter", "climax_search calls.")
	m.searches = searches.set.NewCounter(searches.name)
	searchDuration := newFamily("climax_search_duration_seconds", "histogram", "Duration of climax_search calls.")
	m.searchDuration = searchDuration.set.NewPrometheusHistogramExt(searchDuration.name, searchBuckets)
	auditDropped := newFamily("climax_audit_records_dropped_total", "counter", "Audit log records dropped because the log was not written as fast as calls ended.")
	m.auditDropped = auditDropped.set.NewCounter(auditDropped.name)
	live := newFamily("climax_sessions", "gauge", "Live MCP sessions.")
	live.set.NewGauge(live.name, func() float64 { return float64(sessions()) })
	m.families = []*family{auditDropped, searchDuration, searches, live, m.callDuration, inFlight, m.calls} // by name
	return m
}

// called records one finished call of tool (unknownToolLabel for a name
// no config defines) with its outcome and duration.
func (m *metrics) called(tool, outcome string, d time.Duration) {
	t := labelValue(tool)
	m.calls.set.GetOrCreateCounter(m.calls.name + `{outcome="` + labelValue(outcome) + `",tool="` + t + `"}`).Inc()
	m.callDuration.set.GetOrCreatePrometheusHistogramExt(m.callDuration.name+`{tool="`+t+`"}`, callBuckets).Update(d.Seconds())
}

// searched records one climax_search call.
func (m *metrics) searched(d time.Duration) {
	m.searches.Inc()
	m.searchDuration.Update(d.Seconds())
}

// handler serves the metrics in the Prometheus text format: climax's
// families with their HELP and TYPE lines, then the Go runtime's and the
// process's (go_*, process_*).
func (m *metrics) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b bytes.Buffer
		for _, f := range m.families {
			b.WriteString("# HELP " + f.name + " " + f.help + "\n# TYPE " + f.name + " " + f.typ + "\n")
			f.set.WritePrometheus(&b)
		}
		vm.WriteProcessMetrics(&b)
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		w.Write(b.Bytes())
	})
}

// labelEscaper escapes a label value as the text format requires.
var labelEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

func labelValue(s string) string { return labelEscaper.Replace(s) }
