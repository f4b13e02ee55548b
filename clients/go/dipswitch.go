// Package dipswitch is a client of dipswitch's control API (contract/sim.yaml) for a Go team's tests, with
// nothing outside the standard library. Every method calls one operation by its operationId (Operations says
// which); nothing of the server is reimplemented. Connect reaches a running server; Start launches one.
package dipswitch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// Operations maps each method of the client to the operationId of contract/sim.yaml it calls.
var Operations = map[string]string{
	"Client.Health": "simHealth", "Client.OpenAPI": "simOpenapi", "Client.Reset": "simReset",
	"Client.Accounts": "simAccounts", "Client.Sandbox": "simCreateSandbox", "Sandbox.Remove": "simDeleteAccount",
	"Faults.Add": "simAddFault", "Faults.List": "simListFaults", "FaultRule.Remove": "simDeleteFault",
	"Requests.List": "simRequests", "Requests.Verify": "simVerifyRequests",
	"Deliveries.List": "simDeliveries", "Deliveries.Verify": "simVerifyDeliveries", "Deliveries.Redeliver": "simRedeliver",
	"Snapshots.List": "simListSnapshots", "Snapshots.Save": "simSaveSnapshot", "Snapshots.Restore": "simRestoreSnapshot",
	"Clock.Get": "simClock", "Clock.Advance": "simAdvance", "Clock.Freeze": "simFreeze", "Clock.Resume": "simResume",
	"Inbound.SMS": "simInboundSms", "Inbound.MMS": "simInboundMms", "Inbound.Call": "simInboundCall",
	"States.RaiseOverwrite": "simRaiseOverwrite", "States.MoveOrder": "simMoveOrder", "States.MoveRequest": "simMoveRequest",
	"States.AbortBulkDip": "simAbortBulkDip", "States.ScheduleBulkDip": "simScheduleBulkDip",
	"States.SuspendUser": "simSuspendUser", "States.ReinstateUser": "simReinstateUser", "States.CreateGroup": "simCreateGroup",
	"Client.Scenarios": "simListScenarios", "Client.RunScenario": "simScenario",
	"Client.Coverage": "simCoverage", "Client.Metrics": "simMetrics",
}

// Options are the credentials a client acts with: an account's key, or the server's admin token.
type Options struct {
	Key        string
	AdminToken string
	HTTP       *http.Client
}

// ControlError is an answer the control API refused: its status and its error envelope.
type ControlError struct {
	Status    int
	Operation string
	Errors    []ErrorObject   `json:"errors"`
	Body      json.RawMessage `json:"-"`
}

// ErrorObject is one error of the envelope.
type ErrorObject struct {
	Code   string `json:"code"`
	Detail string `json:"detail"`
}

func (e *ControlError) Error() string {
	said := make([]string, 0, len(e.Errors))
	for _, x := range e.Errors {
		said = append(said, x.Code+": "+x.Detail)
	}
	return fmt.Sprintf("%s answered %d: %s", e.Operation, e.Status, strings.Join(said, "; "))
}

// Difference is a field of a near miss: what was expected and what came.
type Difference struct {
	Field    string `json:"field"`
	Expected any    `json:"expected"`
	Actual   any    `json:"actual"`
}

// NearMiss is a call or delivery that came closest to a failed verification.
type NearMiss struct {
	ID          any          `json:"id"`
	Summary     string       `json:"summary"`
	Differences []Difference `json:"differences"`
}

// VerificationError is a verify whose count did not hold, with the nearest misses.
type VerificationError struct {
	Count      int        `json:"count"`
	Expected   string     `json:"expected"`
	NearMisses []NearMiss `json:"near_misses"`
	Detail     string
}

