<?php

declare(strict_types=1);

namespace Dipswitch;

/** The `HMAC_SHA256` auth method's signature (docs/webhooks.md): `Authorization: SERVICE0-HMAC-SHA256 <hex>`. */
final class Signature
{
    /** Whether `$header` (the Authorization received) signs `$body` (the raw bytes, as received) with `$secret`. */
    public static function verify(?string $header, string $body, string $secret): bool
    {
        $parts = explode(' ', (string) $header);
        if (count($parts) !== 2 || $parts[0] !== 'SERVICE0-HMAC-SHA256' || !preg_match('/^[0-9a-f]{64}$/', $parts[1])) return false;
        return hash_equals(hash_hmac('sha256', $body, $secret), $parts[1]);
    }
}
