<?php

declare(strict_types=1);

namespace Dipswitch;

/**
 * What every client shares: the areas of the control API (generated, Api\ControlApi), health, reset, coverage, and
 * sandboxes of its run. Written here: its run, its receiver host, and a sandbox made as a client of its own.
 */
class Client extends Api\ControlApi
{
    public function __construct(
        string $url,
        ?string $key = null,
        ?string $adminToken = null,
        public readonly ?string $run = null,
        /** The address the server reaches this machine's loopback at: give it in a receiver's URL. */
        public readonly string $receiverHost = '127.0.0.1',
    ) {
        parent::__construct($url, $key, $adminToken);
    }

    /** A fresh sandbox of the run (the client's, else DIPSWITCH_RUN), and a client that acts on it alone. */
    public function sandbox(?string $name = null, ?string $run = null): Sandbox
    {
        $ofRun = $run ?? $this->run ?? (getenv('DIPSWITCH_RUN') ?: null);
        return new Sandbox($this, $this->createSandbox(name: $name, run: $ofRun));
    }
}
