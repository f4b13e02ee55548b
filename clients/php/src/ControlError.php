<?php

declare(strict_types=1);

namespace Dipswitch;

/** An answer the control API refused: its status, its error envelope and its first code. */
final class ControlError extends DipswitchError
{
    public readonly ?string $errorCode;

    public function __construct(public readonly int $status, public readonly array $body, public readonly string $operation)
    {
        $said = implode('; ', array_map(static fn ($e) => ($e['code'] ?? '') . ': ' . ($e['detail'] ?? ''), $body['errors'] ?? []));
        $this->errorCode = $body['errors'][0]['code'] ?? null;
        parent::__construct("$operation answered $status: $said");
    }
}
