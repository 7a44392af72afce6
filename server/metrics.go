package server

import (
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// MetricsPath is where the HTTP transport serves the metrics, in the
// Prometheus text format, behind the same token as the MCP endpoint.
const MetricsPath = "/metrics"

// unknownToolLabel is the tool label of calls of names no config defines,
// so that callers cannot grow the label set at will.
const unknownToolLabel = "(unknown)"

// metrics are the server's Prometheus collectors, in a registry of their
// own.
type metrics struct {
	reg            *prometheus.Registry
	calls          *prometheus.CounterVec
	callDuration   *prometheus.HistogramVec
	inFlight       prometheus.Gauge
	searches       prometheus.Counter
	searchDuration prometheus.Histogram
	auditDropped   prometheus.Counter
}

// newMetrics registers the collectors; sessions reports the live MCP
// sessions when scraped.
func newMetrics(sessions func() int) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "climax_tool_calls_total",
			Help: "Tool calls by tool and outcome (ok, error, refused, timeout, cancelled).",
		}, []string{"tool", "outcome"}),
		callDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "climax_tool_call_duration_seconds",
			Help:    "Duration of tool calls, from the request to the result, by tool.",
			Buckets: []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300},
		}, []string{"tool"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "climax_tool_calls_in_flight",
			Help: "Tool calls being answered now (waiting for a slot or running).",
		}),
		searches: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "climax_searches_total",
			Help: "climax_search calls.",
		}),
		searchDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "climax_search_duration_seconds",
			Help:    "Duration of climax_search calls.",
			Buckets: []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1},
		}),
		auditDropped: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "climax_audit_records_dropped_total",
			Help: "Audit log records dropped because the log was not written as fast as calls ended.",
		}),
	}
	m.reg.MustRegister(m.calls, m.callDuration, m.inFlight, m.searches, m.searchDuration, m.auditDropped,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "climax_sessions",
			Help: "Live MCP sessions.",
		}, func() float64 { return float64(sessions()) }),
	)
	return m
}

// handler serves the metrics in the Prometheus text format. The Go
// runtime and process collectors join the registry on the first scrape:
// building them takes longer than the rest of a server's start, and a
// server that is never scraped (stdio) does not need them.
func (m *metrics) handler() http.Handler {
	h := promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
	var once sync.Once
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() {
			m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
		})
		h.ServeHTTP(w, r)
	})
}

// searched records one climax_search call.
func (m *metrics) searched(d time.Duration) {
	m.searches.Inc()
	m.searchDuration.Observe(d.Seconds())
}
