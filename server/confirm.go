package server

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/server/localconfirm"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Answers to an approval request, as the audit log records them for each
// call of a tool that needs approval (docs/security.md).
const (
	ApprovalConfirmed  = "confirmed"  // the user approved: the command ran (unless a reload meanwhile refused it)
	ApprovalDeclined   = "declined"   // the user declined or dismissed the request
	ApprovalUnanswered = "unanswered" // no answer in time, the call was cancelled, or asking failed
	ApprovalNotAsked   = "not_asked"  // the client cannot be asked (see WithConfirmFallback)
)

// DefaultConfirmTimeout is how long a call waits for the user's answer by
// default.
const DefaultConfirmTimeout = 5 * time.Minute

// The sentence added to the server's instructions when some tools need
// the user's approval, in discovery and in classic mode.
const (
	DiscoveryConfirmInstructions = "Some tools ask the user to approve the exact command before it runs (climax_search marks them \"confirm\": true); when the user declines, nothing runs: do not retry the same call unless the user asks for it."
	ClassicConfirmInstructions   = "Some tools ask the user to approve the exact command before it runs; when the user declines, nothing runs: do not retry the same call unless the user asks for it."
)

func confirmInstructions(classic bool) string {
	if classic {
		return ClassicConfirmInstructions
	}
	return DiscoveryConfirmInstructions
}

// needsApproval reports whether some tool of ix needs the user's approval.
func needsApproval(ix *index.Index) bool {
	for _, rt := range ix.Tools() {
		if rt.Confirm {
			return true
		}
	}
	return false
}

// WithConfirmTimeout sets how long a call of a tool that needs approval
// waits for the user's answer (default [DefaultConfirmTimeout]); d <= 0
// keeps the default.
func WithConfirmTimeout(d time.Duration) Option {
	return func(c *options) {
		if d > 0 {
			c.confirmTimeout = d
		}
	}
}

// WithConfirmFallback sets what happens to a call of a tool that needs
// approval when the client cannot be asked (it declared no elicitation
// capability, or speaks an older protocol over stateless HTTP): with allow
// false (the default) the call is refused; with allow true it runs
// unconfirmed and a warning is logged.
//
// Without this option the policy's approval.headless decides (approve
// runs the call, deny or nothing refuses it).
func WithConfirmFallback(allow bool) Option {
	return func(c *options) { c.confirmFallbackAllow, c.confirmFallbackSet = allow, true }
}

// The ways to ask for approval when the client cannot be asked
// ([WithConfirmVia], climax --confirm-via).
const (
	// ViaClient asks only the client: a call it cannot be asked about
	// gets the fallback (WithConfirmFallback). The default.
	ViaClient = "client"
	// ViaDialog also tries a native dialog on this machine.
	ViaDialog = "dialog"
	// ViaTTY also tries the terminal the server runs in.
	ViaTTY = "tty"
	// ViaAuto tries a native dialog when a display is present, then the
	// terminal.
	ViaAuto = "auto"
)

// WithConfirmVia sets how a call that needs approval is asked about when
// the client cannot be asked: one of [ViaClient], [ViaDialog], [ViaTTY] and
// [ViaAuto] (docs/security.md, Approving calls). Only when no way is left
// does the fallback apply.
func WithConfirmVia(via string) Option { return func(c *options) { c.confirmVia = via } }

// protocolInputRequests is the first protocol version in which a server
// asks the client for input by answering the call with input requests,
// which the client retries with the answers, instead of sending requests
// of its own while the call runs.
const protocolInputRequests = "2026-07-28"

// approvalInputID is the key of the approval in a call's input requests.
const approvalInputID = "climax_approval"

// approvalSchema is the requested schema of an approval: one boolean.
var approvalSchema = json.RawMessage(`{"type":"object","properties":{"approve":{"type":"boolean","title":"Run this command","description":"Approve to run the command shown above; nothing runs otherwise.","default":false}},"required":["approve"]}`)

// errNoAnswer is the cause of the end of a wait for the user's answer.
var errNoAnswer = errors.New("no answer in time")

// errInputRequired stops a call whose approval the client gives in a
// retry; the handler answers with approval.input.
var errInputRequired = errors.New("input required")

