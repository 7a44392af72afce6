package executor_test

import (
	"context"
	"os"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/executor/executortest"
)

// runCallVar makes the test binary run one call of the fake CLI that
// writes its pid to the variable's value, then sleeps: the process a test
// kills to see that the command dies with it.
const runCallVar = "CLIMAX_TEST_RUN_CALL"

// The test binary doubles as the fake CLI that subprocess tests run (see
// package executortest), and as a process running a call (runCallVar). As
// the climax command does, it makes itself a child subreaper, where the
// system has them.
func TestMain(m *testing.M) {
	executortest.Intercept()
	if file := os.Getenv(runCallVar); file != "" {
		executor.New().Call(context.Background(), fake("pid="+file+" sleep=30s", 60), nil)
		os.Exit(0)
	}
	executor.EnableSubreaper()
	os.Exit(m.Run())
}
