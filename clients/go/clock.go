package dipswitch

import "context"

// Clock is the account's clock.
type Clock struct{ c *Client }

// Get answers the clock, its mode and the steps waiting on it.
func (k *Clock) Get(ctx context.Context) (*ClockState, error) {
	var out ClockState
	return &out, k.c.Do(ctx, OpSimClock, nil, nil, nil, &out)
}

// Advance moves the clock by an ISO 8601 duration (PT10M), running what falls due.
func (k *Clock) Advance(ctx context.Context, by Duration) (*AdvanceResponse, error) {
	return k.move(ctx, AdvanceRequest{By: Ptr(by)})
}

// AdvanceTo moves the clock to a time (RFC 3339), running what falls due.
func (k *Clock) AdvanceTo(ctx context.Context, to string) (*AdvanceResponse, error) {
	return k.move(ctx, AdvanceRequest{To: Ptr(to)})
}

// AdvanceNext moves the clock to the next scheduled step, if it is no further than within ("": P1D).
func (k *Clock) AdvanceNext(ctx context.Context, within Duration) (*AdvanceResponse, error) {
	body := AdvanceRequest{Next: Ptr(true)}
	if within != "" {
		body.Within = Ptr(within)
	}
	return k.move(ctx, body)
}

func (k *Clock) move(ctx context.Context, body AdvanceRequest) (*AdvanceResponse, error) {
	var out AdvanceResponse
	return &out, k.c.Do(ctx, OpSimAdvance, nil, body, nil, &out)
}

// Freeze stops the clock following wall time.
func (k *Clock) Freeze(ctx context.Context) (*ClockState, error) {
	var out ClockState
	return &out, k.c.Do(ctx, OpSimFreeze, nil, nil, nil, &out)
}

// Resume makes the clock follow wall time again.
func (k *Clock) Resume(ctx context.Context) (*ClockState, error) {
	var out ClockState
	return &out, k.c.Do(ctx, OpSimResume, nil, nil, nil, &out)
}