func (e *VerificationError) Error() string {
	var b strings.Builder
	b.WriteString(e.Detail)
	for _, m := range e.NearMisses {
		fmt.Fprintf(&b, "\n  near miss: %s", m.Summary)
		for _, d := range m.Differences {
			exp, _ := json.Marshal(d.Expected)
			act, _ := json.Marshal(d.Actual)
			fmt.Fprintf(&b, "\n    %s: expected %s, got %s", d.Field, exp, act)
		}
	}
	if len(e.NearMisses) == 0 {
		b.WriteString("\n  no call came near it")
	}
	return b.String()
}

// Client is a client of the control API at URL.
type Client struct {
	URL        string
	opts       Options
	Clock      *Clock
	Inbound    *Inbound
	Faults     *Faults
	Requests   *Requests
	Deliveries *Deliveries
	Snapshots  *Snapshots
	States     *States
}

// Connect answers a client of the server at url, acting with opts' key or token.
func Connect(baseURL string, opts Options) *Client {
	if opts.HTTP == nil {
		opts.HTTP = &http.Client{Timeout: 60 * time.Second}
	}
	c := &Client{URL: strings.TrimRight(baseURL, "/"), opts: opts}
	c.Clock, c.Inbound, c.Faults = &Clock{c}, &Inbound{c}, &Faults{c}
	c.Requests, c.Deliveries, c.Snapshots, c.States = &Requests{c}, &Deliveries{c}, &Snapshots{c}, &States{c}
	return c
}

// Do calls one operation: its method and path, a JSON body (nil for none), the query, and where its answer goes.
func (c *Client) Do(ctx context.Context, operation, method, path string, body any, query url.Values, out any) error {
	target := c.URL + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	var reader io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		reader = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, reader)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("content-type", "application/json")
	}
	if c.opts.Key != "" {
		req.Header.Set("authorization", "Bearer "+c.opts.Key)
	}
	if c.opts.AdminToken != "" {
		req.Header.Set("x-sim-admin-token", c.opts.AdminToken)
	}
	res, err := c.opts.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode >= 300 {
		refused := &ControlError{Status: res.StatusCode, Operation: operation, Body: data}
		_ = json.Unmarshal(data, refused)
		if len(refused.Errors) > 0 && refused.Errors[0].Code == "verification_failed" {
			failed := &VerificationError{Detail: refused.Errors[0].Detail}
			_ = json.Unmarshal(data, failed)
			return failed
		}
		return refused
	}
	if out == nil || len(data) == 0 {
		return nil
	}
	if s, ok := out.(*string); ok {
		*s = string(data)
		return nil
	}
	return json.Unmarshal(data, out)
}

// Health answers once the server is ready.
func (c *Client) Health(ctx context.Context) error {
	return c.Do(ctx, "simHealth", "GET", "/__sim/health", nil, nil, nil)
}

// OpenAPI answers the control API's contract.
func (c *Client) OpenAPI(ctx context.Context) (map[string]any, error) {
	var out map[string]any
	return out, c.Do(ctx, "simOpenapi", "GET", "/__sim/openapi", nil, nil, &out)
}

// Reset puts the key's account back as it began; without a key, the fixture accounts (sandboxes kept unless removeSandboxes).
func (c *Client) Reset(ctx context.Context, removeSandboxes bool) error {
	body := map[string]any{}
	if removeSandboxes {
		body["remove_sandboxes"] = true
	}
	return c.Do(ctx, "simReset", "POST", "/__sim/reset", body, nil, nil)
}

// Accounts answers every account with its keys (the admin token's).
func (c *Client) Accounts(ctx context.Context) ([]map[string]any, error) {
	var out struct {
		Accounts []map[string]any `json:"accounts"`
	}
	return out.Accounts, c.Do(ctx, "simAccounts", "GET", "/__sim/accounts", nil, nil, &out)
}

// Scenarios answers the catalogue of scenarios.
func (c *Client) Scenarios(ctx context.Context) (map[string]any, error) {
	var out map[string]any
	return out, c.Do(ctx, "simListScenarios", "GET", "/__sim/scenarios", nil, nil, &out)
}

