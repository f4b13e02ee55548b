package dipswitch

import (
	"context"
	"fmt"
	"net/url"
	"time"
)

// Deliveries is the delivery log.
type Deliveries struct{ c *Client }

// List answers the deliveries, newest first (of one kind, if given).
func (d *Deliveries) List(ctx context.Context, kind DeliveryKind) ([]Delivery, error) {
	q := url.Values{}
	if kind != "" {
		q.Set("kind", string(kind))
	}
	var out DeliveryList
	return out.Deliveries, d.c.Do(ctx, OpSimDeliveries, nil, nil, q, &out)
}

// Listeners answers the listeners (`dipswitch listen`, docs/hosted.md) connected now.
func (d *Deliveries) Listeners(ctx context.Context) ([]Listener, error) {
	var out ListenerList
	return out.Listeners, d.c.Do(ctx, OpSimListeners, nil, nil, nil, &out)
}

// Verify counts the deliveries that hold match; a *VerificationError with the nearest misses (and what the
// server knows of why nothing was sent) when the count does not hold.
func (d *Deliveries) Verify(ctx context.Context, match VerifyDeliveriesMatch, count VerifyCount) (*Verified, error) {
	body := VerifyDeliveries{Match: match}
	if count != (VerifyCount{}) {
		body.Count = &count
	}
	return d.c.verifying(ctx, OpSimVerifyDeliveries, body, "deliveries")
}

// WaitFor answers the oldest delivery holding match (the server checks it, as a verify's), waiting up to
// timeout; a *VerificationError saying how long it waited and what came nearest when none came.
func (d *Deliveries) WaitFor(ctx context.Context, match VerifyDeliveriesMatch, timeout time.Duration) (*Delivery, error) {
	deadline := time.Now().Add(timeout)
	for {
		found, err := d.Verify(ctx, match, AtLeast(1))
		if err == nil && len(found.Matches) > 0 {
			kind := DeliveryKind("")
			if match.Kind != nil {
				kind = DeliveryKind(*match.Kind)
			}
			all, lerr := d.List(ctx, kind)
			if lerr != nil {
				return nil, lerr
			}
			for i := range all {
				if all[i].ID == fmt.Sprint(found.Matches[len(found.Matches)-1]) {
					return &all[i], nil
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

// Redeliver sends a delivery again now.
func (d *Deliveries) Redeliver(ctx context.Context, id string) (*Delivery, error) {
	var out Delivery
	return &out, d.c.Do(ctx, OpSimRedeliver, Params{"id": id}, nil, nil, &out)
}
