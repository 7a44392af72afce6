// Package executortest is for tests only: it turns a test binary into a
// fake command-line program, so that tests of code that runs commands
// (through package executor or otherwise) need no real CLI.
//
// A test package hands its TestMain to [Main]:
//
//	func TestMain(m *testing.M) { executortest.Main(m) }
//
// and its configs run [Program] (or "$CLIMAX_FAKE_BIN", which Main sets)
// with the variables of [Env]. Started that way, the test binary does not
// run tests: it performs its arguments as a sequence of operations, one per
// argument, and exits.
//
//	out=TEXT      print TEXT and a newline to stdout
//	err=TEXT      print TEXT and a newline to stderr
//	raw=TEXT      print TEXT (no newline) to stdout
//	exit=N        exit with status N
//	sleep=DUR     sleep (time.ParseDuration)
//	pid=FILE      write its own pid to FILE (atomically)
//	child=FILE    start a grandchild that writes its pid to FILE, keeps
//	              stdout and stderr open and sleeps 30s; wait until FILE exists
//	daemon=FILE   like child=, but the grandchild's output goes nowhere
//	setsid=FILE   like child=, but the grandchild starts a new session (it
//	              leaves the process group), where the system has sessions
//	orphan=FILE   start a process that starts a setsid= grandchild (output
//	              going nowhere) and exits; wait for both, so that the
//	              grandchild is an orphan
//	ignoreterm    ignore SIGTERM from now on
//	bytes=N       print N bytes: "H" first, "T" last, "x" between
//	invalid       print invalid UTF-8 (bytes ff fe) around "ok"
//	cat           copy stdin to stdout
//	pwd           print the working directory
//	env=KEY       print the value of KEY ("<unset>" when unset)
//	signal=N      kill itself with signal N (where signals exist)
//	args          print every remaining argument on its own line, then stop
//	echo WORDS... print the remaining arguments joined by spaces, then stop
//	fail          print "something broke" on stderr and exit 3
//	sleep SECONDS [PIDFILE]
//	              write its pid to PIDFILE if given, sleep SECONDS (a
//	              decimal number), print "slept SECONDS", then stop
//	wait FILE [PIDFILE]
//	              write its pid to PIDFILE if given, wait until FILE exists
//	              (two minutes at most, then exit 8), print "released",
//	              then stop
//
// An unknown operation is reported on stderr with exit status 2.
package executortest

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// EnvVar is the variable that makes a test binary act as the fake CLI
// when it is set to "1".
const EnvVar = "CLIMAX_FAKE_CLI"

// BinVar is the variable [Main] sets to [Program] in the test process, for
// configs that name the fake CLI as "$CLIMAX_FAKE_BIN".
const BinVar = "CLIMAX_FAKE_BIN"

// Env returns the variables a command needs to run as the fake CLI: [EnvVar]
// and a GORACE setting that spares a race-enabled binary its 1 s sleep at
// exit. The map is new on every call.
func Env() map[string]string {
	return map[string]string{EnvVar: "1", "GORACE": "atexit_sleep_ms=0"}
}

// Program returns the path of the running test binary, which acts as the
// fake CLI when started with [Env].
func Program() string {
	exe, err := os.Executable()
	if err != nil {
		panic("executortest: cannot find the test binary: " + err.Error())
	}
	return exe
}

// Main runs the fake CLI and exits when the process was started as one
// (see [Intercept]); otherwise it sets [BinVar], runs the tests and exits
// with their status. Call it from TestMain.
func Main(m *testing.M) {
	Intercept()
	os.Exit(m.Run())
}

// Intercept performs the fake CLI's operations and exits when [EnvVar] is
// "1"; otherwise it sets [BinVar] to [Program] and returns. A TestMain that
// needs its own setup calls Intercept first, so that the fake CLI does not
// run that setup.
func Intercept() {
	if os.Getenv(EnvVar) == "1" {
		os.Exit(Run(os.Args[1:]))
	}
	os.Setenv(BinVar, Program())
}

