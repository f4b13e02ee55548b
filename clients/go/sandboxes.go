package dipswitch

import (
	"context"
	"os"
)

// Sandbox is an account of its own and a client acting on it alone (its admin key).
type Sandbox struct {
	*Client
	ID      string
	Name    string
	Keys    SandboxMadeKeys
	Numbers []string
	// Made is the sandbox as the server answered it.
	Made SandboxMade
}

// Sandbox makes a sandbox of the run (the client's Run, else DIPSWITCH_RUN), and answers it with its client.
func (c *Client) Sandbox(ctx context.Context, name string) (*Sandbox, error) {
	body := SandboxRequest{}
	if name != "" {
		body.Name = Ptr(name)
	}
	run := c.Run
	if run == "" {
		run = os.Getenv("DIPSWITCH_RUN")
	}
	if run != "" {
		body.Run = Ptr(run)
	}
	made, err := c.CreateSandbox(ctx, body)
	if err != nil {
		return nil, err
	}
	box := &Sandbox{Made: *made}
	box.ID, box.Name, box.Keys, box.Numbers = box.Made.ID, box.Made.Name, box.Made.Keys, box.Made.Numbers
	box.Client = Connect(c.URL, Options{Key: box.Keys.Admin, AdminToken: c.opts.AdminToken, HTTP: c.opts.HTTP})
	box.Client.Run = run
	box.Client.ReceiverHost = c.ReceiverHost
	return box, nil
}
