// Package dipswitchtest gives Go tests a dipswitch: Main reaches (or starts) the server for the test binary
// and gates the run's coverage; NewSandbox gives a test a sandbox of its own, removed with t.Cleanup; Verify
// and WaitFor fail the test with what came nearest. Settings come from MainOptions, else the environment
// (DIPSWITCH_URL, DIPSWITCH_IMAGE, DIPSWITCH_COMMAND, DIPSWITCH_FAIL_UNDER…), else defaults.
package dipswitchtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	dipswitch "dipswitch.test/go"
)

// MainOptions are the settings in code; each unset one is read from its environment variable. A gate set here
// (FailUnder) wins over DIPSWITCH_FAIL_UNDER; leave it nil to set it in CI alone.
type MainOptions = dipswitch.Settings

var server *dipswitch.Server

// Server answers the test binary's server, with the control API's authority.
func Server() *dipswitch.Server {
	if server == nil {
		panic("dipswitchtest.Main has not run: call it from TestMain")
	}
	return server
}

// Gate is a coverage gate for MainOptions.FailUnder.
func Gate(percent float64) *float64 { return &percent }

// Main runs the tests against a server, then gates the run's coverage; it exits with the run's status.
func Main(m *testing.M, opts MainOptions) {
	os.Exit(run(m, opts))
}

func run(m *testing.M, opts MainOptions) int {
	ctx := context.Background()
	settings, err := opts.Resolve()
	if err != nil {
		fmt.Fprintln(os.Stderr, "dipswitchtest:", err)
		return 2
	}
	if settings.Run == "" {
		id := make([]byte, 6)
		_, _ = rand.Read(id)
		settings.Run = "go-test-" + hex.EncodeToString(id)
	}
	started, err := dipswitch.Start(ctx, settings)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dipswitchtest:", err)
		return 1
	}
	defer started.Stop()
	server = started
	status := m.Run()
	if settings.FailUnder != nil {
		if !gate(ctx, settings.Run, *settings.FailUnder) {
			status = 1
		}
	}
	return status
}

// gate says the run's coverage against the gate, in one line, and whether it passes.
func gate(ctx context.Context, run string, percent float64) bool {
	c, err := server.Coverage(ctx, &dipswitch.CoverageQuery{Run: &run})
	var refused *dipswitch.ControlError
	if errors.As(err, &refused) && refused.Status == 422 {
		fmt.Printf("dipswitch coverage of run %s: the run made no sandbox: FAILS the gate of %g%%\n", run, percent)
		return false
	} else if err != nil {
		fmt.Printf("dipswitch coverage of run %s could not be read (%v): FAILS the gate of %g%%\n", run, err, percent)
		return false
	}
	s := c.Summary
	verdict := "passes"
	if s.Percent < percent {
		verdict = "FAILS"
	}
	fmt.Printf("dipswitch coverage of run %s: %d of %d documented answers of %d operations called seen (%g%%): %s the gate of %g%%\n",
		run, s.AnswersSeen, s.Answers, s.OperationsCalled, s.Percent, verdict, percent)
	return verdict == "passes"
}

// NewSandbox makes a sandbox of the run for the test, removed when the test ends.
func NewSandbox(t testing.TB) *dipswitch.Sandbox {
	t.Helper()
	box, err := Server().Sandbox(context.Background(), t.Name())
	if err != nil {
		t.Fatalf("a sandbox: %v", err)
	}
	t.Cleanup(func() {
		if _, err := box.Remove(context.Background()); err != nil {
			t.Errorf("removing the sandbox: %v", err)
		}
	})
	return box
}

// Verify checks the calls a sandbox (or any client) made against a pattern; the test fails with the near misses.
func Verify(t testing.TB, c *dipswitch.Client, match dipswitch.VerifyRequestsMatch, count *dipswitch.VerifyCount) *dipswitch.Verified {
	t.Helper()
	v, err := c.Requests.Verify(context.Background(), dipswitch.VerifyRequests{Match: match, Count: count})
	fail(t, err)
	return v
}

// VerifyDeliveries checks the deliveries against a pattern; the test fails with the near misses and what the
// server knows of why nothing was sent.
func VerifyDeliveries(t testing.TB, c *dipswitch.Client, match dipswitch.VerifyDeliveriesMatch, count *dipswitch.VerifyCount) *dipswitch.Verified {
	t.Helper()
	v, err := c.Deliveries.Verify(context.Background(), dipswitch.VerifyDeliveries{Match: match, Count: count})
	fail(t, err)
	return v
}

// WaitFor answers the oldest delivery holding match, waiting up to timeout; the test fails saying what it waited for.
func WaitFor(t testing.TB, c *dipswitch.Client, match dipswitch.VerifyDeliveriesMatch, timeout time.Duration) *dipswitch.Delivery {
	t.Helper()
	d, err := c.Deliveries.WaitFor(context.Background(), match, timeout)
	fail(t, err)
	return d
}

func fail(t testing.TB, err error) {
	t.Helper()
	var failed *dipswitch.VerificationError
	if errors.As(err, &failed) {
		t.Fatalf("%v", failed)
	} else if err != nil {
		t.Fatalf("%v", err)
	}
}
