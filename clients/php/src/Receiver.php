<?php

declare(strict_types=1);

namespace Dipswitch;

/**
 * A webhook receiver for a test that only wants to see what was sent: PHP's built-in server on a free port of
 * 127.0.0.1 (its router, bin/receiver.php, keeps each request in a file), answering every request 200 (or the
 * status given). Build a target from the server's receiver host: `$receiver->url($box->receiverHost, '/sms')`.
 */
final class Receiver
{
    public readonly int $port;
    private string $folder;
    /** @var resource */
    private $process;

    public function __construct(int $status = 200)
    {
        $probe = stream_socket_server('tcp://127.0.0.1:0') ?: throw new DipswitchError('no free port on 127.0.0.1 for a receiver');
        $this->port = (int) substr((string) strrchr((string) stream_socket_get_name($probe, false), ':'), 1);
        fclose($probe);
        $this->folder = sys_get_temp_dir() . '/dipswitch-receiver-' . bin2hex(random_bytes(6));
        mkdir($this->folder, 0700);
        $env = getenv() + ['DIPSWITCH_RECEIVED' => "{$this->folder}/received.jsonl", 'DIPSWITCH_RECEIVER_STATUS' => (string) $status];
        $null = ['file', '/dev/null', 'w'];
        $this->process = proc_open([PHP_BINARY, '-S', "127.0.0.1:{$this->port}", dirname(__DIR__) . '/bin/receiver.php'], [['file', '/dev/null', 'r'], $null, $null], $pipes, null, $env);
        $deadline = microtime(true) + 10;
        while (!($up = @fsockopen('127.0.0.1', $this->port)) && microtime(true) < $deadline) usleep(20_000);
        if (!$up) throw new DipswitchError("the receiver did not listen on 127.0.0.1:{$this->port}");
        fclose($up);
    }

    /** The URL of `$path` on this receiver as the server reaches it (`$host`: the client's receiverHost). */
    public function url(string $host = '127.0.0.1', string $path = '/'): string
    {
        return "http://$host:{$this->port}$path";
    }

    /** @return list<array{method: string, path: string, headers: array<string, string>, body: string}> every request so far. */
    public function received(): array
    {
        $file = "{$this->folder}/received.jsonl";
        clearstatcache();
        $lines = is_file($file) ? file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) : [];
        return array_map(static fn ($l) => json_decode($l, true), $lines ?: []);
    }

    /** The first `$count` requests, waiting up to `$timeout` seconds for them. */
    public function waitFor(int $count = 1, float $timeout = 5.0): array
    {
        $deadline = microtime(true) + $timeout;
        while (count($got = $this->received()) < $count) {
            if (microtime(true) > $deadline) throw new DipswitchError(sprintf('the receiver got %d of %d requests within %g s', count($got), $count, $timeout));
            usleep(20_000);
        }
        return array_slice($got, 0, $count);
    }

    public function close(): void
    {
        proc_terminate($this->process);
        proc_close($this->process);
        Launcher::remove($this->folder);
    }
}