// RunScenario runs a scenario on the server and answers its timeline.
func (c *Client) RunScenario(ctx context.Context, name string) (map[string]any, error) {
	var out map[string]any
	return out, c.Do(ctx, "simScenario", "POST", "/__sim/scenarios/"+url.PathEscape(name), nil, nil, &out)
}

// Metrics answers the server's metrics in Prometheus's text format.
func (c *Client) Metrics(ctx context.Context) (string, error) {
	var out string
	return out, c.Do(ctx, "simMetrics", "GET", "/__sim/metrics", nil, nil, &out)
}

// CoverageSummary is the summary of a coverage report.
type CoverageSummary struct {
	OperationsCalled int     `json:"operations_called"`
	Operations       int     `json:"operations"`
	AnswersSeen      int     `json:"answers_seen"`
	Answers          int     `json:"answers"`
	Percent          float64 `json:"percent"`
}

// Coverage is what a suite met of the contract.
type Coverage struct {
	Summary    CoverageSummary  `json:"summary"`
	Operations []map[string]any `json:"operations"`
	Faults     []map[string]any `json:"faults"`
}

// Coverage answers the coverage of the key's account, of a run's sandboxes (run), of one account, or of all.
func (c *Client) Coverage(ctx context.Context, run, accountID string) (*Coverage, error) {
	q := url.Values{}
	if run != "" {
		q.Set("run", run)
	}
	if accountID != "" {
		q.Set("account_id", accountID)
	}
	var out Coverage
	return &out, c.Do(ctx, "simCoverage", "GET", "/__sim/coverage", nil, q, &out)
}

// Keys are a sandbox's keys.
type Keys struct {
	Admin    string `json:"admin"`
	Readonly string `json:"readonly"`
	Standard string `json:"standard"`
}

// Sandbox is an account of its own and a client acting on it alone (its admin key).
type Sandbox struct {
	*Client
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Run     string   `json:"run"`
	Keys    Keys     `json:"keys"`
	Numbers []string `json:"numbers"`
	parent  *Client
}

// Sandbox makes a sandbox of the run in DIPSWITCH_RUN (if set), and answers it with its client.
func (c *Client) Sandbox(ctx context.Context, name string) (*Sandbox, error) {
	body := map[string]any{}
	if name != "" {
		body["name"] = name
	}
	if run := os.Getenv("DIPSWITCH_RUN"); run != "" {
		body["run"] = run
	}
	box := &Sandbox{parent: c}
	if err := c.Do(ctx, "simCreateSandbox", "POST", "/__sim/accounts", body, nil, box); err != nil {
		return nil, err
	}
	box.Client = Connect(c.URL, Options{Key: box.Keys.Admin, AdminToken: c.opts.AdminToken, HTTP: c.opts.HTTP})
	return box, nil
}

// Remove removes the sandbox and everything it owns (its coverage is kept with its run).
func (b *Sandbox) Remove(ctx context.Context) error {
	return b.Do(ctx, "simDeleteAccount", "DELETE", "/__sim/accounts/"+url.PathEscape(b.ID), nil, nil, nil)
}

// Clock is the account's clock.
type Clock struct{ c *Client }

// Get answers the clock and its waiting steps.
func (k *Clock) Get(ctx context.Context) (map[string]any, error) {
	var out map[string]any
	return out, k.c.Do(ctx, "simClock", "GET", "/__sim/clock", nil, nil, &out)
}

// Advance moves the clock by an ISO 8601 duration (PT10M), running what falls due.
func (k *Clock) Advance(ctx context.Context, by string) (map[string]any, error) {
	var out map[string]any
	return out, k.c.Do(ctx, "simAdvance", "POST", "/__sim/clock/advance", map[string]any{"by": by}, nil, &out)
}

// Freeze stops the clock following wall time.
func (k *Clock) Freeze(ctx context.Context) error {
	return k.c.Do(ctx, "simFreeze", "POST", "/__sim/clock/freeze", nil, nil, nil)
}

