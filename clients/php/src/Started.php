<?php

declare(strict_types=1);

namespace Dipswitch;

/** A server a client started: its URL and token, the process a stop signals, and a file there until it stopped. */
final class Started
{
    public function __construct(
        public readonly string $url,
        public readonly ?string $adminToken,
        public readonly string $how,
        /** The server itself (a command's), or its keeper (a container's): SIGTERM stops it. */
        public readonly int $pid,
        /** The server's ready file, or the keeper's marker: gone once every pending write finished. */
        public readonly string $until,
        /** The address the server reaches this machine's loopback at, for the test's receivers. */
        public readonly string $receiverHost = '127.0.0.1',
        /** A command's folder (its ready file and its output), removed once it stopped. */
        public readonly ?string $folder = null,
    ) {
    }

    /** Ends the server now (its pending writes finish) and waits until it is done. */
    public function stop(): void
    {
        @posix_kill($this->pid, SIGTERM);
        $deadline = microtime(true) + 30;
        while (microtime(true) < $deadline && (clearstatcache() || file_exists($this->until))) usleep(50_000);
        if ($this->folder !== null) Launcher::remove($this->folder);
    }
}
