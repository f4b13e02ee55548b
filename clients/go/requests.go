package dipswitch

// Exactly is a verify's count of exactly n matches (VerifyRequests.Count, VerifyDeliveries.Count; nil is the
// contract's own default, at least 1).
func Exactly(n int) *VerifyCount { return &VerifyCount{Exactly: Ptr(n)} }

// AtLeast is a verify's count of n matches or more.
func AtLeast(n int) *VerifyCount { return &VerifyCount{AtLeast: Ptr(n)} }

// AtMost is a verify's count of n matches or fewer.
func AtMost(n int) *VerifyCount { return &VerifyCount{AtMost: Ptr(n)} }
