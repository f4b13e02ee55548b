package dipswitch

import (
	"context"
	"fmt"
	"time"
)

// WaitFor answers the oldest delivery holding match (the server checks it, as a verify's), waiting up to
// timeout; a *VerificationError saying how long it waited and what came nearest when none came. The one
// method of the delivery log written by hand (the rest are generated: api_deliveries.go).
func (d *Deliveries) WaitFor(ctx context.Context, match VerifyDeliveriesMatch, timeout time.Duration) (*Delivery, error) {
	deadline := time.Now().Add(timeout)
	for {
		found, err := d.Verify(ctx, VerifyDeliveries{Match: match, Count: AtLeast(1)})
		if err == nil && len(found.Matches) > 0 {
			query := &DeliveriesQuery{}
			if match.Kind != nil {
				query.Kind = Ptr(string(*match.Kind))
			}
			all, lerr := d.List(ctx, query)
			if lerr != nil {
				return nil, lerr
			}
			for i := range all.Deliveries {
				if all.Deliveries[i].ID == fmt.Sprint(found.Matches[len(found.Matches)-1]) {
					return &all.Deliveries[i], nil
				}
			}
		} else if failed, waiting := err.(*VerificationError); err != nil && !waiting {
			return nil, err
		} else if err != nil && time.Now().After(deadline) {
			failed.Waited = timeout
			return nil, failed
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
