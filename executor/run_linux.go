//go:build linux

package executor

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// sysProcAttr puts the command in a process group of its own and has the
// kernel kill it with SIGKILL when this process dies. (The kernel sends
// that signal when the thread that started the command ends; Go only ends
// a thread whose goroutine exits while locked to it, which a goroutine
// that starts commands never is.)
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// subreaper records whether [EnableSubreaper] made this process a child
// subreaper.
var subreaper struct {
	once    sync.Once
	err     error
	enabled atomic.Bool
}

// calls is the registry of the commands running, which tells a call's
// orphans from another call's and from the commands themselves.
var calls struct {
	// starting is held shared while a command starts and is registered,
	// and exclusively while orphans are looked for, so that a command just
	// started is never taken for an orphan.
	starting sync.RWMutex
	mu       sync.Mutex
	live     map[*outsiders]bool
}

// EnableSubreaper makes this process a child subreaper (Linux's
// PR_SET_CHILD_SUBREAPER), so that a descendant of a command whose parent
// exits (one that daemonized, say, after leaving the process group with
// setsid) is re-parented to this process instead of to init: a call then
// finds, kills and reaps such orphans when it ends.
//
// Call it once, at the start of a program whose child processes are
// started by [Runner]s (the climax command). A call that ends takes a
// child of this process for one of its orphans when the child is not a
// command, is not in this process's own process group (where children
// started without Setpgid are), and started before the command of no
// other call running whose tree has not been killed yet. An orphan that
// could belong to another call is thus killed when the last call that
// started before it ends, even when the calls end at once; one that no
// call running can own (it was forked in the instant its call's tree was
// killed) is taken by the next call that ends; and [KillDescendants]
// kills what is left at exit.
// Later calls of EnableSubreaper return the first call's error. It returns
// [errors.ErrUnsupported] on systems without subreapers; the package never
// calls it itself.
func EnableSubreaper() error {
	subreaper.once.Do(func() {
		if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
			subreaper.err = fmt.Errorf("cannot become a child subreaper: %w", err)
			return
		}
		subreaper.enabled.Store(true)
	})
	return subreaper.err
}

// outsiders finds the descendants of a command that are outside its
// process group, so that they get the group's signals: through /proc,
// those whose parent chain leads to the command (or to a descendant found
// before), and, when this process is a subreaper, the call's orphans (see
// [EnableSubreaper]) and their descendants.
type outsiders struct {
	pid    int
	began  uint64         // clock ticks since boot just before the command started
	exited bool           // the command has been waited for
	known  map[int]uint64 // pid → start time of the descendants found so far

	// ended records, under calls.mu, that the call's tree got its last
	// SIGKILL (after the command was waited for): the call looks for no
	// more orphans, so another call no longer spares an orphan for it.
	ended bool
}

// start starts cmd and registers it.
func (o *outsiders) start(cmd *exec.Cmd) error {
	calls.starting.RLock()
	defer calls.starting.RUnlock()
	o.began = bootTicks()
	if err := cmd.Start(); err != nil {
		return err
	}
	o.pid = cmd.Process.Pid
	calls.mu.Lock()
	defer calls.mu.Unlock()
	if calls.live == nil {
		calls.live = make(map[*outsiders]bool)
	}
	calls.live[o] = true
	return nil
}

// waited records that the command has been waited for: its pid may be
// reused from now on.
func (o *outsiders) waited() { o.exited = true }

// release unregisters the command once it has been waited for.
func (o *outsiders) release() {
	calls.mu.Lock()
	defer calls.mu.Unlock()
	delete(calls.live, o)
}

// signal sends sig to the command's descendants outside its group (and,
// unless the group has just been signalled, to the members of the group
// that were not seen before). SIGTERM goes only to processes not seen by
// an earlier call, so that asking again reaches only descendants that
// appeared or were orphaned since; SIGKILL goes to all. It reads /proc only
// when there may be descendants: while the command is alive, once some
// were seen, or when this process has orphans.
func (o *outsiders) signal(sig syscall.Signal, groupSignalled bool) {
	if o.pid == 0 {
		return
	}
	if sig == syscall.SIGKILL && o.exited {
		// The call's last look for orphans: from now on the orphans that
		// may be its are the other calls' to kill. Marked before looking,
		// so that of two calls ending at once the one that looks second
		// takes an orphan both spared for the other.
		calls.mu.Lock()
		o.ended = true
		calls.mu.Unlock()
	}
	if o.exited && len(o.known) == 0 && !mayHaveOrphans() {
		return // the usual end of a call: nothing of it outside its group
	}
	if subreaper.enabled.Load() {
		calls.starting.Lock()
		defer calls.starting.Unlock()
	}
	// SIGKILL is sent again to what appeared meanwhile (children forked
	// by a process between the look and its death), until a look finds
	// nothing new or killPasses looks were made.
	killed := make(map[int]procStat)
	for range killPasses {
		fresh := o.signalOnce(sig, groupSignalled, killed)
		if sig != syscall.SIGKILL || fresh == 0 {
			break
		}
	}
	if sig == syscall.SIGKILL && subreaper.enabled.Load() && len(killed) > 0 {
		delete(killed, o.pid) // exec.Cmd waits for the command
		go reap(killed)
	}
}

