<?php

declare(strict_types=1);

use Dipswitch\Generated\Operations;
use Dipswitch\Settings;
use Dipswitch\SettingError;
use Dipswitch\ShellWords;
use Dipswitch\Signature;
use PHPUnit\Framework\TestCase;

/** What the client decides without a server: its settings, the command's words, signatures, its operations. */
final class ClientTest extends TestCase
{
    public function testTheCommandIsSplitAsEveryClientSplitsIt(): void
    {
        $cases = json_decode((string) file_get_contents(__DIR__ . '/../../shell_words.json'), true);
        foreach ($cases['cases'] as $case) $this->assertSame($case['words'], ShellWords::split($case['line']), $case['line']);
        foreach ($cases['refused'] as $line) {
            try {
                ShellWords::split($line);
                $this->fail("not refused: $line");
            } catch (InvalidArgumentException) {
                $this->addToAssertionCount(1);
            }
        }
    }

    public function testEachSettingFromItsValueElseItsVariable(): void
    {
        $env = ['DIPSWITCH_URL' => 'http://127.0.0.1:9', 'DIPSWITCH_FAIL_UNDER' => '', 'DIPSWITCH_COMMAND' => "node '/a b/main.js' --memory"];
        $s = Settings::resolve([], $env);
        $this->assertSame('http://127.0.0.1:9', $s->url);
        $this->assertNull($s->failUnder);
        $this->assertSame(['node', '/a b/main.js', '--memory'], $s->command);
        $this->assertSame('http://x', Settings::resolve(['url' => 'http://x'], $env)->url);
        $this->assertSame(50, Settings::resolve([], ['DIPSWITCH_FAIL_UNDER' => '50'])->failUnder);
        $this->assertFalse(Settings::resolve([], [])->fetch);
        foreach ([
            ['DIPSWITCH_FAIL_UNDER' => '150'], ['DIPSWITCH_FAIL_UNDER' => 'most'], ['DIPSWITCH_FETCH' => 'maybe'],
            ['DIPSWITCH_CONTAINER_ENGINE' => 'lxc'], ['DIPSWITCH_COMMAND' => "node 'unclosed"],
        ] as $bad) {
            try {
                Settings::resolve([], $bad);
                $this->fail('not refused: ' . json_encode($bad));
            } catch (SettingError $e) {
                $this->assertStringContainsString(array_key_first($bad), $e->getMessage());
            }
        }
    }

    public function testASignatureIsCheckedOverTheRawBody(): void
    {
        $body = '{"type":"sms"}';
        $header = 'SERVICE0-HMAC-SHA256 ' . hash_hmac('sha256', $body, 'shh');
        $this->assertTrue(Signature::verify($header, $body, 'shh'));
        $this->assertFalse(Signature::verify($header, $body . ' ', 'shh'));
        $this->assertFalse(Signature::verify($header, $body, 'other'));
        $this->assertFalse(Signature::verify(null, $body, 'shh'));
        $this->assertFalse(Signature::verify('Bearer x', $body, 'shh'));
    }

    public function testEveryOperationHasAMethodOrAReason(): void
    {
        $called = [];
        foreach (glob(__DIR__ . '/../src/Api/*.php') as $file)
            preg_match_all("/->call\\('(\\w+)'/", (string) file_get_contents($file), $m) && array_push($called, ...$m[1]);
        $missing = array_diff(array_keys(Operations::ALL), $called, array_keys(Operations::OMITTED));
        $this->assertSame([], array_values($missing));
        $this->assertSame([], array_values(array_diff($called, array_keys(Operations::ALL))));
    }
}
