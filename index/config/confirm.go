package config

import (
	"fmt"
	"slices"
	"strings"
)

// ConfirmRule says which tool calls need the user's approval before they
// run: the --confirm option of climax and the confirm setting of a policy.
// The rules are nested: each covers every tool the one before it covers.
type ConfirmRule string

// The confirm rules, from the loosest to the strictest. An empty rule is
// one nobody set: [ConfirmNone], except for the tools whose config
// declares a risk, which get [RiskDefaultConfirm].
const (
	// ConfirmNone asks for no call.
	ConfirmNone ConfirmRule = "none"
	// ConfirmDestructive asks for the tools annotated destructive: true.
	ConfirmDestructive ConfirmRule = "destructive"
	// ConfirmWrite asks for every tool not annotated read_only: true.
	ConfirmWrite ConfirmRule = "write"
	// ConfirmAll asks for every call.
	ConfirmAll ConfirmRule = "all"
)

// RiskDefaultConfirm is the rule of the tools whose config declares a
// risk (the key of CLImax 0.5 configs) when neither --confirm nor the
// policy sets one: 0.5 asks before every write and destructive tool by
// default, and a config written for it keeps that protection here.
// Configs without risk keep [ConfirmNone] (docs/security.md, Approving
// calls).
const RiskDefaultConfirm = ConfirmWrite

// confirmRules lists the rules from the loosest to the strictest.
var confirmRules = []ConfirmRule{ConfirmNone, ConfirmDestructive, ConfirmWrite, ConfirmAll}

// confirmRuleNames is confirmRules as strings, for suggestions.
var confirmRuleNames = []string{string(ConfirmNone), string(ConfirmDestructive), string(ConfirmWrite), string(ConfirmAll)}

// ParseConfirmRule parses a rule name (case-insensitive; "" is the unset
// rule "").
func ParseConfirmRule(s string) (ConfirmRule, error) {
	r := ConfirmRule(strings.ToLower(strings.TrimSpace(s)))
	if r == "" {
		return "", nil
	}
	if !slices.Contains(confirmRules, r) {
		msg := fmt.Sprintf("unknown confirm rule %q: want none, destructive, write or all", s)
		if sug := suggest(string(r), confirmRuleNames); sug != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", sug)
		}
		return "", fmt.Errorf("%s", msg)
	}
	return r, nil
}

// level orders the rules; an unknown rule counts as the strictest.
func (r ConfirmRule) level() int {
	if r == "" {
		return 0
	}
	if i := slices.Index(confirmRules, r); i >= 0 {
		return i
	}
	return len(confirmRules) - 1
}

// Stricter returns the stricter of r and o: the one that covers more
// tools. It is unset ("") only when both are.
func (r ConfirmRule) Stricter(o ConfirmRule) ConfirmRule {
	if o.level() > r.level() || r == "" {
		return o
	}
	return r
}

// For returns the rule that applies to t: r, or [RiskDefaultConfirm] when
// r is unset and t's config declares a risk.
func (r ConfirmRule) For(t *Tool) ConfirmRule {
	if r == "" && t.Risk != "" {
		return RiskDefaultConfirm
	}
	return r
}

// Covers reports whether r asks for the approval of a call of t.
func (r ConfirmRule) Covers(t *Tool) bool {
	switch r {
	case "", ConfirmNone:
		return false
	case ConfirmDestructive:
		// Only an explicit annotation: MCP's reading of a tool without
		// one (destructive unless read-only) would make this rule write.
		return t.Destructive != nil && *t.Destructive && !t.IsReadOnly()
	case ConfirmWrite:
		return !t.IsReadOnly()
	}
	return true
}

// WithConfirm returns policy with the confirm rule r added, as climax
// --confirm does: the policy's own rule becomes the stricter of the two
// (a tool's own confirm setting still wins). A nil policy (every tool
// enabled) becomes one that enables every tool under r; the unset rule ""
// leaves policy as it is. An explicit [ConfirmNone] is recorded: it turns
// off [RiskDefaultConfirm] unless the policy sets a rule of its own.
// policy itself is not changed.
func WithConfirm(policy *Policy, r ConfirmRule) *Policy {
	if r == "" {
		return policy
	}
	if policy == nil {
		return &Policy{Default: PolicyEnabled, Executor: Executor{Type: ExecutorLocal}, Tools: map[string]ToolPolicy{}, Confirm: r}
	}
	p := *policy
	p.Confirm = policy.Confirm.Stricter(r)
	return &p
}
