package executor_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the fake CLI that subprocess tests run: with
// CLIMAX_FAKE_CLI=1 in its environment it performs its arguments as a
// sequence of operations instead of running tests.
//
//	out=TEXT      print TEXT and a newline to stdout
//	err=TEXT      print TEXT and a newline to stderr
//	raw=TEXT      print TEXT (no newline) to stdout
//	exit=N        exit with status N
//	sleep=DUR     sleep (time.ParseDuration)
//	pid=FILE      write own pid to FILE
//	child=FILE    start a grandchild that writes its pid to FILE, keeps
//	              stdout and stderr open and sleeps 30s; wait until FILE exists
//	daemon=FILE   like child=, but the grandchild's output goes to /dev/null
//	ignoreterm    ignore SIGTERM from now on
//	bytes=N       print N bytes: "H" first, "T" last, "x" between
//	invalid       print invalid UTF-8 (bytes ff fe) around "ok"
//	cat           copy stdin to stdout
//	pwd           print the working directory
//	env=KEY       print the value of KEY ("<unset>" when unset)
//	signal=N      kill itself with signal N
//	echo          print every remaining argument on its own line, then stop
func TestMain(m *testing.M) {
	if os.Getenv("CLIMAX_FAKE_CLI") == "1" {
		os.Exit(fakeCLI(os.Args[1:]))
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("CLIMAX_FAKE_BIN", exe)
	os.Exit(m.Run())
}

func fakeCLI(args []string) int {
	for i, a := range args {
		op, val, _ := strings.Cut(a, "=")
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
			d, _ := time.ParseDuration(val)
			time.Sleep(d)
		case "pid":
			// Written atomically: readers never see an empty file.
			os.WriteFile(val+".tmp", []byte(strconv.Itoa(os.Getpid())), 0o644)
			os.Rename(val+".tmp", val)
		case "child", "daemon":
			exe, _ := os.Executable()
			c := exec.Command(exe, "pid="+val, "sleep=30s")
			if op == "child" {
				c.Stdout, c.Stderr = os.Stdout, os.Stderr
			}
			if err := c.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 3
			}
			for range 500 {
				if b, err := os.ReadFile(val); err == nil && len(b) > 0 {
					break
				}
				time.Sleep(2 * time.Millisecond)
			}
		case "ignoreterm":
			signal.Ignore(syscall.SIGTERM)
		case "bytes":
			n, _ := strconv.Atoi(val)
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
			syscall.Kill(os.Getpid(), syscall.Signal(n))
			time.Sleep(time.Second)
		case "echo":
			for _, x := range args[i+1:] {
				fmt.Println(x)
			}
			return 0
		default:
			fmt.Fprintf(os.Stderr, "fake: unknown op %q\n", a)
			return 2
		}
	}
	return 0
}