// An approval asks the user to approve one call of a tool that needs it
// (see [Server.execute]); the audit log records its state.
type approval struct {
	s    *Server
	req  *mcp.CallToolRequest
	hb   *heartbeat
	args map[string]any // the tool's arguments, to check them again after the wait

	// state is one of the Approval constants once the tool needed approval.
	state string
	// refused is set when the command was kept from running.
	refused bool
	// input is the input-required answer of a call that the client is to
	// retry with the user's answer.
	input *mcp.CallToolResult
}

func (s *Server) newApproval(req *mcp.CallToolRequest, hb *heartbeat, args map[string]any) *approval {
	return &approval{s: s, req: req, hb: hb, args: args}
}

// confirm decides whether cmd may run: it asks the user, in the way the
// session allows, or applies the fallback when it cannot ask.
func (a *approval) confirm(ctx context.Context, rt *config.ResolvedTool, cmd *executor.Command) error {
	tool := rt.Tool.Name
	// The question is made only once someone will be asked: resolvers
	// never run for a call that is refused without asking.
	ask := func() *mcp.ElicitParams {
		return &mcp.ElicitParams{Mode: "form", Message: a.question(ctx, rt, cmd), RequestedSchema: approvalSchema}
	}
	if usesInputRequests(a.req) {
		if reason := formUnsupported(a.req.ClientCapabilities()); reason != "" {
			return a.notAsked(ctx, rt, cmd, reason)
		}
		return a.viaRetry(tool, cmd, ask)
	}
	if reason := a.cannotAsk(ctx); reason != "" {
		return a.notAsked(ctx, rt, cmd, reason)
	}
	// A question the client can no longer answer is given up at once:
	// the session's input ended, or the client closed the session.
	ended := infoFrom(ctx).ended
	if ended == nil {
		ended = context.Background() // never done
	}
	if ended.Err() != nil {
		return a.sessionEnded(tool, context.Cause(ended))
	}
	params := ask()
	timeout := a.s.cfg.confirmTimeout
	wait, giveUp := context.WithCancelCause(ctx)
	defer giveUp(nil)
	stopWatch := context.AfterFunc(ended, func() { giveUp(context.Cause(ended)) })
	defer stopWatch()
	wait, cancel := context.WithTimeoutCause(wait, timeout, errNoAnswer)
	defer cancel()
	a.hb.set("waiting for the user to approve " + tool)
	a.s.log.Info("asking the user", "tool", tool)
	res, err := a.req.Session.Elicit(wait, params)
	a.hb.set("running " + tool)
	switch {
	case err == nil:
		if err := a.decide(tool, res); err != nil {
			return err
		}
		return a.recheck(rt, cmd)
	case ctx.Err() != nil:
		return a.stop(tool, ApprovalUnanswered, fmt.Sprintf("The call was cancelled while waiting for the user's approval of %s: nothing ran.", tool))
	case ended.Err() != nil:
		return a.sessionEnded(tool, context.Cause(ended))
	case context.Cause(wait) == errNoAnswer:
		return a.stop(tool, ApprovalUnanswered, fmt.Sprintf("The user did not answer the approval request for %s within %s: nothing ran.", tool, timeout))
	}
	a.s.log.Warn("approval request failed", "tool", tool, "error", err)
	return a.stop(tool, ApprovalUnanswered, fmt.Sprintf("Could not get the user's approval for %s (%v): nothing ran.", tool, err))
}

// decide applies the user's answer.
func (a *approval) decide(tool string, res *mcp.ElicitResult) error {
	switch {
	case res == nil:
		return a.stop(tool, ApprovalUnanswered, fmt.Sprintf("The client gave no answer to the approval request for %s: nothing ran.", tool))
	case res.Action == "accept" && res.Content["approve"] == true:
		a.state = ApprovalConfirmed
		a.s.log.Info("approved by the user", "tool", tool)
		return nil
	case res.Action == "cancel":
		return a.stop(tool, ApprovalDeclined, fmt.Sprintf("The user dismissed the approval request for %s: nothing ran.", tool))
	}
	return a.stop(tool, ApprovalDeclined, fmt.Sprintf("The user declined to run %s: nothing ran.", tool))
}

