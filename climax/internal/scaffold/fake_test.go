package scaffold

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary act as the fake programs the tests probe,
// chosen by the name it is started under (a symlink to it, see fake).
func TestMain(m *testing.M) {
	switch name := programName(os.Args[0]); name {
	case "shelf":
		os.Exit(fakeShelf(os.Args[1:]))
	case "hang":
		time.Sleep(time.Hour)
	case "hangchild":
		// The child keeps the output pipe open: only killing the
		// process group ends the probe early.
		link := filepath.Join(filepath.Dir(os.Args[0]), "hang")
		if p, err := os.StartProcess(link, []string{link}, &os.ProcAttr{Files: []*os.File{nil, os.Stdout, os.Stderr}}); err == nil {
			_ = p
		}
		time.Sleep(time.Hour)
	case "lockholder":
		// Like pyenv's shim around pip install: a lock taken while it
		// runs, removed by its handler of SIGTERM (a shell's exit trap).
		lock := filepath.Join(filepath.Dir(os.Args[0]), "lock")
		if err := os.WriteFile(lock, nil, 0o644); err != nil {
			os.Exit(2)
		}
		term := make(chan os.Signal, 1)
		signal.Notify(term, syscall.SIGTERM)
		<-term
		os.Remove(lock)
		os.Exit(143)
	case "deafchild":
		// A child that ignores SIGTERM and keeps the output pipe open,
		// its pid in a file: only SIGKILL to the group ends it.
		link := filepath.Join(filepath.Dir(os.Args[0]), "deaf")
		if p, err := os.StartProcess(link, []string{link}, &os.ProcAttr{Files: []*os.File{nil, os.Stdout, os.Stderr}}); err == nil {
			os.WriteFile(filepath.Join(filepath.Dir(os.Args[0]), "deaf.pid"), []byte(strconv.Itoa(p.Pid)), 0o644)
		}
		time.Sleep(time.Hour)
	case "deaf":
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(time.Hour)
	case "flood":
		line := []byte(strings.Repeat("y", 1023) + "\n")
		for {
			if _, err := os.Stdout.Write(line); err != nil {
				os.Exit(1)
			}
		}
	case "slowstart":
		// Answers, but later than the test's time limit (2s), except
		// to "quick".
		if len(os.Args) < 2 || os.Args[1] != "quick" {
			time.Sleep(3 * time.Second)
		}
		fmt.Print("Usage: slowstart [-q]\n  -q, --quiet  say less\n")
		os.Exit(0)
	case "grumpy":
		// Prints its help on stderr and exits 2, as many programs do
		// for -h or a usage error.
		fmt.Fprint(os.Stderr, "usage: grumpy [-v] <file>\n\noptions:\n  -v, --verbose   say more\n  --level N       how hard\n")
		os.Exit(2)
	case "auditor":
		// Like npm: "audit" names its subcommands in its usage line,
		// and "audit fix --help" prints the help of audit.
		switch {
		case len(os.Args) > 1 && os.Args[1] == "audit":
			fmt.Print("Usage:\nauditor audit [fix|signatures]\n\nOptions:\n  --dry-run   change nothing\n")
		case len(os.Args) > 1 && os.Args[1] == "ping":
			fmt.Print("Usage: auditor ping [--loud]\n\nOptions:\n  --loud   louder\n")
		default:
			fmt.Print("Usage: auditor <command>\n\nCommands:\n  audit   Run an audit\n  ping    Say hello\n")
		}
		os.Exit(0)
	case "halfhang":
		// Its "stuck" subcommand hangs on --help; the rest answers.
		switch {
		case len(os.Args) > 1 && os.Args[1] == "stuck":
			time.Sleep(time.Hour)
		case len(os.Args) > 1 && os.Args[1] == "fine":
			fmt.Print("Usage: halfhang fine [--quick]\n\nOptions:\n  --quick   be quick\n")
		default:
			fmt.Print("Usage: halfhang <command>\n\nCommands:\n  fine    Works\n  stuck   Hangs\n")
		}
		os.Exit(0)
	case "mute":
		os.Exit(3)
	case "parrot":
		// Whatever the words, the same help: they are no subcommands.
		fmt.Print("Usage: parrot [options] [prompt]\n\nCommands:\n  hello   Say hello\n  bye     Say bye\n\nOptions:\n  -l, --loud   louder\n")
		os.Exit(0)
	case "asks":
		// Waits for an answer on stdin; the sandbox gives it none.
		var answer string
		if _, err := fmt.Scanln(&answer); err != nil {
			fmt.Fprintln(os.Stderr, "asks: no answer:", err)
			os.Exit(4)
		}
		os.Exit(0)
	case "manned":
		os.Exit(fakeManned(os.Args[1:]))
	case "envdump":
		fmt.Println(strings.Join(os.Environ(), "\n"))
		wd, _ := os.Getwd()
		fmt.Println("CWD=" + wd)
		os.Exit(0)
	default:
		os.Exit(m.Run())
	}
}

