<?php

declare(strict_types=1);

use Dipswitch\PHPUnit\UsesSandbox;
use Dipswitch\Receiver;
use Dipswitch\Signature;
use Dipswitch\VerificationError;
use PHPUnit\Framework\TestCase;
use Team\NumbersClient;

final class NumbersTest extends TestCase
{
    use UsesSandbox;

    public function testListingSurvivesA503(): void
    {
        $rule = $this->box->faults->add(match: ['operation_id' => 'listNumbers'], effect: ['status' => 503], times: 1);
        $this->assertCount(10, (new NumbersClient($this->box->url, $this->box->keys->admin))->numbers());
        $this->assertSame(1, $this->box->faults->get($rule->id)->fired);
        $this->box->requests->verify(['operation_id' => 'listNumbers', 'status' => 503], ['exactly' => 1]);
        $this->box->requests->verify(['operation_id' => 'listNumbers', 'status' => 200], ['exactly' => 1]);
    }

    public function testAnOrderOnTheClockWithItsEvents(): void
    {
        $events = new Receiver();
        try {
            $client = new NumbersClient($this->box->url, $this->box->keys->admin);
            $client->call('POST', '/event_subscriptions', ['type' => 'event_subscription', 'data' => [
                'protocol' => 'HTTP', 'data' => $events->url($this->box->receiverHost, '/events'), 'topics' => ['ORDER'],
            ]]);
            $order = $client->orderTwo();
            $done = $client->waitForOrder($order['id'], fn () => $this->box->clock->advance(by: 'PT10M'));
            $this->assertSame('COMPLETED', $done['status']);
            $this->box->deliveries->waitFor(['kind' => 'event', 'body' => ['data' => ['topic' => 'ORDER', 'resource' => ['data' => ['status' => 'COMPLETED']]]]]);
            $completed = array_filter($events->received(), fn ($e) => str_contains($e['body'], '"COMPLETED"'));
            $this->assertStringContainsString($order['id'], (string) reset($completed)['body']);
        } finally {
            $events->close();
        }
    }

    public function testAnInboundSmsReachesOurWebhookSigned(): void
    {
        $receiver = new Receiver();
        try {
            $client = new NumbersClient($this->box->url, $this->box->keys->admin);
            $switch = $client->call('POST', '/switches', ['type' => 'switch', 'data' => [
                'name' => 'webhook', 'sms_enabled' => true, 'sms_protocol' => 'HTTP', 'sms_data' => $receiver->url($this->box->receiverHost, '/sms'),
                'sms_auth_method' => 'HMAC_SHA256', 'sms_secret' => 'team secret',
            ]])['data'];
            $client->call('PATCH', '/numbers/' . urlencode($this->box->numbers[0]), ['type' => 'did', 'data' => ['switch_id' => $switch['id']]]);
            $this->box->inbound->sms(to: $this->box->numbers[0], from: '+14155550123', text: 'hello team');
            [$sms] = $receiver->waitFor(1);
            $this->assertTrue(Signature::verify($sms['headers']['authorization'] ?? null, $sms['body'], 'team secret'));
            $this->assertSame('hello team', json_decode($sms['body'], true)['data']['text']);
            $this->box->deliveries->verify(['kind' => 'sms', 'body' => ['data' => ['text' => 'hello team']]], ['exactly' => 1]);
        } finally {
            $receiver->close();
        }
    }

    public function testAMissedVerifyNamesItsNearMisses(): void
    {
        (new NumbersClient($this->box->url, $this->box->keys->admin))->call('POST', '/carts', ['type' => 'cart', 'data' => ['name' => 'launch']]);
        try {
            $this->box->requests->verify(['operation_id' => 'createCart', 'body' => ['data' => ['name' => 'lunch']]]);
            $this->fail('the verify passed');
        } catch (VerificationError $missed) {
            $difference = $missed->nearMisses[0]->differences[0];
            $this->assertSame('/body/data/name', $difference->field);
            $this->assertSame('launch', $difference->actual);
        }
    }
}