// recheck refuses an approved call when the tool set was replaced (a
// reload under --watch) while the user was asked and the current set
// would not run the same command: the tool is gone (disabled by the
// policy, removed from its config), the arguments no longer pass its
// checks (a new pattern), or they build another command line. A wait for
// an answer can last minutes; what runs must be what the current set
// allows, not what it allowed when the question was asked.
func (a *approval) recheck(rt *config.ResolvedTool, cmd *executor.Command) error {
	tool := rt.Tool.Name
	cur, ok := a.s.tools().ix.Get(tool)
	if cur == rt {
		return nil
	}
	const reloaded = "%s was approved, but the served tools were reloaded while the user was asked, and %s. Nothing ran."
	if !ok {
		a.s.log.Info("not run: the tool is gone since the user was asked", "tool", tool)
		return a.stop(tool, ApprovalConfirmed, fmt.Sprintf(reloaded, tool, "it is no longer among them"))
	}
	values, err := executor.Validate(cur, a.args)
	var now *executor.Command
	if err == nil {
		now, err = executor.Build(cur, values)
	}
	if err != nil {
		a.s.log.Info("not run: the current tools refuse the call the user approved", "tool", tool, "error", oneLine(err.Error()))
		return a.stop(tool, ApprovalConfirmed, fmt.Sprintf(reloaded, tool, "they refuse this call now:\n"+err.Error()))
	}
	if commandDigest(tool, now) != commandDigest(tool, cmd) {
		a.s.log.Info("not run: the command the user approved is not the one the current tools build", "tool", tool)
		return a.stop(tool, ApprovalConfirmed, fmt.Sprintf(reloaded, tool, "they build another command from these arguments now; call it again to be asked about that one"))
	}
	return nil
}

// viaRetry handles approval under [protocolInputRequests]: the first
// round answers with an input request and a signed request state bound to
// the exact command; the client retries the call with the user's answer
// and that state, and the command runs only if the state proves that the
// answer is about this command, not expired and not used before.
func (a *approval) viaRetry(tool string, cmd *executor.Command, ask func() *mcp.ElicitParams) error {
	p := a.req.Params
	digest := commandDigest(tool, cmd)
	if p.RequestState != "" {
		switch err := a.s.approvals.redeem(p.RequestState, digest); {
		case errors.Is(err, errApprovalExpired):
			return a.stop(tool, ApprovalUnanswered, fmt.Sprintf("The user did not answer the approval request for %s within %s: nothing ran.", tool, a.s.cfg.confirmTimeout))
		case err == nil:
			if res, ok := p.InputResponses[approvalInputID].(*mcp.ElicitResult); ok {
				return a.decide(tool, res)
			}
			a.s.log.Info("approval retried without an answer: asking again", "tool", tool)
		default:
			// Another command, a state from elsewhere or used before:
			// the answer is not about this call.
			a.s.log.Info("approval state not accepted: asking again", "tool", tool, "reason", err)
		}
	}
	a.input = &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{approvalInputID: ask()},
		RequestState:  a.s.approvals.issue(digest, a.s.cfg.confirmTimeout),
	}
	a.s.log.Info("asking the user", "tool", tool, "via", "input request")
	return errInputRequired
}

// sessionEnded refuses a call whose question can no longer be answered:
// cause says how the client's session ended.
func (a *approval) sessionEnded(tool string, cause error) error {
	a.s.log.Info("approval request given up: the session ended", "tool", tool, "reason", cause)
	return a.stop(tool, ApprovalUnanswered, fmt.Sprintf("The session ended before the user answered the approval request for %s (%v): nothing ran.", tool, cause))
}

// usesInputRequests reports whether the call is on a protocol where the
// server asks for input in its answer ([protocolInputRequests] or later).
// Both the request and its session must be: the session's version is the
// one agreed at initialize (see agreedVersion), or in server/discover or
// the first request's metadata for a session without initialize, and
// go-sdk marks an answer "input_required" only on such sessions. A session
// agreed at initialize is never on that protocol, whatever the client
// asked for, and is asked with elicitation/create.
func usesInputRequests(req *mcp.CallToolRequest) bool {
	if req.ProtocolVersion() < protocolInputRequests || req.Session == nil {
		return false
	}
	ip := req.Session.InitializeParams()
	return ip != nil && ip.ProtocolVersion >= protocolInputRequests
}