// Run performs args as the fake CLI's operations and returns the exit
// status.
func Run(args []string) int {
	for i, a := range args {
		op, val, hasVal := strings.Cut(a, "=")
		switch op {
		case "out":
			fmt.Println(val)
		case "err":
			fmt.Fprintln(os.Stderr, val)
		case "raw":
			fmt.Print(val)
		case "exit":
			n, _ := strconv.Atoi(val)
			return n
		case "sleep":
			if !hasVal {
				return sleepWords(args[i+1:])
			}
			d, _ := time.ParseDuration(val)
			time.Sleep(d)
		case "pid":
			writePID(val)
		case "child", "daemon", "setsid", "orphan":
			if err := spawn(op, val); err != nil {
				fmt.Fprintln(os.Stderr, "fake:", err)
				return 3
			}
		case "ignoreterm":
			ignoreTerm()
		case "bytes":
			n, _ := strconv.Atoi(val)
			writeBytes(n)
		case "invalid":
			os.Stdout.Write([]byte("\xff\xfeok\xff\n"))
		case "cat":
			io.Copy(os.Stdout, os.Stdin)
		case "pwd":
			wd, _ := os.Getwd()
			fmt.Println(wd)
		case "env":
			v, ok := os.LookupEnv(val)
			if !ok {
				v = "<unset>"
			}
			fmt.Println(v)
		case "signal":
			n, _ := strconv.Atoi(val)
			killSelf(n)
		case "args":
			for _, x := range args[i+1:] {
				fmt.Println(x)
			}
			return 0
		case "echo":
			fmt.Println(strings.Join(args[i+1:], " "))
			return 0
		case "fail":
			fmt.Fprintln(os.Stderr, "something broke")
			return 3
		case "wait":
			return waitWords(args[i+1:])
		default:
			fmt.Fprintf(os.Stderr, "fake: unknown op %q\n", a)
			return 2
		}
	}
	return 0
}

// sleepWords is "sleep SECONDS [PIDFILE]".
func sleepWords(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "fake: sleep needs SECONDS")
		return 2
	}
	secs, err := strconv.ParseFloat(args[0], 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake:", err)
		return 2
	}
	if len(args) > 1 {
		writePID(args[1])
	}
	time.Sleep(time.Duration(secs * float64(time.Second)))
	fmt.Println("slept", args[0])
	return 0
}

// waitWords is "wait FILE [PIDFILE]".
func waitWords(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "fake: wait needs FILE")
		return 2
	}
	if len(args) > 1 {
		writePID(args[1])
	}
	// Give up after two minutes, so that a failed test leaves no process
	// behind for long.
	for start := time.Now(); time.Since(start) < 2*time.Minute; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(args[0]); err == nil {
			fmt.Println("released")
			return 0
		}
	}
	return 8
}

// writePID writes the process's pid to file atomically: readers never see
// an empty file.
func writePID(file string) {
	os.WriteFile(file+".tmp", []byte(strconv.Itoa(os.Getpid())), 0o644)
	os.Rename(file+".tmp", file)
}

// spawn starts the grandchild of child=, daemon=, setsid= or orphan= and
// waits until it has written its pid to file.
func spawn(op, file string) error {
	var c *exec.Cmd
	switch op {
	case "orphan":
		c = exec.Command(Program(), "setsid="+file)
	default:
		c = exec.Command(Program(), "pid="+file, "sleep=30s")
	}
	if op == "child" || op == "setsid" {
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
	}
	if op == "setsid" {
		newSession(c)
	}
	if op == "orphan" {
		// The intermediate process exits once its child has written file.
		return c.Run()
	}
	if err := c.Start(); err != nil {
		return err
	}
	for range 2500 {
		if b, err := os.ReadFile(file); err == nil && len(b) > 0 {
			return nil
		}
		time.Sleep(2 * time.Millisecond)
	}
	return fmt.Errorf("the grandchild did not write %s", file)
}

// writeBytes prints n bytes: "H", then "x"s, then "T".
func writeBytes(n int) {
	buf := make([]byte, 64*1024)
	for i := range buf {
		buf[i] = 'x'
	}
	for written := 0; written < n; {
		k := min(len(buf), n-written)
		chunk := buf[:k]
		if written == 0 || written+k == n {
			chunk = append([]byte(nil), chunk...)
			if written == 0 {
				chunk[0] = 'H'
			}
			if written+k == n {
				chunk[k-1] = 'T'
			}
		}
		os.Stdout.Write(chunk)
		written += k
	}
}
