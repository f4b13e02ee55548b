<?php

declare(strict_types=1);

namespace Dipswitch;

/** A verify whose count did not hold (or a wait that ran out): what was asked, what came nearest, and why. */
final class VerificationError extends DipswitchError
{
    public readonly int $count;
    public readonly string $expected;
    /** @var list<Model\NearMiss> */
    public readonly array $nearMisses;
    /** @var list<string> */
    public readonly array $notes;

    public function __construct(public readonly array $body, private readonly string $of = 'calls', ?float $waited = null)
    {
        $this->count = $body['count'] ?? 0;
        $this->expected = $body['expected'] ?? '';
        $this->nearMisses = array_map(static fn ($m) => Model\NearMiss::fromArray($m), $body['near_misses'] ?? []);
        $this->notes = $body['notes'] ?? [];
        $first = $body['errors'][0]['detail'] ?? 'The verification failed.';
        $lines = [$waited === null ? $first : sprintf('Waited %g s: %s', $waited, lcfirst($first))];
        foreach ($this->notes as $note) $lines[] = "  $note";
        foreach ($this->nearMisses as $miss) {
            $lines[] = "  near miss: {$miss->summary}";
            foreach ($miss->differences as $d)
                $lines[] = sprintf('    %s: expected %s, got %s', $d->field, json_encode($d->expected), json_encode($d->actual));
        }
        if (($body['near_misses_left_out'] ?? 0) > 0) $lines[] = "  … and {$body['near_misses_left_out']} further from it, left out";
        if (!$this->nearMisses && !$this->notes) $lines[] = '  no ' . ($of === 'deliveries' ? 'delivery' : 'call') . ' came near it';
        parent::__construct(implode("\n", $lines));
    }

    /** The same failure, said of a wait that ran `$seconds` out. */
    public function waited(float $seconds): self
    {
        return new self($this->body, $this->of, $seconds);
    }
}