// agreedVersion is the protocol version initialize agrees on when a client
// asks for requested, as go-sdk answers it: requested itself when go-sdk
// supports it and it predates [protocolInputRequests] (which has no
// initialize), else the newest supported version before that.
func agreedVersion(requested string) string {
	supported := mcp.SupportedProtocolVersions() // newest first
	if requested < protocolInputRequests && slices.Contains(supported, requested) {
		return requested
	}
	for _, v := range supported {
		if v < protocolInputRequests {
			return v
		}
	}
	return requested
}

// newSessionEnd returns the context that is done when the client of a
// new session can no longer answer a question (reqInfo.ended): its stdio
// input ended, or it closed its HTTP session; its cause says which. It
// returns it and the function that ends it, with the cause; it lives as long
// as the session, past the function that creates it.
func newSessionEnd() (context.Context, context.CancelCauseFunc) {
	return context.WithCancelCause(context.Background())
}

// Causes of the end of a session, as reqInfo.ended gives them.
var (
	errInputEnded    = errors.New("the client's input ended")
	errSessionClosed = errors.New("the client closed the session")
	errStreamClosed  = errors.New("the client closed the session's event stream")
)

// cannotAsk says why the client of a session on an older protocol cannot
// be asked, or returns "".
func (a *approval) cannotAsk(ctx context.Context) string {
	if infoFrom(ctx).stateless {
		return "this server runs stateless HTTP, where it cannot send the client a request while a call runs (clients on protocol " + protocolInputRequests + " can answer in a retried call)"
	}
	if a.req.Session == nil {
		return "the call has no client session"
	}
	var caps *mcp.ClientCapabilities
	if ip := a.req.Session.InitializeParams(); ip != nil {
		caps = ip.Capabilities
	}
	return formUnsupported(caps)
}

// formUnsupported says why a client with caps cannot answer a form
// elicitation, or returns "".
func formUnsupported(caps *mcp.ClientCapabilities) string {
	switch {
	case caps == nil || caps.Elicitation == nil:
		return "the client did not declare the elicitation capability"
	case caps.Elicitation.Form == nil && caps.Elicitation.URL != nil:
		return "the client supports only URL elicitation, not forms"
	}
	return ""
}

// notAsked asks on this machine (--confirm-via) a call whose client
// cannot be asked, and applies the fallback when no way is left: the
// operator's (WithConfirmFallback), else the policy's approval.headless.
func (a *approval) notAsked(ctx context.Context, rt *config.ResolvedTool, cmd *executor.Command, reason string) error {
	tool := rt.Tool.Name
	if asker, why := a.local(); asker != nil {
		return a.askLocally(ctx, rt, cmd, asker)
	} else if why != "" {
		reason += "; " + why
	}
	a.state = ApprovalNotAsked
	allow := a.s.cfg.confirmFallbackAllow
	if !a.s.cfg.confirmFallbackSet {
		allow = rt.Headless == config.HeadlessApprove
	}
	if allow {
		a.s.log.Warn("running without the user's approval (--confirm-fallback allow, or headless: approve in the policy)", "tool", tool, "reason", reason)
		return nil
	}
	a.s.log.Info("not run: approval needed but not possible", "tool", tool, "reason", reason)
	a.refused = true
	return fmt.Errorf("%s needs the user's approval before it runs, and CLImax could not ask for it: %s. Nothing ran. "+
		"An operator can change this: exempt the tool (confirm: false under its name in the policy), loosen the rule "+
		"(--confirm, or confirm: in the policy), ask on this machine (--confirm-via auto, dialog or tty), "+
		"or let such calls run unapproved with --confirm-fallback allow.", tool, reason)
}

