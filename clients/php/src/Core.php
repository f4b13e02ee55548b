<?php

declare(strict_types=1);

namespace Dipswitch;

use Dipswitch\Generated\Operations;

/**
 * The request core: one call of one operation of the control API, and the errors it raises. Every method of the
 * client is one operation of contract/sim.yaml, generated into src/Api and named by its operationId; its method and
 * path come from the generated table (Generated\Operations), never written twice. A verify the server refuses with
 * `verification_failed` is a VerificationError; any other refusal a ControlError.
 */
abstract class Core
{
    public readonly string $url;

    public function __construct(string $url, public readonly ?string $key = null, public readonly ?string $adminToken = null, public readonly float $timeout = 60.0)
    {
        $this->url = rtrim($url, '/');
    }

    /** A body's fields, those not given (null) left out: a JSON object, `{}` when none is given. */
    public static function given(array $fields): object
    {
        return (object) array_filter($fields, static fn ($v) => $v !== null);
    }

    /**
     * Calls one operation: its path's parameters, a JSON body (null for none) and the query (null values left out);
     * the answer decoded (arrays for objects), or its text when it is not JSON.
     */
    public function call(string $operation, array $params = [], mixed $body = null, array $query = []): mixed
    {
        [$method, $path] = Operations::ALL[$operation] ?? throw new \LogicException("$operation is no operation of contract/sim.yaml");
        foreach ($params as $name => $value) $path = str_replace('{' . $name . '}', rawurlencode((string) $value), $path);
        $pairs = array_map(static fn ($v) => is_bool($v) ? ($v ? 'true' : 'false') : $v, array_filter($query, static fn ($v) => $v !== null));
        $target = $this->url . $path . ($pairs ? '?' . http_build_query($pairs) : '');
        $headers = ['accept: application/json'];
        if ($this->key !== null) $headers[] = "authorization: Bearer {$this->key}";
        if ($this->adminToken !== null) $headers[] = "x-sim-admin-token: {$this->adminToken}";
        $curl = curl_init($target);
        curl_setopt_array($curl, [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_TIMEOUT_MS => (int) ($this->timeout * 1000),
            CURLOPT_HEADER => false,
        ]);
        if ($body !== null) {
            $headers[] = 'content-type: application/json';
            curl_setopt($curl, CURLOPT_POSTFIELDS, json_encode($body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES));
        }
        curl_setopt($curl, CURLOPT_HTTPHEADER, $headers);
        $text = curl_exec($curl);
        if ($text === false) throw new DipswitchError("$operation: no answer from {$this->url}: " . curl_error($curl));
        $status = curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        $json = str_contains((string) curl_getinfo($curl, CURLINFO_CONTENT_TYPE), 'json');
        $decoded = $json && $text !== '' ? json_decode($text, true) : $text;
        if ($status < 400) return $decoded;
        $envelope = is_array($decoded) ? $decoded : ['errors' => [['code' => 'not_json', 'detail' => substr($text, 0, 300)]]];
        if (($envelope['errors'][0]['code'] ?? null) === 'verification_failed')
            throw new VerificationError($envelope, $operation === 'simVerifyDeliveries' ? 'deliveries' : 'calls');
        throw new ControlError($status, $envelope, $operation);
    }
}
