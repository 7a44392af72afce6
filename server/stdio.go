package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves MCP over in and out (newline-delimited JSON-RPC) until
// in reaches EOF and every request read from it has been answered, or ctx
// is done. It returns nil after EOF, ctx's error when ctx ended the
// session. in and out are not closed.
//
// go-sdk v1.8.0 can lose the replies to requests still running when its
// input reaches EOF (go-sdk issue 1061), so that `printf '…' | climax git`
// printed nothing. ServeStdio therefore withholds EOF from go-sdk until
// each request id seen on in has had its response written to out (or was
// cancelled by the client).
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g := newEOFGuard(ctx, in, out)
	ss, err := s.mcp.Connect(ctx, &mcp.IOTransport{Reader: g, Writer: guardWriter{g}}, nil)
	if err != nil {
		return fmt.Errorf("serve stdio: %w", err)
	}
	s.log.Debug("stdio session started", "classic", s.cfg.classic)
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		ss.Close()
		<-done
		s.log.Debug("stdio session ended", "reason", context.Cause(ctx))
		return ctx.Err()
	}
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
		s.log.Debug("stdio session ended", "error", err)
		return fmt.Errorf("serve stdio: %w", err)
	}
	s.log.Debug("stdio session ended")
	return nil
}

// eofGuard sits between the stdio streams and go-sdk. It passes bytes
// through unchanged, noting the ids of the requests it reads (lines with
// "method" and "id") and of the responses written back (lines with "id"
// and no "method"). At input EOF it waits until every noted request has
// been answered before go-sdk sees EOF.
type eofGuard struct {
	ctx context.Context
	in  *bufio.Reader
	out io.Writer

	rbuf []byte // rest of the line being read

	wmu  sync.Mutex
	wbuf []byte // incomplete line being written

	mu      sync.Mutex
	pending map[string]int // request id key → requests not yet answered
	changed chan struct{}  // closed (and replaced) when pending shrinks

	closeOnce sync.Once
	closed    chan struct{}
}

func newEOFGuard(ctx context.Context, in io.Reader, out io.Writer) *eofGuard {
	return &eofGuard{
		ctx:     ctx,
		in:      bufio.NewReader(in),
		out:     out,
		pending: map[string]int{},
		changed: make(chan struct{}),
		closed:  make(chan struct{}),
	}
}

// Read implements io.Reader. go-sdk reads from one goroutine.
func (g *eofGuard) Read(p []byte) (int, error) {
	if len(g.rbuf) == 0 {
		line, err := g.in.ReadBytes('\n')
		if len(line) > 0 {
			g.noteIncoming(line)
			g.rbuf = line
		} else if err != nil {
			if err == io.EOF {
				g.waitAnswered()
			}
			return 0, err
		}
	}
	n := copy(p, g.rbuf)
	g.rbuf = g.rbuf[n:]
	return n, nil
}

// Close unblocks a Read waiting at EOF. It does not close the input, which
// belongs to the caller.
func (g *eofGuard) Close() error {
	g.closeOnce.Do(func() { close(g.closed) })
	return nil
}

// waitAnswered returns when no request is pending, ctx is done or the
// guard is closed.
func (g *eofGuard) waitAnswered() {
	for {
		g.mu.Lock()
		n, ch := len(g.pending), g.changed
		g.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-ch:
		case <-g.ctx.Done():
			return
		case <-g.closed:
			return
		}
	}
}

// write passes p to the output and notes the responses it holds. go-sdk
// writes whole messages, but partial lines are handled too.
func (g *eofGuard) write(p []byte) (int, error) {
	g.wmu.Lock()
	defer g.wmu.Unlock()
	n, err := g.out.Write(p)
	g.wbuf = append(g.wbuf, p[:n]...)
	for {
		i := bytes.IndexByte(g.wbuf, '\n')
		if i < 0 {
			break
		}
		g.noteOutgoing(g.wbuf[:i])
		g.wbuf = g.wbuf[i+1:]
	}
	if len(g.wbuf) == 0 {
		g.wbuf = nil // let a large message's buffer go
	}
	return n, err
}

// guardWriter is the write side of an eofGuard, as an io.WriteCloser that
// does not close the output.
type guardWriter struct{ g *eofGuard }

func (w guardWriter) Write(p []byte) (int, error) { return w.g.write(p) }
func (w guardWriter) Close() error                { return nil }

// message holds the fields of a JSON-RPC message the guard looks at.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method *string         `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// messages decodes one line: a message or a batch of them. Lines that are
// not JSON-RPC give nothing; go-sdk deals with them.
func messages(line []byte) []message {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	if line[0] == '[' {
		var raws []json.RawMessage
		if json.Unmarshal(line, &raws) != nil {
			return nil
		}
		var out []message
		for _, r := range raws {
			var m message
			if json.Unmarshal(r, &m) == nil {
				out = append(out, m)
			}
		}
		return out
	}
	var m message
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	return []message{m}
}

func (g *eofGuard) noteIncoming(line []byte) {
	for _, m := range messages(line) {
		if m.Method == nil {
			continue // a response to a request of ours
		}
		if *m.Method == "notifications/cancelled" {
			// The client gave up on that request: do not wait for it.
			if k, ok := idKey(m.Params.RequestID); ok {
				g.answered(k, true)
			}
			continue
		}
		if k, ok := idKey(m.ID); ok {
			g.mu.Lock()
			g.pending[k]++
			g.mu.Unlock()
		}
	}
}

func (g *eofGuard) noteOutgoing(line []byte) {
	for _, m := range messages(line) {
		if m.Method != nil {
			continue // a request or notification of ours
		}
		if k, ok := idKey(m.ID); ok {
			g.answered(k, false)
		}
	}
}

// answered removes one pending request with id key k, or all of them.
func (g *eofGuard) answered(k string, all bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n, ok := g.pending[k]
	if !ok {
		return
	}
	if n <= 1 || all {
		delete(g.pending, k)
	} else {
		g.pending[k] = n - 1
	}
	close(g.changed)
	g.changed = make(chan struct{})
}

// idKey normalises a JSON-RPC id (a string or an integer) to a map key.
// Other ids (absent, null, fractions, objects) are not tracked.
func idKey(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", false
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return "", false
	}
	switch x := v.(type) {
	case string:
		return "s:" + x, true
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return "n:" + strconv.FormatInt(i, 10), true
		}
		if f, err := x.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return "n:" + strconv.FormatInt(int64(f), 10), true
		}
	}
	return "", false
}
