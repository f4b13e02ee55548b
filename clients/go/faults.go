package dipswitch

import (
	"context"
	"errors"
)

// FaultTimes is how often a rule fires: Times(n), or Unlimited. Its zero value is neither: the one thing this
// client refuses before sending (it would be sent as "unlimited"); every count is the server's to judge.
type FaultTimes struct {
	n         int
	said      bool
	unlimited bool
}

// Times is a rule that fires n times (the server takes 1 or more), then stays listed, spent.
func Times(n int) FaultTimes { return FaultTimes{n: n, said: true} }

// Unlimited is a rule that fires on every match until it is removed.
var Unlimited = FaultTimes{said: true, unlimited: true}

// FaultSpec is a rule to make: what it matches, what it does, how often (said), and its probability (nil: always).
type FaultSpec struct {
	Match       FaultMatch
	Effect      FaultEffect
	Times       FaultTimes
	Probability *float64
}

// FaultRule is a rule: its id and the rule as made (Made); Fired reads its count now.
type FaultRule struct {
	ID   string
	Made Fault
	c    *Client
}

// Faults are the rules that change answers and deliveries.
type Faults struct{ c *Client }

// Add makes a rule.
func (f *Faults) Add(ctx context.Context, spec FaultSpec) (*FaultRule, error) {
	body := FaultRequest{Match: spec.Match, Effect: spec.Effect, Probability: spec.Probability}
	switch {
	case !spec.Times.said:
		return nil, errors.New("dipswitch: a fault rule's Times is said: dipswitch.Times(n) or dipswitch.Unlimited")
	case !spec.Times.unlimited:
		body.Times = Ptr(spec.Times.n)
	}
	out := &FaultRule{c: f.c}
	if err := f.c.Do(ctx, OpSimAddFault, nil, body, nil, &out.Made); err != nil {
		return nil, err
	}
	out.ID = out.Made.ID
	return out, nil
}

// List answers the rules the client may see: its account's, or every rule with the admin token alone.
func (f *Faults) List(ctx context.Context) ([]Fault, error) {
	var out FaultList
	return out.Faults, f.c.Do(ctx, OpSimListFaults, nil, nil, nil, &out)
}

// Fired answers how often the rule has fired, as the server counts it now (0 once removed or reset).
func (r *FaultRule) Fired(ctx context.Context) (int, error) {
	rules, err := (&Faults{r.c}).List(ctx)
	if err != nil {
		return 0, err
	}
	for _, x := range rules {
		if x.ID == r.ID {
			return x.Fired, nil
		}
	}
	return 0, nil
}

// Remove removes the rule.
func (r *FaultRule) Remove(ctx context.Context) error {
	return r.c.Do(ctx, OpSimDeleteFault, Params{"id": r.ID}, nil, nil, nil)
}