// Resume makes the clock follow wall time again.
func (k *Clock) Resume(ctx context.Context) error {
	return k.c.Do(ctx, "simResume", "POST", "/__sim/clock/resume", nil, nil, nil)
}

// Inbound is traffic arriving at the account's numbers.
type Inbound struct{ c *Client }

// InboundSMS is an SMS from a handset.
type InboundSMS struct {
	To   string `json:"to"`
	From string `json:"from"`
	Text string `json:"text"`
}

// SMS delivers an SMS to one of the account's numbers and answers its trace.
func (i *Inbound) SMS(ctx context.Context, m InboundSMS) (map[string]any, error) {
	var out map[string]any
	return out, i.c.Do(ctx, "simInboundSms", "POST", "/__sim/inbound/sms", m, nil, &out)
}

// MMS delivers an MMS (media_urls required) and answers its trace.
func (i *Inbound) MMS(ctx context.Context, m map[string]any) (map[string]any, error) {
	var out map[string]any
	return out, i.c.Do(ctx, "simInboundMms", "POST", "/__sim/inbound/mms", m, nil, &out)
}

// Call places a call to one of the account's numbers and answers the routing decision.
func (i *Inbound) Call(ctx context.Context, to, from string) (map[string]any, error) {
	var out map[string]any
	return out, i.c.Do(ctx, "simInboundCall", "POST", "/__sim/inbound/call", map[string]any{"to": to, "from": from}, nil, &out)
}

// FaultRequest is a rule to make: what it matches, what it does, how often.
type FaultRequest struct {
	Match       map[string]any `json:"match"`
	Effect      map[string]any `json:"effect"`
	Times       int            `json:"times,omitempty"`
	Probability float64        `json:"probability,omitempty"`
}

// FaultRule is a rule as made.
type FaultRule struct {
	ID      string `json:"id"`
	Fired   int    `json:"fired"`
	Spent   bool   `json:"spent"`
	Warning string `json:"warning"`
	c       *Client
}

// Faults are the rules that change answers and deliveries.
type Faults struct{ c *Client }

// Add makes a rule.
func (f *Faults) Add(ctx context.Context, r FaultRequest) (*FaultRule, error) {
	out := &FaultRule{c: f.c}
	return out, f.c.Do(ctx, "simAddFault", "POST", "/__sim/faults", r, nil, out)
}

// List answers the rules.
func (f *Faults) List(ctx context.Context) ([]FaultRule, error) {
	var out struct {
		Faults []FaultRule `json:"faults"`
	}
	return out.Faults, f.c.Do(ctx, "simListFaults", "GET", "/__sim/faults", nil, nil, &out)
}

// FiredNow answers how often the rule has fired, as the server counts it now.
func (r *FaultRule) FiredNow(ctx context.Context) (int, error) {
	rules, err := (&Faults{r.c}).List(ctx)
	for _, x := range rules {
		if x.ID == r.ID {
			return x.Fired, err
		}
	}
	return r.Fired, err
}

// Remove removes the rule.
func (r *FaultRule) Remove(ctx context.Context) error {
	return r.c.Do(ctx, "simDeleteFault", "DELETE", "/__sim/faults/"+url.PathEscape(r.ID), nil, nil, nil)
}

// Count is how many matches a verify wants: Exactly, AtLeast or AtMost (one of them).
type Count struct {
	Exactly *int `json:"exactly,omitempty"`
	AtLeast *int `json:"at_least,omitempty"`
	AtMost  *int `json:"at_most,omitempty"`
}

// N is a count for Count's fields.
func N(n int) *int { return &n }

// Pattern is a verify's pattern: the match (the control API's grammar) and the count.
type Pattern struct {
	Match map[string]any `json:"match"`
	Count *Count         `json:"count,omitempty"`
	API   string         `json:"api,omitempty"`
}

// Verified is a verify that held.
type Verified struct {
	Count   int   `json:"count"`
	Matches []any `json:"matches"`
}