// killPasses bounds the looks of one SIGKILL of a call's descendants
// outside its group: each look kills the processes that forked those the
// next finds, so a few suffice unless something is racing to fork.
const killPasses = 5

// signalOnce looks once for the descendants (see [outsiders.signal]) and
// sends them sig; it adds what it found to found and returns how many of
// them were not known before.
func (o *outsiders) signalOnce(sig syscall.Signal, groupSignalled bool, found map[int]procStat) (fresh int) {
	var roots []int
	if !o.exited {
		roots = append(roots, o.pid) // not waited for: the pid is still its
	}
	for pid, start := range o.known {
		if sameProcess(pid, start) {
			roots = append(roots, pid)
		}
	}
	roots = append(roots, o.orphans()...)
	if len(roots) == 0 {
		return 0
	}
	if o.known == nil {
		o.known = make(map[int]uint64)
	}
	for pid, p := range subtree(scanProcs(), roots) {
		found[pid] = p
		start, seen := o.known[pid]
		seen = seen && start == p.start
		if !seen {
			fresh++
		}
		o.known[pid] = p.start
		if seen && sig == syscall.SIGTERM || groupSignalled && p.pgid == o.pid {
			continue
		}
		sendSignal(pid, p.start, sig)
	}
	return fresh
}

// reap waits for the killed processes that are, or become, children of
// this process (a subreaper), so that they do not stay zombies. It gives
// up on a process that is gone, another's child that is still alive after
// reapPatience, or one that reused the pid.
func reap(procs map[int]procStat) {
	self := os.Getpid()
	for range reapPatience / reapPoll {
		for pid, p := range procs {
			st, ok := readStat(pid)
			switch {
			case !ok || st.start != p.start:
				delete(procs, pid) // reaped by its parent
			case st.ppid == self && st.state == 'Z':
				var ws unix.WaitStatus
				unix.Wait4(pid, &ws, unix.WNOHANG, nil)
				delete(procs, pid)
			}
		}
		if len(procs) == 0 {
			return
		}
		time.Sleep(reapPoll)
	}
}

// How often and how long [reap] looks at processes that were sent SIGKILL.
const (
	reapPoll     = 10 * time.Millisecond
	reapPatience = 5 * time.Second
)

// mayHaveOrphans reports whether this process may hold orphans of a call:
// it is a subreaper with a child that is not a running command and not in
// this process's own process group (which [outsiders.orphans] never takes
// for an orphan: a child a wrapper script left behind before it exec'd
// climax, say, would otherwise send every call the slow way). It takes no
// lock, so that a call that ends does not stop others from starting
// (signal looks for orphans holding calls.starting exclusively): a command
// being started, not registered yet, counts as a possible orphan and
// sends the caller the slow way.
func mayHaveOrphans() bool {
	if !subreaper.enabled.Load() || !hasChildren() {
		return false
	}
	children := childrenOfSelf()
	calls.mu.Lock()
	commands := make(map[int]bool, len(calls.live))
	for c := range calls.live {
		commands[c.pid] = true
	}
	calls.mu.Unlock()
	ownGroup := syscall.Getpgrp()
	for _, pid := range children {
		if commands[pid] {
			continue
		}
		if st, ok := readStat(pid); ok && st.pgid != ownGroup {
			return true
		}
	}
	return false
}

// orphans returns the children of this process (a subreaper) that are
// orphans of this call, or of no call still running: not a command, not
// in this process's group, and started before the command of no other
// call that has not ended (see [outsiders.ended]). An orphan is thus
// spared only for a call that started before it and will look for
// orphans again: the last of those to end takes it, whichever that is;
// one whose calls have all ended (it appeared after their last look) is
// taken by the next call that ends.
func (o *outsiders) orphans() []int {
	if !subreaper.enabled.Load() || !hasChildren() {
		return nil
	}
	calls.mu.Lock()
	var others []uint64
	commands := make(map[int]bool, len(calls.live))
	for c := range calls.live {
		commands[c.pid] = true
		if c != o && !c.ended {
			others = append(others, c.began)
		}
	}
	calls.mu.Unlock()
	ownGroup := syscall.Getpgrp()
	var out []int
children:
	for _, pid := range childrenOfSelf() {
		if commands[pid] {
			continue
		}
		st, ok := readStat(pid)
		if !ok || st.pgid == ownGroup {
			continue
		}
		for _, start := range others {
			if st.start >= start {
				continue children // it may be the other call's
			}
		}
		out = append(out, pid)
	}
	return out
}

// hasChildren reports whether this process has any child, running or
// exited, without waiting for one: a call with no children left has no
// orphans either, and the check costs one system call instead of reading
// every thread's children list.
func hasChildren() bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	return !errors.Is(err, unix.ECHILD)
}

