package server

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// redacted replaces the value of an argument marked secret, or of one
// whose name looks like a secret's.
const redacted = "***"

// Limits of what the audit log keeps of a call's arguments (see
// docs/operations.md, "Audit log"): every string (and number, and member
// name) is cut at maxLogValue bytes, as in the other logs; arrays and
// objects keep their first maxAuditItems items, to maxAuditDepth levels.
const (
	maxAuditItems = 20
	maxAuditDepth = 4
)

// secretNameWords are the words that make an argument name look like the
// name of a secret (docs/security.md, "Secrets and the logs"): a name is
// split into words at case changes, digits and punctuation (apiKey,
// API_KEY, api-key and api.key are all "api key"), and one of its words is
// one of these.
var secretNameWords = []string{
	"apikey", "auth", "authorization", "bearer", "cookie", "cred", "credential",
	"credentials", "creds", "hmac", "jwt", "key", "otp", "pass", "passphrase", "passwd",
	"password", "pin", "privkey", "pwd", "salt", "secret", "secrets", "session",
	"sessionid", "sig", "signature", "token", "totp",
}

// secretNameSuffixes are the words that make an argument name look secret
// also at the end of a word written without separators (authtoken,
// dbpassword, clientsecret). Short words such as key and auth are not
// among them: monkey and oauth would match.
var secretNameSuffixes = []string{"apikey", "credential", "credentials", "passphrase", "passwd", "password", "privkey", "secret", "sessionid", "token"}

// looksSecret reports whether an argument name looks like the name of a
// secret (see secretNameWords), also when a secret word is split in two
// (PassWord, pass_phrase: the words joined end in a suffix).
func looksSecret(name string) bool {
	words := nameWords(name)
	for _, w := range words {
		if slices.Contains(secretNameWords, w) {
			return true
		}
	}
	for _, w := range append(words, strings.Join(words, "")) {
		for _, s := range secretNameSuffixes {
			if strings.HasSuffix(w, s) {
				return true
			}
		}
	}
	return false
}

// nameWords splits an identifier into lower-case words: at every rune
// that is not a letter or digit (snake_case, kebab-case, dotted.names),
// where a lower-case letter or digit meets an upper-case one (camelCase),
// before the last capital of a run followed by a lower-case letter
// (APIKey: API, Key), and where letters and digits meet (oauth2token:
// oauth, 2, token).
func nameWords(name string) []string {
	var words []string
	rs := []rune(name)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			words = append(words, strings.ToLower(string(rs[start:end])))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start >= 0 {
			prev := rs[i-1]
			switch {
			case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)),
				unicode.IsDigit(r) != unicode.IsDigit(prev),
				unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				flush(i)
			}
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(rs))
	return words
}

// secretArgName reports whether the value sent under name to a call of
// the tool def (nil when no loaded config defines the name called) is
// kept out of the audit log: the value of an argument marked secret; for
// a name that is not an argument of def, when the argument it probably
// stands for is secret (Token or tokn for token: a mistyped name does not
// make a secret public), or when the name looks like a secret's
// ([looksSecret]). An argument def defines and does not mark secret is
// shown, whatever its name.
func secretArgName(def *config.Tool, name string) bool {
	if def != nil {
		if a := def.Arg(name); a != nil {
			return a.Secret
		}
		if a := def.Arg(executor.SuggestArg(def, name)); a != nil && a.Secret {
			return true
		}
	}
	return looksSecret(name)
}

// redactArgs returns the arguments of a call as the audit log shows them,
// def being the definition of the tool called (nil when no loaded config
// defines that name): an object copied with the value of every argument
// that secretArgName keeps out replaced by "***", members nested in
// values redacted when their names look secret, and every value capped
// (see auditValue). No arguments are an empty object; arguments that are
// not an object (which are refused) are shown capped, or as "***" when
// the tool has a secret argument.
func redactArgs(def *config.Tool, sent any) any {
	if sent == nil {
		return map[string]any{}
	}
	args, ok := sent.(map[string]any)
	if !ok {
		if def != nil && slices.ContainsFunc(def.Args, func(a config.Arg) bool { return a.Secret }) {
			return redacted
		}
		return auditValue(sent, 1)
	}
	return auditObject(args, 0, func(name string) bool { return secretArgName(def, name) })
}

// auditValue caps a value for the audit log: strings and numbers at
// maxLogValue bytes, arrays and objects at maxAuditItems items and
// maxAuditDepth levels; members of nested objects whose names look secret
// are redacted.
func auditValue(v any, depth int) any {
	switch v := v.(type) {
	case string:
		return shorten(v)
	case json.Number:
		if len(v) > maxLogValue {
			return shorten(string(v))
		}
		return v
	case []any:
		if depth >= maxAuditDepth {
			return fmt.Sprintf("…(an array of %d %s)", len(v), plural(len(v), "item", "items"))
		}
		out := make([]any, 0, min(len(v), maxAuditItems+1))
		for i, item := range v {
			if i == maxAuditItems {
				out = append(out, fmt.Sprintf("…(%d more)", len(v)-maxAuditItems))
				break
			}
			out = append(out, auditValue(item, depth+1))
		}
		return out
	case map[string]any:
		if depth >= maxAuditDepth {
			return fmt.Sprintf("…(an object of %d %s)", len(v), plural(len(v), "member", "members"))
		}
		return auditObject(v, depth, looksSecret)
	}
	return v // bool, float64, nil
}

// auditObject caps an object for the audit log, redacting the members
// secret names: the first maxAuditItems members in name order, names cut
// at maxLogValue bytes.
func auditObject(obj map[string]any, depth int, secret func(name string) bool) map[string]any {
	out := make(map[string]any, min(len(obj), maxAuditItems+1))
	for i, k := range slices.Sorted(maps.Keys(obj)) {
		if i == maxAuditItems {
			out["…"] = fmt.Sprintf("(%d more %s)", len(obj)-maxAuditItems, plural(len(obj)-maxAuditItems, "member", "members"))
			break
		}
		v := obj[k]
		if secret(k) {
			v = redacted
		} else {
			v = auditValue(v, depth+1)
		}
		out[shorten(k)] = v
	}
	return out
}
