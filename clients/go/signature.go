package dipswitch

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
)

var signatureHex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// VerifySignature says whether header (the Authorization received) signs body (the raw bytes, as received) with
// secret: "SERVICE0-HMAC-SHA256 <hex>", the lowercase hex HMAC-SHA256 of the body (docs/webhooks.md).
func VerifySignature(header string, body []byte, secret string) bool {
	scheme, given, ok := strings.Cut(header, " ")
	if !ok || scheme != "SERVICE0-HMAC-SHA256" || !signatureHex.MatchString(given) {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return hmac.Equal([]byte(hex.EncodeToString(mac.Sum(nil))), []byte(given))
}