// Requests is the journal of calls.
type Requests struct{ c *Client }

// List answers a page of the journal.
func (r *Requests) List(ctx context.Context, query url.Values) (map[string]any, error) {
	var out map[string]any
	return out, r.c.Do(ctx, "simRequests", "GET", "/__sim/requests", nil, query, &out)
}

// Verify counts the calls that match; a *VerificationError when the count does not hold.
func (r *Requests) Verify(ctx context.Context, p Pattern) (*Verified, error) {
	var out Verified
	return &out, r.c.Do(ctx, "simVerifyRequests", "POST", "/__sim/requests/verify", p, nil, &out)
}

// Delivery is one outbound delivery.
type Delivery struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Target  string `json:"target"`
	Outcome string `json:"outcome"`
	Body    string `json:"body"`
}

// Deliveries is the delivery log.
type Deliveries struct{ c *Client }

// List answers the deliveries (of one kind, if given).
func (d *Deliveries) List(ctx context.Context, kind string) ([]Delivery, error) {
	q := url.Values{}
	if kind != "" {
		q.Set("kind", kind)
	}
	var out struct {
		Deliveries []Delivery `json:"deliveries"`
	}
	return out.Deliveries, d.c.Do(ctx, "simDeliveries", "GET", "/__sim/deliveries", nil, q, &out)
}

// Verify counts the deliveries that match; a *VerificationError when the count does not hold.
func (d *Deliveries) Verify(ctx context.Context, p Pattern) (*Verified, error) {
	var out Verified
	return &out, d.c.Do(ctx, "simVerifyDeliveries", "POST", "/__sim/deliveries/verify", p, nil, &out)
}

