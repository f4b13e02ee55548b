<?php

declare(strict_types=1);

namespace Dipswitch;

/**
 * A sandbox: its id, name, run, keys and numbers, and a client that acts on it alone (its admin key). `remove()`
 * (generated) deletes it; `Sandbox::with($client, fn ($box) => …)` removes it however the function ends.
 */
final class Sandbox extends Client
{
    use Api\SandboxApi;

    public readonly string $id;
    public readonly string $name;
    public readonly Model\SandboxMadeKeys $keys;
    /** @var list<string> */
    public readonly array $numbers;

    public function __construct(Client $parent, public readonly Model\SandboxMade $made)
    {
        parent::__construct($parent->url, $made->keys->admin, $parent->adminToken, $made->run, $parent->receiverHost);
        $this->id = $made->id;
        $this->name = $made->name;
        $this->keys = $made->keys;
        $this->numbers = $made->numbers;
    }

    /**
     * Runs `$use` with a fresh sandbox of `$client` and removes the sandbox after, however `$use` ends.
     *
     * @template T
     * @param callable(Sandbox): T $use
     * @return T
     */
    public static function with(Client $client, callable $use, ?string $name = null): mixed
    {
        $box = $client->sandbox($name);
        try {
            return $use($box);
        } finally {
            $box->remove();
        }
    }
}
