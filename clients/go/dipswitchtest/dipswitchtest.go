// Package dipswitchtest gives Go tests a dipswitch: Main starts (or connects to) the server for the test
// binary and gates the run's coverage; NewSandbox gives a test a sandbox of its own, removed with t.Cleanup;
// Verify fails the test with the near misses.
package dipswitchtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	dipswitch "dipswitch.test/go"
)

// MainOptions say where the server is and what the run's coverage must reach.
type MainOptions struct {
	// URL of a running server (else DIPSWITCH_URL, else one is started with Command, DIPSWITCH_COMMAND or npx).
	URL string
	// AdminToken of the server, where it has one (else DIPSWITCH_ADMIN_TOKEN).
	AdminToken string
	// Command starts the server when no URL is given.
	Command []string
	// FailUnder fails the run when its coverage of the contract is under this percentage (0: no gate).
	FailUnder float64
}

var server *dipswitch.Client

// Server answers the test binary's server, with the control API's authority.
func Server() *dipswitch.Client {
	if server == nil {
		panic("dipswitchtest.Main has not run: call it from TestMain")
	}
	return server
}

// Main runs the tests against a server, then gates the run's coverage; it exits with the run's status.
func Main(m *testing.M, opts MainOptions) {
	os.Exit(run(m, opts))
}

func run(m *testing.M, opts MainOptions) int {
	ctx := context.Background()
	if os.Getenv("DIPSWITCH_RUN") == "" {
		id := make([]byte, 6)
		_, _ = rand.Read(id)
		os.Setenv("DIPSWITCH_RUN", "go-test-"+hex.EncodeToString(id))
	}
	token := opts.AdminToken
	if token == "" {
		token = os.Getenv("DIPSWITCH_ADMIN_TOKEN")
	}
	url := opts.URL
	if url == "" {
		url = os.Getenv("DIPSWITCH_URL")
	}
	if url != "" {
		server = dipswitch.Connect(url, dipswitch.Options{AdminToken: token})
	} else {
		command := opts.Command
		if len(command) == 0 && os.Getenv("DIPSWITCH_COMMAND") != "" {
			command = strings.Fields(os.Getenv("DIPSWITCH_COMMAND"))
		}
		started, err := dipswitch.Start(ctx, dipswitch.StartOptions{Command: command, AdminToken: token})
		if err != nil {
			fmt.Fprintln(os.Stderr, "dipswitchtest:", err)
			return 1
		}
		defer started.Stop()
		server = started.Client
	}
	status := m.Run()
	if opts.FailUnder > 0 {
		run := os.Getenv("DIPSWITCH_RUN")
		c, err := server.Coverage(ctx, run, "")
		if err != nil {
			fmt.Fprintln(os.Stderr, "dipswitchtest: coverage:", err)
			return 1
		}
		s := c.Summary
		verdict := "passes"
		if s.Percent < opts.FailUnder {
			verdict = "FAILS"
			status = 1
		}
		fmt.Printf("dipswitch coverage of run %s: %d of %d documented answers of %d operations called seen (%g%%): %s the gate of %g%%\n",
			run, s.AnswersSeen, s.Answers, s.OperationsCalled, s.Percent, verdict, opts.FailUnder)
	}
	return status
}

// NewSandbox makes a sandbox of the run for the test, removed when the test ends.
func NewSandbox(t testing.TB) *dipswitch.Sandbox {
	t.Helper()
	box, err := Server().Sandbox(context.Background(), t.Name())
	if err != nil {
		t.Fatalf("a sandbox: %v", err)
	}
	t.Cleanup(func() {
		if err := box.Remove(context.Background()); err != nil {
			t.Errorf("removing the sandbox: %v", err)
		}
	})
	return box
}

// Verify checks the calls a sandbox (or any client) made against a pattern; the test fails with the near misses.
func Verify(t testing.TB, c *dipswitch.Client, p dipswitch.Pattern) *dipswitch.Verified {
	t.Helper()
	v, err := c.Requests.Verify(context.Background(), p)
	var failed *dipswitch.VerificationError
	if errors.As(err, &failed) {
		t.Fatalf("%v", failed)
	} else if err != nil {
		t.Fatalf("verify: %v", err)
	}
	return v
}