// WaitFor answers the oldest delivery holding the match (checked by the server, as a verify's), waiting up to timeout.
func (d *Deliveries) WaitFor(ctx context.Context, match map[string]any, timeout time.Duration) (*Delivery, error) {
	deadline := time.Now().Add(timeout)
	for {
		found, err := d.Verify(ctx, Pattern{Match: match, Count: &Count{AtLeast: N(1)}})
		if err == nil && len(found.Matches) > 0 {
			kind, _ := match["kind"].(string)
			all, lerr := d.List(ctx, kind)
			if lerr != nil {
				return nil, lerr
			}
			for i := range all {
				if all[i].ID == fmt.Sprint(found.Matches[len(found.Matches)-1]) {
					return &all[i], nil
				}
			}
		} else if _, waiting := err.(*VerificationError); err != nil && !waiting {
			return nil, err
		} else if time.Now().After(deadline) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Redeliver sends a delivery again now.
func (d *Deliveries) Redeliver(ctx context.Context, id string) error {
	return d.c.Do(ctx, "simRedeliver", "POST", "/__sim/deliveries/"+url.PathEscape(id)+"/redeliver", nil, nil, nil)
}

// Snapshots save and restore the state.
type Snapshots struct{ c *Client }

// Save saves a snapshot under a name.
func (s *Snapshots) Save(ctx context.Context, name string) error {
	return s.c.Do(ctx, "simSaveSnapshot", "POST", "/__sim/snapshots", map[string]any{"name": name}, nil, nil)
}

// Restore puts a snapshot back.
func (s *Snapshots) Restore(ctx context.Context, name string) error {
	return s.c.Do(ctx, "simRestoreSnapshot", "POST", "/__sim/snapshots/"+url.PathEscape(name)+"/restore", nil, nil, nil)
}

// List answers the snapshots.
func (s *Snapshots) List(ctx context.Context) ([]map[string]any, error) {
	var out struct {
		Snapshots []map[string]any `json:"snapshots"`
	}
	return out.Snapshots, s.c.Do(ctx, "simListSnapshots", "GET", "/__sim/snapshots", nil, nil, &out)
}

// States moves records to states the clock alone does not reach.
type States struct{ c *Client }

func (s *States) post(ctx context.Context, op, path string, body any) (map[string]any, error) {
	var out map[string]any
	return out, s.c.Do(ctx, op, "POST", path, body, nil, &out)
}

// RaiseOverwrite raises an OSR overwrite request for a number.
func (s *States) RaiseOverwrite(ctx context.Context, number string) (map[string]any, error) {
	return s.post(ctx, "simRaiseOverwrite", "/__sim/osr/overwrite_requests", map[string]any{"number": number})
}

// MoveOrder moves an order to a status its table allows.
func (s *States) MoveOrder(ctx context.Context, id, status string) (map[string]any, error) {
	return s.post(ctx, "simMoveOrder", "/__sim/orders/"+url.PathEscape(id)+"/status", map[string]any{"status": status})
}

// MoveRequest moves a submitted request to a status its table allows.
func (s *States) MoveRequest(ctx context.Context, id, status string) (map[string]any, error) {
	return s.post(ctx, "simMoveRequest", "/__sim/requests/"+url.PathEscape(id)+"/status", map[string]any{"status": status})
}

// AbortBulkDip ends an unfinished bulk dip task ABORTED.
func (s *States) AbortBulkDip(ctx context.Context, id string) (map[string]any, error) {
	return s.post(ctx, "simAbortBulkDip", "/__sim/bulk_dip_tasks/"+url.PathEscape(id)+"/abort", nil)
}

// ScheduleBulkDip holds a NEW bulk dip task SCHEDULED until a time.
func (s *States) ScheduleBulkDip(ctx context.Context, id, until string) (map[string]any, error) {
	return s.post(ctx, "simScheduleBulkDip", "/__sim/bulk_dip_tasks/"+url.PathEscape(id)+"/schedule", map[string]any{"until": until})
}

// SuspendUser suspends a user of the account.
func (s *States) SuspendUser(ctx context.Context, id string) (map[string]any, error) {
	return s.post(ctx, "simSuspendUser", "/__sim/users/"+url.PathEscape(id)+"/suspend", nil)
}

// ReinstateUser reinstates a suspended user.
func (s *States) ReinstateUser(ctx context.Context, id string) (map[string]any, error) {
	return s.post(ctx, "simReinstateUser", "/__sim/users/"+url.PathEscape(id)+"/reinstate", nil)
}

// CreateGroup adds a shared resource group to the account.
func (s *States) CreateGroup(ctx context.Context, name string) (map[string]any, error) {
	return s.post(ctx, "simCreateGroup", "/__sim/shared_resource_groups", map[string]any{"name": name})
}

// StartOptions say how to launch a server: a command (else npx dipswitch), and its admin token.
type StartOptions struct {
	Command    []string
	AdminToken string
}

// Server is a server this process started, and a client with its authority.
type Server struct {
	*Client
	cmd *exec.Cmd
}

var serving = regexp.MustCompile(`serving (http://[^\s"/]+)/api/v1`)

// Start launches dipswitch (opts.Command, else npx dipswitch --memory --port 0) and answers once it serves.
// The server dies with this process however it ends (Linux: the parent-death signal); Stop ends it sooner.
func Start(ctx context.Context, opts StartOptions) (*Server, error) {
	argv := opts.Command
	if len(argv) == 0 {
		argv = []string{"npx", "dipswitch", "--memory", "--port", "0"}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = dieWithParent()
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	found := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(out)
		sent := false
		for lines.Scan() {
			if m := serving.FindStringSubmatch(lines.Text()); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case base, ok := <-found:
		if !ok {
			_ = cmd.Wait()
			return nil, fmt.Errorf("dipswitch did not start: %v", argv)
		}
		return &Server{Client: Connect(base, Options{AdminToken: opts.AdminToken}), cmd: cmd}, nil
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		return nil, ctx.Err()
	}
}

// Stop ends the server with SIGTERM (pending writes finish) and waits for it.
func (s *Server) Stop() error {
	if s.cmd == nil || s.cmd.Process == nil {
		return nil
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	return s.cmd.Wait()
}
