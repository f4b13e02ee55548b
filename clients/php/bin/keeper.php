<?php

// The keeper of a container a client started: `php keeper.php OWNER MARKER ENGINE ID`, in a session of its own.
// Once the owner (the test process) is gone, however it ended, or when the keeper is sent SIGTERM (a stop), it
// removes the container (`ENGINE rm -f`), then MARKER: a stop waits for that.
declare(strict_types=1);

[, $owner, $marker, $engine, $container] = $argv;
$stopping = false;
pcntl_async_signals(true);
pcntl_signal(SIGTERM, function () use (&$stopping) {
    $stopping = true;
});
pcntl_signal(SIGINT, SIG_IGN);
while (!$stopping && posix_kill((int) $owner, 0)) usleep(100_000);
exec(escapeshellarg($engine) . ' rm -f ' . escapeshellarg($container) . ' >/dev/null 2>&1');
@unlink($marker);