// local returns the way to ask on this machine that --confirm-via allows
// and is available, or why there is none ("" for --confirm-via client).
func (a *approval) local() (*localconfirm.Asker, string) {
	via := a.s.cfg.confirmVia
	var whys []string
	if via == ViaDialog || via == ViaAuto && localconfirm.HasDisplay(os.Getenv) {
		d, err := localconfirm.Dialog(os.Getenv, exec.LookPath)
		if err == nil {
			return d, ""
		}
		whys = append(whys, "no dialog: "+err.Error())
	}
	if via == ViaTTY || via == ViaAuto {
		t, err := localconfirm.TTY()
		if err == nil {
			return t, ""
		}
		whys = append(whys, err.Error())
	}
	return nil, strings.Join(whys, "; ")
}

// askLocally asks the user on this machine, within --confirm-timeout.
func (a *approval) askLocally(ctx context.Context, rt *config.ResolvedTool, cmd *executor.Command, asker *localconfirm.Asker) error {
	tool := rt.Tool.Name
	q := a.question(ctx, rt, cmd)
	timeout := a.s.cfg.confirmTimeout
	wait, cancel := context.WithTimeoutCause(ctx, timeout, errNoAnswer)
	defer cancel()
	a.hb.set("waiting for the user to approve " + tool)
	a.s.log.Info("asking the user", "tool", tool, "via", asker.Name)
	ok, err := asker.Ask(wait, q)
	a.hb.set("running " + tool)
	switch {
	case ctx.Err() != nil:
		return a.stop(tool, ApprovalUnanswered, fmt.Sprintf("The call was cancelled while waiting for the user's approval of %s: nothing ran.", tool))
	case context.Cause(wait) == errNoAnswer:
		return a.stop(tool, ApprovalUnanswered, fmt.Sprintf("The user did not answer the approval request for %s within %s: nothing ran.", tool, timeout))
	case err != nil:
		a.s.log.Warn("approval request failed", "tool", tool, "via", asker.Name, "error", err)
		return a.stop(tool, ApprovalUnanswered, fmt.Sprintf("Could not get the user's approval for %s (%s: %v): nothing ran.", tool, asker.Name, err))
	case ok:
		a.state = ApprovalConfirmed
		a.s.log.Info("approved by the user", "tool", tool, "via", asker.Name)
		return a.recheck(rt, cmd)
	}
	return a.stop(tool, ApprovalDeclined, fmt.Sprintf("The user declined to run %s: nothing ran.", tool))
}

// stop records a refusal and returns its text as the error.
func (a *approval) stop(tool, state, text string) error {
	a.state = state
	a.refused = true
	a.s.log.Info("not run", "tool", tool, "approval", state)
	return errors.New(text)
}

// question runs the tool's resolvers, if it has any, and returns the
// approval question (approvalMessage).
func (a *approval) question(ctx context.Context, rt *config.ResolvedTool, cmd *executor.Command) string {
	var res executor.Resolution
	if len(rt.Tool.Resolve) > 0 {
		a.hb.set("resolving the approval question of " + rt.Tool.Name)
		res = a.s.runner.Resolve(ctx, rt, cmd)
		for _, f := range res.Failures {
			a.s.log.Warn("resolver failed", "tool", rt.Tool.Name, "problem", f)
		}
	}
	return approvalMessage(rt, cmd, res)
}

// approvalMessage is what the user is asked: the tool's confirm message
// filled from the call and the resolution (else "Allow TOOL to run this
// command?"), the resolvers that failed, the command line and the working
// directory (secret values as "***"), and the executor.
func approvalMessage(rt *config.ResolvedTool, cmd *executor.Command, res executor.Resolution) string {
	var b strings.Builder
	if q := executor.ConfirmText(rt.Tool, cmd, res); q != "" {
		b.WriteString(q)
		for _, f := range res.Failures {
			fmt.Fprintf(&b, "\n(%s)", executor.EscapeControl(f))
		}
		b.WriteString("\n\n")
	} else {
		fmt.Fprintf(&b, "Allow %s to run this command?\n\n", rt.Tool.Name)
	}
	fmt.Fprintf(&b, "%s\n", executor.ShellQuote(cmd.Redacted()))
	dir := cmd.RedactedDir()
	if dir == "" {
		dir, _ = os.Getwd()
	}
	// Quoted as the command is, so that a directory name with a newline
	// cannot fake another line of the question.
	fmt.Fprintf(&b, "\nWorking directory: %s", executor.ShellQuote([]string{dir}))
	if rt.Executor.IsDocker() {
		fmt.Fprintf(&b, "\nExecutor: %s, image %s", rt.Executor.Program(), rt.Executor.Image)
	} else {
		b.WriteString("\nExecutor: local")
	}
	if cmd.Stdin != "" {
		fmt.Fprintf(&b, "\nStandard input: %d %s", len(cmd.Stdin), plural(len(cmd.Stdin), "byte", "bytes"))
	}
	return b.String()
}

