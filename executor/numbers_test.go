package executor_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// TestStringArgRefusesLongPlainNumbers checks that a number sent for a
// string argument whose plain decimal form would be longer than
// executor.MaxPlainNumber is refused, naming the argument and what to
// send instead, and that the refusal costs what the text does: 1e-1000000
// (10 bytes) was written out as a 1,000,002-character argument, one per
// item of an array; 1e-10000000 reached the command in exponent form.
func TestStringArgRefusesLongPlainNumbers(t *testing.T) {
	rt := tool(config.Arg{Name: "s", Flag: "--s="}, config.Arg{Name: "files", Type: config.TypeArray, Positional: true})
	for lit, length := range map[string]string{
		"1e-1000000":                    "1,000,002",
		"1e-10000000":                   "10,000,002",
		"-1e-99999999999999999":         "over 1,099,511,627,776",
		"1e-400":                        "402",
		"0.1e-399":                      "402",
		"0." + strings.Repeat("1", 399): "401",
		"1.5e-399":                      "402",
	} {
		_, err := executor.Validate(rt, map[string]any{"s": json.Number(lit)})
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		want := " to string: in plain decimal notation it would take " + length + " characters"
		if !strings.HasPrefix(msg, "Argument validation failed:\n  - Argument 's': cannot convert "+lit[:min(len(lit), 20)]) || !strings.Contains(msg, want) || !strings.Contains(msg, "send it as a JSON string") {
			t.Errorf("s=%s: %q; want it refused (%s…, what to send)", lit, msg, want)
		}
		if len(msg) > 1000 {
			t.Errorf("s=%s: a message of %d bytes", lit, len(msg))
		}
	}
	items := make([]any, 100)
	for i := range items {
		items[i] = json.Number("1e-1000000")
	}
	_, err := executor.Validate(rt, map[string]any{"files": items})
	if err == nil || !strings.Contains(err.Error(), "Argument 'files': item 1: cannot convert 1e-1000000 to string: in plain decimal notation it would take 1,000,002 characters, more than the 400 allowed") ||
		!strings.Contains(err.Error(), "… and 95 more items refused") {
		t.Errorf("100 items of 1e-1000000: %v", err)
	}
	// Within the bound: every float64, down to the smallest written with
	// 17 digits, and numbers with many digits, exactly.
	for lit, want := range map[string]string{
		"4.9406564584124654e-324": "0." + strings.Repeat("0", 323) + "49406564584124654",
		"1.7976931348623157e308":  "17976931348623157" + strings.Repeat("0", 292),
		"1e-397":                  "0." + strings.Repeat("0", 396) + "1",
		"-1.5E+2":                 "-150",
		"0.000":                   "0",
		"120e-1":                  "12",
	} {
		values, err := executor.Validate(rt, map[string]any{"s": json.Number(lit)})
		if err != nil || values["s"] != want {
			t.Errorf("s=%s: %v, %v; want %q", lit, values["s"], err, want)
		}
	}
	// Beyond float64's range, however short: refused with the reason.
	_, err = executor.Validate(rt, map[string]any{"s": json.Number("1e309")})
	if err == nil || !strings.Contains(err.Error(), "cannot convert 1e309 to string: it is beyond the range of a 64-bit floating-point number") {
		t.Errorf("1e309: %v", err)
	}
}

// TestIntegerArgIsExact checks that an integer argument is decided from
// the number's text, never through a float64: 1.0000000000000000001 ran
// as 1, 9.223372036854775807e18 was refused while 9223372036854775807
// passed, 1e-1000000 ran as 0.
func TestIntegerArgIsExact(t *testing.T) {
	rt := tool(config.Arg{Name: "i", Type: config.TypeInteger, Flag: "--i="})
	for lit, want := range map[string]int64{
		"9.223372036854775807e18":  9223372036854775807,
		"9223372036854775807":      9223372036854775807,
		"-9223372036854775808":     -9223372036854775808,
		"-9.223372036854775808e18": -9223372036854775808,
		"4.2e1":                    42,
		"42.000":                   42,
		"0.0e99999999999":          0,
		"-0":                       0,
		"1000e-3":                  1,
	} {
		for _, v := range []any{json.Number(lit), " " + lit + " "} {
			values, err := executor.Validate(rt, map[string]any{"i": v})
			if err != nil || values["i"] != want {
				t.Errorf("i=%q: %v, %v; want %d", v, values["i"], err, want)
			}
		}
	}
	for lit, why := range map[string]string{
		"1.0000000000000000001":   "it is not a whole number",
		"1e-1000000":              "it is not a whole number",
		"0.5":                     "it is not a whole number",
		"9223372036854775808":     "it is out of the range of a 64-bit integer",
		"9.223372036854775808e18": "it is out of the range of a 64-bit integer",
		"1e1000000":               "it is out of the range of a 64-bit integer",
		"-9223372036854775809":    "it is out of the range of a 64-bit integer",
	} {
		for _, v := range []any{json.Number(lit), lit} {
			_, err := executor.Validate(rt, map[string]any{"i": v})
			if err == nil || !strings.Contains(err.Error(), "to integer: "+why) {
				t.Errorf("i=%#v: %v; want it refused: %s", v, err, why)
			}
		}
	}
	for _, s := range []string{"0x10", "1_000", "inf", "1e", ".", "+", "1.2.3", "--1", "1e+-2"} {
		if _, err := executor.Validate(rt, map[string]any{"i": s}); err == nil {
			t.Errorf("i=%q passed", s)
		}
	}
}
