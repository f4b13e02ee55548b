// Package dipswitch is a client of dipswitch's control API (contract/sim.yaml) for a Go team's tests, with
// nothing outside the standard library. Every method of an area is one operation of the contract, generated
// from it (api_<area>.go), as are the request and answer types (generated.go); written by hand are the launch,
// Do and its errors, Sandbox and WaitFor. Connect reaches a running server; Start starts one (Settings say
// where and how). A verify the server refuses with verification_failed is a *VerificationError; any other
// refusal a *ControlError.
package dipswitch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Version is the dipswitch release this client belongs to.
const Version = "0.1.0"

// Options are the credentials a client acts with: an account's key, the server's admin token, or both.
type Options struct {
	Key        string
	AdminToken string
	HTTP       *http.Client
}

// ControlError is an answer the control API refused: its status and its error envelope.
type ControlError struct {
	Status    int
	Operation string
	Errors    []ErrorResponseErrorsItem `json:"errors"`
	Body      json.RawMessage           `json:"-"`
}

func (e *ControlError) Error() string {
	said := make([]string, 0, len(e.Errors))
	for _, x := range e.Errors {
		said = append(said, x.Code+": "+x.Detail)
	}
	return fmt.Sprintf("%s answered %d: %s", e.Operation, e.Status, strings.Join(said, "; "))
}

// Code answers the first error's code.
func (e *ControlError) Code() string {
	if len(e.Errors) == 0 {
		return ""
	}
	return e.Errors[0].Code
}

// VerificationError is a verify whose count did not hold, or a wait that ran out: what was asked, what came
// nearest (closest first), and what the server knows of why nothing came.
type VerificationError struct {
	Count      int        `json:"count"`
	Expected   string     `json:"expected"`
	NearMisses []NearMiss `json:"near_misses"`
	LeftOut    int        `json:"near_misses_left_out"`
	Notes      []string   `json:"notes"`
	Detail     string     `json:"-"`
	// Of is what was verified: "calls" or "deliveries".
	Of string `json:"-"`
	// Waited is how long a WaitFor waited before it gave up (0 for a verify).
	Waited time.Duration `json:"-"`
}

func (e *VerificationError) Error() string {
	var b strings.Builder
	if e.Waited > 0 {
		fmt.Fprintf(&b, "Waited %s: %s%s", e.Waited, strings.ToLower(e.Detail[:1]), e.Detail[1:])
	} else {
		b.WriteString(e.Detail)
	}
	for _, n := range e.Notes {
		fmt.Fprintf(&b, "\n  %s", n)
	}
	for _, m := range e.NearMisses {
		fmt.Fprintf(&b, "\n  near miss: %s", m.Summary)
		for _, d := range m.Differences {
			exp, _ := json.Marshal(d.Expected)
			act, _ := json.Marshal(d.Actual)
			fmt.Fprintf(&b, "\n    %s: expected %s, got %s", d.Field, exp, act)
		}
	}
	if e.LeftOut > 0 {
		fmt.Fprintf(&b, "\n  … and %d further from it, left out", e.LeftOut)
	}
	if len(e.NearMisses) == 0 && len(e.Notes) == 0 {
		what := "call"
		if e.Of == "deliveries" {
			what = "delivery"
		}
		fmt.Fprintf(&b, "\n  no %s came near it", what)
	}
	return b.String()
}

// Client is a client of the control API at URL, with the areas of the API.
type Client struct {
	URL  string
	opts Options
	// the areas (Clock, Inbound, Faults, Requests, Deliveries, Snapshots, States): api_client.go
	areas
	// Run is the run sandboxes are made for when none is given (else DIPSWITCH_RUN).
	Run string
	// ReceiverHost is the address the server reaches this machine's loopback at: give it in a receiver's URL
	// (127.0.0.1; 10.0.2.2 or host.docker.internal for an image this process started).
	ReceiverHost string
}

// Connect answers a client of the server at baseURL, acting with opts' key or token.
func Connect(baseURL string, opts Options) *Client {
	if opts.HTTP == nil {
		opts.HTTP = &http.Client{Timeout: 60 * time.Second}
	}
	c := &Client{URL: strings.TrimRight(baseURL, "/"), opts: opts, ReceiverHost: "127.0.0.1"}
	c.bind(c)
	return c
}

// Ptr answers a pointer to v: for the optional fields of the generated types.
func Ptr[T any](v T) *T { return &v }

// Params are an operation's path parameters.
type Params map[string]string

// Do calls one operation: its path parameters, a JSON body (nil for none), the query, and where its answer goes.
// A verify's verification_failed is a *VerificationError, any other refusal a *ControlError.
func (c *Client) Do(ctx context.Context, op Operation, params Params, body any, query url.Values, out any) error {
	path := op.Path
	for k, v := range params {
		path = strings.ReplaceAll(path, "{"+k+"}", url.PathEscape(v))
	}
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
	req, err := http.NewRequestWithContext(ctx, op.Method, target, reader)
	if err != nil {
		return err
	}
	req.Header.Set("accept", "application/json")
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
		return fmt.Errorf("%s: no answer from %s: %w", op.ID, c.URL, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode >= 300 {
		refused := &ControlError{Status: res.StatusCode, Operation: op.ID, Body: data}
		_ = json.Unmarshal(data, refused)
		if refused.Code() == "verification_failed" {
			failed := &VerificationError{Detail: refused.Errors[0].Detail, Of: "calls"}
			if op == OpSimVerifyDeliveries {
				failed.Of = "deliveries"
			}
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
