package dipswitch

import (
	"context"
	"net/url"
)

// Requests is the journal of calls.
type Requests struct{ c *Client }

// List answers a page of the journal, newest first, filtered as GET /__sim/requests filters.
func (r *Requests) List(ctx context.Context, query url.Values) (*JournalPage, error) {
	var out JournalPage
	return &out, r.c.Do(ctx, OpSimRequests, nil, nil, query, &out)
}

// Exactly is a count of exactly n matches.
func Exactly(n int) VerifyCount { return VerifyCount{Exactly: Ptr(n)} }

// AtLeast is a count of n matches or more.
func AtLeast(n int) VerifyCount { return VerifyCount{AtLeast: Ptr(n)} }

// AtMost is a count of n matches or fewer.
func AtMost(n int) VerifyCount { return VerifyCount{AtMost: Ptr(n)} }

// Verify counts the calls that hold match (count: Exactly, AtLeast or AtMost; its zero value is the contract's
// own default, at least 1); a *VerificationError with the nearest misses when the count does not hold.
func (r *Requests) Verify(ctx context.Context, match VerifyRequestsMatch, count VerifyCount) (*Verified, error) {
	body := VerifyRequests{Match: match}
	if count != (VerifyCount{}) {
		body.Count = &count
	}
	return r.c.verifying(ctx, OpSimVerifyRequests, body, "calls")
}
