<?php

declare(strict_types=1);

namespace Team;

/** A small client of the provider's /api/v1, as a client team writes one: list numbers, order two, wait for the order. */
final class NumbersClient
{
    private string $base;

    public function __construct(string $url, private string $key, private int $retries = 2)
    {
        $this->base = rtrim($url, '/') . '/api/v1';
    }

    public function call(string $method, string $path, ?array $body = null): mixed
    {
        for ($attempt = 0; ; $attempt++) {
            $curl = curl_init($this->base . $path);
            $headers = ["authorization: Bearer {$this->key}", 'accept: application/json'];
            if ($body !== null) {
                $headers[] = 'content-type: application/json';
                curl_setopt($curl, CURLOPT_POSTFIELDS, json_encode($body));
            }
            curl_setopt_array($curl, [CURLOPT_CUSTOMREQUEST => $method, CURLOPT_RETURNTRANSFER => true, CURLOPT_HTTPHEADER => $headers]);
            $text = curl_exec($curl);
            $status = curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
            // the provider's 5xx (and a dropped connection) are worth another try; anything else is the caller's
            if (($text !== false && $status < 500) || $attempt === $this->retries) {
                if ($text === false || $status >= 400) throw new \RuntimeException("$method $path answered $status: $text");
                return json_decode($text, true);
            }
            usleep(50_000 * ($attempt + 1));
        }
    }

    /** @return list<string> */
    public function numbers(): array
    {
        return array_map(static fn ($r) => $r['data']['number'], $this->call('GET', '/numbers')['results']);
    }

    public function orderTwo(string $npa = '312', string $state = 'IL'): array
    {
        $cart = $this->call('POST', '/carts', ['type' => 'cart', 'data' => ['name' => 'order ' . hrtime(true)]])['data'];
        $this->call('POST', "/carts/{$cart['id']}/requests", ['type' => 'request', 'data' => [
            'type' => 'NEW_NUMBERS', 'data' => ['npa' => $npa, 'state' => $state, 'number_type' => 'TENDLC', 'quantity' => '2'],
        ]]);
        return $this->call('POST', "/carts/{$cart['id']}/checkout")['data'];
    }

    /** Polls the order until it ends; `$tick` moves time on between polls (a test's clock). */
    public function waitForOrder(string $id, callable $tick, int $attempts = 50): array
    {
        for ($i = 0; $i < $attempts; $i++) {
            $order = $this->call('GET', "/orders/$id")['data'];
            if (in_array($order['status'], ['COMPLETED', 'ERROR', 'CANCELLED'], true)) return $order;
            $tick();
        }
        throw new \RuntimeException("order $id did not end");
    }
}