// bootTicks returns the time since boot in the unit and clock of the
// start times in /proc: clock ticks (USER_HZ, 100 a second) of
// CLOCK_BOOTTIME.
func bootTicks() uint64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts); err != nil {
		return 0
	}
	return uint64(ts.Nano()) / uint64(time.Second/userHZ)
}

// userHZ is the unit of the times in /proc, fixed by the kernel's ABI.
const userHZ = 100

// procStat is what /proc/PID/stat tells about a process.
type procStat struct {
	state      byte // R, S, D, Z...
	ppid, pgid int
	start      uint64 // clock ticks since boot
}

// readStat reads /proc/PID/stat.
func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	return parseStat(string(b))
}

// parseStat parses the text of /proc/PID/stat: "PID (COMM) STATE PPID PGRP
// ...", where the start time is the 22nd field. COMM may hold anything,
// hence the last ")".
func parseStat(s string) (procStat, bool) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(s[i+1:]) // f[0] is field 3 (state)
	if len(f) < 20 {
		return procStat{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgid, err2 := strconv.Atoi(f[2])
	start, err3 := strconv.ParseUint(f[19], 10, 64)
	if err := errors.Join(err1, err2, err3); err != nil {
		return procStat{}, false
	}
	return procStat{state: f[0][0], ppid: ppid, pgid: pgid, start: start}, true
}

// sameProcess reports whether pid is still the process that started at
// start (alive or a zombie), not one that reused its pid.
func sameProcess(pid int, start uint64) bool {
	st, ok := readStat(pid)
	return ok && st.start == start
}

// scanProcs reads the stat of every process.
func scanProcs() map[int]procStat {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	procs := make(map[int]procStat, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok {
			procs[pid] = st
		}
	}
	return procs
}

// subtree returns roots and their descendants in procs.
func subtree(procs map[int]procStat, roots []int) map[int]procStat {
	children := make(map[int][]int)
	for pid, p := range procs {
		children[p.ppid] = append(children[p.ppid], pid)
	}
	out := make(map[int]procStat)
	queue := roots
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		p, ok := procs[pid]
		if _, seen := out[pid]; seen || !ok || pid == os.Getpid() {
			continue
		}
		out[pid] = p
		queue = append(queue, children[pid]...)
	}
	return out
}

// childrenOfSelf returns the pids of the children that may be orphans
// re-parented to this process. The kernel (3.19 on) gives an orphan to
// the first live thread of its subreaper's thread group, the main thread (which a Go
// program never ends), so the main thread's children list holds them all,
// with the commands that thread started; the other threads' lists hold
// only commands. Without children lists it looks at every process's
// parent.
func childrenOfSelf() []int {
	if !hasChildrenLists() {
		return childrenByScan() // a kernel without CONFIG_PROC_CHILDREN
	}
	b, err := os.ReadFile(mainThreadChildren())
	if err != nil {
		return nil
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// mainThreadChildren is the path of the main thread's children list.
var mainThreadChildren = sync.OnceValue(func() string {
	pid := strconv.Itoa(os.Getpid())
	return "/proc/" + pid + "/task/" + pid + "/children"
})

// hasChildrenLists reports whether /proc has the children lists.
var hasChildrenLists = sync.OnceValue(func() bool {
	_, err := os.Stat(mainThreadChildren())
	return err == nil
})

func childrenByScan() []int {
	self := os.Getpid()
	var pids []int
	for pid, p := range scanProcs() {
		if p.ppid == self {
			pids = append(pids, pid)
		}
	}
	return pids
}

// sendSignal sends sig to pid if it is still the process that started at
// start, through a pidfd so that the pid cannot be reused in between.
func sendSignal(pid int, start uint64, sig syscall.Signal) {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		if errors.Is(err, unix.ENOSYS) && sameProcess(pid, start) {
			syscall.Kill(pid, sig) // before Linux 5.3
		}
		return
	}
	defer unix.Close(fd)
	if sameProcess(pid, start) {
		unix.PidfdSendSignal(fd, sig, nil, 0)
	}
}

// KillDescendants kills, with SIGKILL, every descendant of this process
// outside its own process group: the commands of calls still running with
// their trees, and the orphans re-parented to this process (a subreaper,
// see [EnableSubreaper]) that no call took, so that none outlives it. A
// program calls it as it exits, once its calls have ended or been given
// up on (the climax command does). Children in this process's own group
// (started without Setpgid, not by a [Runner]) are left alone.
func KillDescendants() {
	if !hasChildren() {
		return
	}
	calls.starting.Lock() // no command starts meanwhile
	defer calls.starting.Unlock()
	procs := scanProcs()
	self, ownGroup := os.Getpid(), syscall.Getpgrp()
	var roots []int
	for pid, p := range procs {
		if p.ppid == self && p.pgid != ownGroup {
			roots = append(roots, pid)
		}
	}
	for pid, p := range subtree(procs, roots) {
		sendSignal(pid, p.start, syscall.SIGKILL)
	}
}
