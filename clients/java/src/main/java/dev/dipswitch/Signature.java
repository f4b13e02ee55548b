package dev.dipswitch;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The {@code HMAC_SHA256} auth method's signature (docs/webhooks.md): {@code Authorization: SERVICE0-HMAC-SHA256 <hex>}. */
public final class Signature {
    private Signature() {}

    /** Whether {@code header} (the Authorization received) signs {@code body} (the raw bytes, as received) with {@code secret}. */
    public static boolean verify(String header, byte[] body, String secret) {
        String[] parts = header == null ? new String[0] : header.split(" ", 2);
        if (parts.length != 2 || !parts[0].equals("SERVICE0-HMAC-SHA256") || !parts[1].matches("[0-9a-f]{64}")) return false;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return MessageDigest.isEqual(mac.doFinal(body), HexFormat.of().parseHex(parts[1]));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
