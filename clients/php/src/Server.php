<?php

declare(strict_types=1);

namespace Dipswitch;

/**
 * The server with the control API's own authority (its admin token, where it has one); `Dipswitch::start()` makes
 * one and stops the server it started at `close()`.
 */
final class Server extends Client
{
    use Api\ServerApi;

    public function __construct(string $url, ?string $adminToken = null, ?string $run = null, string $receiverHost = '127.0.0.1', public readonly ?Started $started = null)
    {
        parent::__construct($url, null, $adminToken, $run, $receiverHost);
    }

    /** Stops the server this client started (nothing for one it only reached). */
    public function close(): void
    {
        $this->started?->stop();
    }
}