// commandDigest identifies what would run: the tool and everything of
// the command that reaches the process.
func commandDigest(tool string, cmd *executor.Command) [sha256.Size]byte {
	data, _ := json.Marshal(struct {
		Tool       string
		Argv       []string
		Dir        string
		Env        []string
		InheritEnv []string
		Stdin      string
	}{tool, cmd.Argv, cmd.Dir, cmd.Env, cmd.InheritEnv, cmd.Stdin})
	return sha256.Sum256(data)
}

// Reasons a request state is not accepted.
var (
	errApprovalExpired = errors.New("the approval request expired")
	errApprovalInvalid = errors.New("not a request state of this server")
	errApprovalOther   = errors.New("the state is for another command")
	errApprovalUsed    = errors.New("the state was used before")
)

// approvals issues and redeems the request states of approvals asked
// through input requests. A state is signed with the first of keys and
// accepted when signed with any of them: by default one random key of this
// process, so that a state from another process (a replica behind a load
// balancer) is not accepted and the user is asked again; replicas given
// the same keys ([WithApprovalKeys]) accept each other's states. Each
// state is accepted once by each process.
type approvals struct {
	keys [][]byte

	mu   sync.Mutex
	used map[string]time.Time // nonce -> expiry of the redeemed states
}

// newApprovals returns approvals signing with keys[0], or with a random key
// when keys is empty.
func newApprovals(keys [][]byte) *approvals {
	if len(keys) == 0 {
		key := make([]byte, 32)
		rand.Read(key)
		keys = [][]byte{key}
	}
	return &approvals{keys: keys, used: map[string]time.Time{}}
}

// approvalState is the signed content of a request state.
type approvalState struct {
	Digest  []byte `json:"d"`
	Nonce   []byte `json:"n"`
	Expires int64  `json:"e"` // Unix milliseconds
}

// issue returns a request state for the command with digest, valid for
// ttl.
func (ap *approvals) issue(digest [sha256.Size]byte, ttl time.Duration) string {
	nonce := make([]byte, 16)
	rand.Read(nonce)
	payload, _ := json.Marshal(approvalState{Digest: digest[:], Nonce: nonce, Expires: time.Now().Add(ttl).UnixMilli()})
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(sign(ap.keys[0], payload))
}

func sign(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	return m.Sum(nil)
}

// signedByOne reports whether sig is the signature of payload with one of
// the keys.
func (ap *approvals) signedByOne(payload, sig []byte) bool {
	for _, k := range ap.keys {
		if hmac.Equal(sig, sign(k, payload)) {
			return true
		}
	}
	return false
}

// redeem accepts state once for the command with digest.
func (ap *approvals) redeem(state string, digest [sha256.Size]byte) error {
	enc := base64.RawURLEncoding
	p64, s64, ok := strings.Cut(state, ".")
	payload, err1 := enc.DecodeString(p64)
	sig, err2 := enc.DecodeString(s64)
	if !ok || err1 != nil || err2 != nil || !ap.signedByOne(payload, sig) {
		return errApprovalInvalid
	}
	var st approvalState
	if err := json.Unmarshal(payload, &st); err != nil {
		return errApprovalInvalid
	}
	if !hmac.Equal(st.Digest, digest[:]) {
		return errApprovalOther
	}
	now := time.Now()
	expires := time.UnixMilli(st.Expires)
	if now.After(expires) {
		return errApprovalExpired
	}
	ap.mu.Lock()
	defer ap.mu.Unlock()
	for n, exp := range ap.used {
		if now.After(exp) {
			delete(ap.used, n)
		}
	}
	nonce := string(st.Nonce)
	if _, used := ap.used[nonce]; used {
		return errApprovalUsed
	}
	ap.used[nonce] = expires
	return nil
}
