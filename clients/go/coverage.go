package dipswitch

import (
	"context"
	"fmt"
	"net/url"
)

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
	return &out, c.Do(ctx, OpSimCoverage, nil, nil, q, &out)
}

// CheckGate answers an error unless percent is a coverage gate: a percentage from 0 to 100.
func CheckGate(percent float64) error {
	if percent < 0 || percent > 100 || percent != percent {
		return fmt.Errorf("a coverage gate is a percentage from 0 to 100, not %g", percent)
	}
	return nil
}
