package executor

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxPlainNumber is the most characters a number sent for a string
// argument may take in plain decimal notation, sign and point included.
// It covers every number a float64 holds, written with its 17 significant
// digits (the smallest, 4.9406564584124654e-324, takes 342 characters;
// the largest, about 1.8e308, 309), while keeping a few bytes of JSON
// such as 1e-1000000 from becoming a million-character argument
// (docs/calls.md, Coercion).
const MaxPlainNumber = 400

// decimalText is the value of a decimal number's text, taken apart
// without converting it: ±(head followed by tail) × 10^exp, where head
// and tail are the significant digits (no leading or trailing zeros; both
// "" for zero), split where the text had its point. Its size is that of
// the text, whatever the exponent says.
type decimalText struct {
	neg        bool
	head, tail string
	exp        int64
}

// maxExponent is where parseDecimalText stops reading an exponent's
// digits: far beyond any length a number's plain form may have, and far
// from overflowing int64 once the digit counts are added.
const maxExponent = 1 << 40

// parseDecimalText takes apart s, a decimal number as strconv.ParseFloat
// reads one (an optional sign, digits with an optional point, an
// optional exponent; no hex, no "inf", no underscores). ok is false when s
// is not one.
func parseDecimalText(s string) (d decimalText, ok bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		d.neg = s[i] == '-'
		i++
	}
	intPart, i := digitRun(s, i)
	frac := ""
	if i < len(s) && s[i] == '.' {
		frac, i = digitRun(s, i+1)
	}
	if intPart == "" && frac == "" {
		return d, false
	}
	var e int64
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := i < len(s) && s[i] == '-'
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		var digits string
		if digits, i = digitRun(s, i); digits == "" {
			return d, false
		}
		for _, c := range []byte(digits) {
			if e < maxExponent {
				e = e*10 + int64(c-'0')
			}
		}
		if eneg {
			e = -e
		}
	}
	if i != len(s) {
		return d, false
	}
	d.exp = e - int64(len(frac))
	if intPart = strings.TrimLeft(intPart, "0"); intPart == "" {
		frac = strings.TrimLeft(frac, "0")
	}
	t := strings.TrimRight(frac, "0")
	d.exp += int64(len(frac) - len(t))
	if frac = t; frac == "" {
		t = strings.TrimRight(intPart, "0")
		d.exp += int64(len(intPart) - len(t))
		intPart = t
	}
	d.head, d.tail = intPart, frac
	if d.isZero() {
		return decimalText{}, true
	}
	return d, true
}

// digitRun returns the run of ASCII digits of s starting at i, and the
// index after it.
func digitRun(s string, i int) (string, int) {
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[start:i], i
}

func (d decimalText) isZero() bool { return d.head == "" && d.tail == "" }

// digits is how many significant digits d has.
func (d decimalText) digits() int64 { return int64(len(d.head) + len(d.tail)) }

// plainLen is how many characters d takes in plain decimal notation
// ([decimalText.plain]), computed from the exponent, without writing it.
func (d decimalText) plainLen() int64 {
	n := d.digits()
	if n == 0 {
		return 1 // "0"
	}
	var l int64
	switch point := n + d.exp; {
	case d.exp >= 0:
		l = n + d.exp // digits, then zeros
	case point > 0:
		l = n + 1 // digits with a point among them
	default:
		l = 2 - point + n // "0.", zeros, digits
	}
	if d.neg {
		l++
	}
	return l
}

// plain writes d in plain decimal notation: no exponent, no trailing zeros
// after the point, "0" for zero. Its length is plainLen, which the caller
// bounds first.
func (d decimalText) plain() string {
	n := d.digits()
	if n == 0 {
		return "0"
	}
	var b strings.Builder
	b.Grow(int(d.plainLen()))
	if d.neg {
		b.WriteByte('-')
	}
	digits := d.head + d.tail
	switch point := n + d.exp; {
	case d.exp >= 0:
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", int(d.exp)))
	case point > 0:
		b.WriteString(digits[:point])
		b.WriteByte('.')
		b.WriteString(digits[point:])
	default:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", int(-point)))
		b.WriteString(digits)
	}
	return b.String()
}

// int64Value is d as an int64, exactly, when d is whole and within
// int64's range. Decided from the digits, never through a
// float64, which would make 1.0000000000000000001 whole.
func (d decimalText) int64Value() (n int64, whole, inRange bool) {
	switch {
	case d.isZero():
		return 0, true, true
	case d.exp < 0:
		return 0, false, false
	case d.digits()+d.exp > 19: // 9223372036854775807 has 19 digits
		return 0, true, false
	}
	n, err := strconv.ParseInt(d.plain(), 10, 64)
	return n, true, err == nil
}

// exactDecimal writes the number text lit in plain decimal notation,
// exactly, whatever its digits ("1e3" is "1000", and 18446744073709551617
// stays itself where a float64 would make it 18446744073709552000). ok is
// false when lit is not a number, beyond the range of float64, or would
// take more than [MaxPlainNumber] characters, which is decided before
// anything is written.
func exactDecimal(lit string) (string, bool) {
	d, err := plainNumber(lit)
	if err != nil {
		return "", false
	}
	return d.plain(), true
}

// plainNumber takes apart the number text lit for writing in plain
// decimal notation: an error when it is not a number, or (a
// *[convertError] saying what to send instead) when it is beyond the
// range of float64 or its plain form would take more than
// [MaxPlainNumber] characters.
func plainNumber(lit string) (decimalText, error) {
	d, ok := parseDecimalText(lit)
	if !ok {
		return d, errConvert
	}
	if f, _ := strconv.ParseFloat(lit, 64); math.IsInf(f, 0) {
		return d, &convertError{"it is beyond the range of a 64-bit floating-point number (about ±1.8e308); " + sendAsString}
	}
	if l := d.plainLen(); l > MaxPlainNumber {
		n := countText(l)
		if l > maxExponent { // the exponent was cut short when read
			n = "over " + countText(maxExponent)
		}
		return d, &convertError{fmt.Sprintf("in plain decimal notation it would take %s characters, more than the %d allowed; %s", n, MaxPlainNumber, sendAsString)}
	}
	return d, nil
}

// sendAsString is what a refused number's message tells the caller to
// do instead.
const sendAsString = "to pass the number as written, send it as a JSON string (in quotes)"

// countText writes n with thousands separators ("1,000,001").
func countText(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// integerText converts the number text s to an int64, exactly: a whole
// number within int64's range, in any decimal form ("42", "42.0",
// "4.2e1", "9.223372036854775807e18").
func integerText(s string) (any, error) {
	d, ok := parseDecimalText(s)
	if !ok {
		return nil, errConvert
	}
	switch n, whole, inRange := d.int64Value(); {
	case !whole:
		return nil, &convertError{"it is not a whole number"}
	case !inRange:
		return nil, &convertError{"it is out of the range of a 64-bit integer (-9223372036854775808 to 9223372036854775807)"}
	default:
		return n, nil
	}
}

// convertError is a conversion problem that says why, beyond "cannot
// convert X to T": its text follows that in the message.
type convertError struct{ why string }

func (e *convertError) Error() string { return e.why }

// convertReason is ": " and the reason err gives, when it is a
// *convertError, or "".
func convertReason(err error) string {
	if ce, ok := err.(*convertError); ok {
		return ": " + ce.why
	}
	return ""
}