// fake returns the path of a link named name to the test binary, which
// then acts as that fake program.
func fake(t *testing.T, name string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake programs are symlinks")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	link := filepath.Join(dir, name)
	if err := os.Symlink(exe, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	if name == "shelf" {
		data, err := os.ReadFile(filepath.Join("testdata", "pflag.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "list.txt"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if child := map[string]string{"hangchild": "hang", "deafchild": "deaf"}[name]; child != "" {
		if err := os.Symlink(exe, filepath.Join(dir, child)); err != nil {
			t.Fatal(err)
		}
	}
	return link
}

const shelfRootHelp = `Shelf keeps widgets on shelves.

Usage:
  shelf [command]

Available Commands:
  delete      Delete a widget
  list        List the widgets of a shelf
  help        Help about any command

Flags:
      --config string   Config file
  -h, --help            help for shelf
`

const shelfDeleteHelp = `Delete a widget from its shelf.

Usage:
  shelf delete WIDGET [flags]

Flags:
  -f, --force   Delete even a pinned widget
  -h, --help    help for delete

Global Flags:
      --config string   Config file
`

// fakeShelf is a cobra-like program: __complete lists its commands, each
// command answers --help, and unknown flags are refused.
func fakeShelf(args []string) int {
	// A calls.log beside the program records each call's arguments.
	if f, err := os.OpenFile(filepath.Join(filepath.Dir(os.Args[0]), "calls.log"), os.O_APPEND|os.O_WRONLY, 0); err == nil {
		fmt.Fprintln(f, strings.Join(args, " "))
		f.Close()
	}
	if len(args) >= 1 && args[0] == "__complete" {
		if len(args) == 2 && args[1] == "" {
			fmt.Print("delete\tDelete a widget\nlist\tList the widgets of a shelf\nhelp\tHelp about any command\n:4\n")
			fmt.Fprintln(os.Stderr, "Completion ended with directive: ShellCompDirectiveNoFileComp")
			return 0
		}
		fmt.Print(":4\n")
		return 0
	}
	help, cmd := false, ""
	known := map[string]bool{"--config": true, "-h": true, "--help": true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--help" || a == "-h":
			help = true
		case strings.HasPrefix(a, "-"):
			name, _, _ := strings.Cut(a, "=")
			ok := known[name]
			switch cmd {
			case "list":
				ok = ok || map[string]bool{"-A": true, "--all": true, "--count": true, "-o": true, "--output": true, "--label": true, "--ratio": true}[name]
			case "delete":
				ok = ok || name == "-f" || name == "--force"
			}
			if !ok {
				fmt.Fprintf(os.Stderr, "Error: unknown flag: %s\n", name)
				return 1
			}
			if name == "--count" || name == "--output" || name == "-o" || name == "--label" || name == "--ratio" || name == "--config" {
				if !strings.Contains(a, "=") {
					i++
				}
			}
		case cmd == "":
			cmd = a
		}
	}
	if !help {
		fmt.Fprintln(os.Stderr, "fake shelf: only --help is implemented")
		return 2
	}
	switch cmd {
	case "":
		fmt.Print(shelfRootHelp)
	case "list":
		// The help of testdata/pflag.txt, copied beside the link.
		data, err := os.ReadFile(filepath.Join(filepath.Dir(os.Args[0]), "list.txt"))
		if err != nil {
			fmt.Print("Flags:\n  -A, --all   all\n")
		} else {
			os.Stdout.Write(data)
		}
	case "delete":
		fmt.Print(shelfDeleteHelp)
	default:
		fmt.Fprintf(os.Stderr, "Error: unknown command %q for \"shelf\"\n", cmd)
		return 1
	}
	return 0
}

// fakeManned is a program whose commands' help is a digest and whose help
// command prints a manual page, as git's does: "manned log --help" lists
// three options, one of which ("--legacy") it refuses, and "manned help
// log" a manual with more, one of which ("--gone") it refuses too.
func fakeManned(args []string) int {
	if len(args) == 0 || args[0] == "--help" {
		fmt.Print("usage: manned <command> [<args>]\n\nCommands:\n  log    Show the log\n\nSee 'manned help <command>' to read about a command.\n")
		return 0
	}
	switch args[0] {
	case "help":
		if len(args) == 2 && args[1] == "log" {
			fmt.Print(mannedLogManual)
			return 0
		}
		fmt.Fprintln(os.Stderr, "manned: no manual entry")
		return 1
	case "log":
	default:
		fmt.Fprintf(os.Stderr, "manned: %q is not a command\n", args[0])
		return 1
	}
	valued := map[string]bool{"-n": true, "--max-count": true, "--format": true}
	known := map[string]bool{"-q": true, "--quiet": true, "--oneline": true, "--help": true}
	for i := 1; i < len(args); i++ {
		name, _, joined := strings.Cut(args[i], "=")
		switch {
		case valued[name]:
			if !joined {
				i++
			}
		case strings.HasPrefix(name, "-") && !known[name]:
			fmt.Fprintf(os.Stderr, "error: unknown option `%s'\n", strings.TrimLeft(name, "-"))
			return 129
		}
	}
	fmt.Print("usage: manned log [<options>]\n\n    -q, --quiet    say less\n    --oneline      one line each\n    --legacy       an option its help lists and it refuses\n")
	return 0
}

const mannedLogManual = `MANNED-LOG(1)

NAME
       manned-log - Show the log

OPTIONS
       -<number>, -n <number>, --max-count=<number>
           Show at most <number> entries.

       --format=<format>
           Print each entry in the given format.

       --gone
           An option this version no longer has.

       -q, --quiet
           Say less.
`
